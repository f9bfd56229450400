"""Thin adapters around real client libraries, so the contracts can be run against them.

One module per library (``openai_sdk``, ``langchain_openai``, ``litellm_sdk``),
each exposing ``adapter``. They are optional: ``harness`` never imports them,
and each needs its library installed (the ``openai``, ``langchain`` and
``litellm`` extras). Every HTTP call they make goes to an in-memory transport.
"""
