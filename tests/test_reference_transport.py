"""The reference transport: a client per turn, every one with the one SSL context built on the first turn."""

from __future__ import annotations

import ssl

from harness.reference import adapter as reference, transport
from harness.testing.cassettes import replay
from harness.testing.scripted import ScriptedTool


def test_turns_build_one_ssl_context_between_them(monkeypatch):
    built = []
    real = ssl.create_default_context

    def counted(*args, **kwargs):
        built.append(args or kwargs)
        return real(*args, **kwargs)

    # httpx builds a client's context with ssl.create_default_context, looked up at each call.
    monkeypatch.setattr(ssl, "create_default_context", counted)
    transport._ssl_context.cache_clear()
    try:
        for _ in range(3):
            with replay("gateway_index_zero") as played:
                result = reference.run_http_turn(played.base_url, "Oslo or Lisbon?", [ScriptedTool("get_weather")], {})
            assert result["events"][-1]["response"] == "Lisbon is warmer than Oslo today."
    finally:
        transport._ssl_context.cache_clear()
    assert len(built) == 1, f"{len(built)} SSL contexts built for 3 turns"
