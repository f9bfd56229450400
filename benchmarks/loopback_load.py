"""A bounded load test of the loopback provider: 100 concurrent streaming requests, on loopback only.

Every request streams the ``interleaved`` scenario (three parallel calls) in
64-byte pieces; all are sent at once from one asyncio client (aiohttp), each
must come back HTTP 200 with the whole stream (ending in ``[DONE]``), and the
server's record must hold every one of them. The run is bounded in count
(``--requests``, at most 1000) and in time (``--deadline`` seconds, then it
stops and fails), and talks to 127.0.0.1 only.

    python benchmarks/loopback_load.py [--requests 100] [--deadline 60]

Prints the wall time and the median and 95th-percentile latency; exits 1 on
any error.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time

import aiohttp

from harness.loopback import Delivery, LoopbackProvider

BODY = {
    "model": "m", "stream": True, "messages": [{"role": "user", "content": "Weather in Zürich and Tokyo?"}],
    "tools": [{"type": "function", "function": {"name": name, "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}}}} for name in ("get_weather", "get_time")],
}
MAX_REQUESTS = 1000


async def one(session: aiohttp.ClientSession, url: str) -> float:
    started = time.perf_counter()
    async with session.post(url, json=BODY) as response:
        body = await response.read()
        if response.status != 200 or not body.endswith(b"data: [DONE]\n\n"):
            raise AssertionError(f"HTTP {response.status}, body ends {body[-80:]!r}")
    return time.perf_counter() - started


async def load(url: str, count: int) -> list[float | BaseException]:
    connector = aiohttp.TCPConnector(limit=count)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=30)) as session:
        return await asyncio.gather(*(one(session, url) for _ in range(count)), return_exceptions=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--deadline", type=float, default=60.0, help="stop and fail after this many seconds")
    args = parser.parse_args()
    count = max(1, min(args.requests, MAX_REQUESTS))
    with LoopbackProvider(scenario="interleaved", delivery=Delivery("bytes", 64)) as provider:
        url = provider.base_url + "/chat/completions"
        if not url.startswith("http://127.0.0.1:"):
            print(f"refusing to load {url}: loopback only", file=sys.stderr)
            return 1
        started = time.perf_counter()
        try:
            results = asyncio.run(asyncio.wait_for(load(url, count), args.deadline))
        except TimeoutError:
            print(f"FAILED: not done within {args.deadline:g} s", file=sys.stderr)
            return 1
        wall = time.perf_counter() - started
        recorded = len(provider.record)
    errors = [r for r in results if isinstance(r, BaseException)]
    latencies = sorted(r for r in results if not isinstance(r, BaseException))
    print(f"{count} concurrent streaming requests in {wall * 1000:.0f} ms wall; {len(errors)} error(s); "
          f"{recorded} recorded by the server")
    if latencies:
        p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
        print(f"latency: median {statistics.median(latencies) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms")
    for error in errors[:5]:
        print(f"  error: {type(error).__name__}: {error}", file=sys.stderr)
    return 0 if not errors and recorded == count else 1


if __name__ == "__main__":
    raise SystemExit(main())
