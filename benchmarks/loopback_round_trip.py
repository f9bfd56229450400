"""What the loopback provider adds per request, against in-process replay of the same cassette.

The same client (the reference adapter's httpx transport) runs the same turn
(the two rounds of ``openai_parallel_tool_calls``) many times, alternating:
in-process, vcrpy answers it; over loopback, the loopback provider does (one
server for the whole run, a fresh cassette player per turn), so the
difference is the real HTTP round trip on 127.0.0.1 and the server's work
(profile check, record, streaming). Per request = turn time / requests sent.

    python benchmarks/loopback_round_trip.py [--turns 60]

Prints the medians, their difference and their ratio; exits 1 when the
loopback adds more than 5 ms median per request.
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness.loopback import LoopbackProvider
from harness.loopback.sources import CassetteSource
from harness.reference import adapter as reference
from harness.testing.cassettes import replay
from harness.testing.scripted import ScriptedTool

CASSETTE = "openai_parallel_tool_calls"
QUESTION = "Weather in Paris and Tokyo, and the time in Tokyo?"
OPTIONS = {"model": "o4-mini", "effort": "high"}
LIMIT_MS = 5.0


def _tools() -> list[ScriptedTool]:
    return [ScriptedTool("get_time"), ScriptedTool("get_weather")]


def in_process() -> float:
    started = time.perf_counter()
    with replay(CASSETTE) as played:
        reference.run_http_turn(played.base_url, QUESTION, _tools(), OPTIONS)
    return (time.perf_counter() - started) / len(played.sent)


def over_loopback(provider: LoopbackProvider) -> float:
    provider.source = CassetteSource(CASSETTE)
    before = len(provider.record)
    started = time.perf_counter()
    reference.run_http_turn(provider.base_url, QUESTION, _tools(), OPTIONS)
    elapsed = time.perf_counter() - started
    sent = len(provider.record) - before
    assert sent == 2 and all(e.status == 200 for e in provider.record.exchanges[before:]), "the turn did not replay"
    return elapsed / sent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60, help="turns on each side (default: 60)")
    args = parser.parse_args()
    local, loop = [], []
    with LoopbackProvider(source=CassetteSource(CASSETTE)) as provider:
        assert provider.base_url.startswith("http://127.0.0.1:"), provider.base_url
        in_process(), over_loopback(provider)  # warm both paths (imports, first connection)
        for _ in range(max(1, args.turns)):
            local.append(in_process())
            loop.append(over_loopback(provider))
    a, b = statistics.median(local) * 1000, statistics.median(loop) * 1000
    print(f"in-process replay: median {a:.2f} ms per request ({len(local)} turns, 2 requests each)")
    print(f"loopback provider: median {b:.2f} ms per request ({len(loop)} turns, 2 requests each)")
    print(f"added by loopback: {b - a:+.2f} ms per request (limit {LIMIT_MS:g} ms); ratio {b / a:.2f}")
    return 0 if b - a <= LIMIT_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
