"""tinyllm: a small OpenAI-compatible client codec, as an agent team would write one.

It is the harness's example of a team's own Python adapter: ``tinyllm.adapter:adapter``
runs under the contracts (``harness check``), and the bugs this team has shipped
before are kept in ``mutants.toml`` as known bugs the contracts must keep catching
(``harness mutate --adapter``).
"""
