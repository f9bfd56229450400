"""The executable contracts: one module per wire rule, run against any adapter.

Run them with ``harness check`` or inside any pytest session with
``pytest --pyargs harness.contracts --adapter mypkg.llm:adapter``.
"""
