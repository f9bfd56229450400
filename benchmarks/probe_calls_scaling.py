"""How ``harness probe``'s cost grows with the number of provider calls an agent makes: it should be linear.

A synthetic agent (this file, run with ``--agent N BASE_URL PROMPT``) sends N
small streaming requests in one run, each the user's prompt alone with one tool, over one
HTTP connection; the probe runs it through one scenario at N and at 4 N calls
and the script prints both wall times and their ratio per call. Linear cost
keeps that ratio near 1; a quadratic step makes it near 4. Loopback only.

    python benchmarks/probe_calls_scaling.py [--calls 500] [--scenario usage]
"""

from __future__ import annotations

import argparse
import sys
import time

import httpx

TOOL = "get_weather"


def agent(count: int, base_url: str, prompt: str) -> int:
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": prompt}], "tools": [
        {"type": "function", "function": {"name": TOOL, "parameters": {
            "type": "object", "properties": {"city": {"type": "string"}}}}}]}
    with httpx.Client(base_url=base_url, timeout=30) as client:
        for _ in range(count):
            with client.stream("POST", "/chat/completions", json=body) as response:
                response.read()
    return 0


def probe_seconds(count: int, scenario: str) -> float:
    from harness.loopback.probe import SUITE, Case, run_case
    from harness.loopback.delivery import Delivery

    case = next((c for c in SUITE if c.scenario == scenario), Case(scenario, Delivery()))
    template = f"{sys.executable} {__file__} --agent {count} {{base_url}} {{prompt}}"
    started = time.perf_counter()
    run_case(case, template, "openai", "current", frozenset({TOOL}), timeout=600)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", nargs=3, metavar=("N", "BASE_URL", "PROMPT"), help=argparse.SUPPRESS)
    parser.add_argument("--calls", type=int, default=500, help="calls of the small run (the large one makes 4x)")
    parser.add_argument("--scenario", default="usage")
    args = parser.parse_args()
    if args.agent:
        count, base_url, prompt = args.agent
        return agent(int(count), base_url, prompt)
    small, large = args.calls, 4 * args.calls
    t_small, t_large = probe_seconds(small, args.scenario), probe_seconds(large, args.scenario)
    ratio = (t_large / large) / (t_small / small)
    print(f"{small} calls: {t_small:.2f} s; {large} calls: {t_large:.2f} s; "
          f"cost per call at {large} over at {small}: {ratio:.2f} (linear: about 1)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
