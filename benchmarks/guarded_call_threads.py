"""A guarded adapter call's thread: a new thread per call (before issue 36) against the reused ones, side by side.

Each repeat makes ``--calls`` calls of a method that returns at once, first
each in a thread started for it and joined (what the guard did), then through
:mod:`harness.under_test.call_threads` (what it does), and times both in wall
and CPU. The method does nothing, so what is timed is the handing over alone:
the part of every guarded call that is not the adapter's.

    python benchmarks/guarded_call_threads.py [--repeat 5] [--calls 2000]

Prints each repeat, then the medians per call and the ratios old / new.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

from harness.under_test import call_threads


def _returns() -> int:
    return 1


def thread_per_call(calls: int) -> None:
    for _ in range(calls):
        outcome: dict = {}
        thread = threading.Thread(target=lambda: outcome.setdefault("value", _returns()), daemon=True)
        thread.start()
        thread.join()


def reused_threads(calls: int) -> None:
    for _ in range(calls):
        call_threads.run(call_threads.Call(_returns, (), {}, name="adapter call"), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    sides = {"thread per call": thread_per_call, "reused threads": reused_threads}
    walls: dict[str, list[float]] = {name: [] for name in sides}
    cpus: dict[str, list[float]] = {name: [] for name in sides}
    for n in range(args.repeat):
        for name, side in sides.items():
            cpu, wall = time.process_time(), time.perf_counter()
            side(args.calls)
            walls[name].append((time.perf_counter() - wall) / args.calls * 1e6)
            cpus[name].append((time.process_time() - cpu) / args.calls * 1e6)
        print(f"run {n + 1} (load {os.getloadavg()[0]:.1f}): " + "  ".join(
            f"{name} {walls[name][-1]:.1f} us wall, {cpus[name][-1]:.1f} us CPU per call" for name in sides), flush=True)
    (old, new) = sides
    print(f"median of {args.repeat}, {args.calls} calls each:")
    for name in sides:
        print(f"  {name:<16} {statistics.median(walls[name]):7.1f} us wall  {statistics.median(cpus[name]):7.1f} us CPU")
    print(f"  old / new: wall {statistics.median(walls[old]) / statistics.median(walls[new]):.1f}x, "
          f"CPU {statistics.median(cpus[old]) / statistics.median(cpus[new]):.1f}x")


if __name__ == "__main__":
    main()
