"""What a turn of the reference transport costs with a client per turn (the old way) and one per transport.

Both sides run the same turn (the two rounds of ``openai_parallel_tool_calls``)
against one loopback provider on 127.0.0.1, alternating turn by turn:

- old, a client per turn: a fresh :class:`HttpTransport` each turn, closed
  after it, so every turn builds an httpx client and opens its connection (the
  SSL context is shared on both sides, as it was before);
- new, one client per transport: one :class:`HttpTransport` for every turn,
  whose client keeps its connection between turns.

    python benchmarks/transport_client_reuse.py [--turns 200]

Prints the median per turn of each side, old beside new, and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness.loopback import LoopbackProvider
from harness.loopback.sources import CassetteSource
from harness.reference.transport import HttpTransport
from harness.testing.scripted import ScriptedTool

CASSETTE = "openai_parallel_tool_calls"
QUESTION = "Weather in Paris and Tokyo, and the time in Tokyo?"
OPTIONS = {"model": "o4-mini", "effort": "high"}


def timed_turn(http: HttpTransport, provider: LoopbackProvider) -> float:
    """Seconds for one turn through ``http``; it must have replayed both rounds."""
    provider.source = CassetteSource(CASSETTE)
    before = len(provider.record)
    started = time.perf_counter()
    http.run_http_turn(provider.base_url, QUESTION, [ScriptedTool("get_time"), ScriptedTool("get_weather")], OPTIONS)
    elapsed = time.perf_counter() - started
    assert len(provider.record) - before == 2, "the turn did not replay"
    assert all(e.status == 200 for e in provider.record.exchanges[before:]), "the turn did not replay"
    return elapsed


def per_turn_client(provider: LoopbackProvider) -> float:
    """Seconds for one turn, the client built and closed inside the timing, as run_http_turn once did."""
    started = time.perf_counter()
    with HttpTransport() as http:
        timed_turn(http, provider)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200, help="turns on each side (default: 200)")
    args = parser.parse_args()
    old, new = [], []
    with LoopbackProvider(source=CassetteSource(CASSETTE)) as provider, HttpTransport() as shared:
        per_turn_client(provider), timed_turn(shared, provider)  # warm both (imports, SSL context, connection)
        for _ in range(max(1, args.turns)):
            old.append(per_turn_client(provider))
            new.append(timed_turn(shared, provider))
    a, b = statistics.median(old) * 1000, statistics.median(new) * 1000
    print(f"old, a client per turn:       median {a:.2f} ms per turn ({len(old)} turns, 2 requests each)")
    print(f"new, one client per transport: median {b:.2f} ms per turn ({len(new)} turns, 2 requests each)")
    print(f"saved per turn: {a - b:.2f} ms; ratio old/new {a / b:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
