"""The reference stream parser against openai-python's own decode and accumulate, side by side.

Both sides read the same SSE body of a streamed chat completion (reasoning
pieces, text pieces, two tool calls whose arguments arrive in fragments, a
usage chunk), built with the harness's own chunk and SSE builders, at each
size asked for (1, 10 and 50 MB by default):

1. reference: ``harness.reference.stream.parse_stream(body)``: every event's
   shape checked, the text, reasoning, tool calls, finish reason and usage;
2. openai-python: its own pieces doing the same job on plain values, as the
   issue names them: ``SSEDecoder`` frames the body, ``json.loads`` reads each
   event, ``accumulate_delta`` joins each choice's deltas (by its index), and
   the finish reason and usage are kept as sent. (``ChatCompletionStreamState``
   is not the baseline: per chunk it also builds pydantic models and dumps the
   whole snapshot again, work the reference does not do, so the reference
   would look many times faster than it is.)

Each side runs N calls at once on a thread pool (N = 1, 12 and 128 by
default), every call parsing the same (immutable) body; a run's rate is the
bytes of all N calls over its wall time. The two sides alternate, one run
each per repeat, so a loaded machine weighs on both alike, and both run the
same cells. A cell whose N calls would parse more than ``--max-total-mb``
between them is skipped, on both sides, and the table says so: openai-python
parses well under 1 MB/s here, so 128 calls of 50 MB would take hours (and
the in-flight parses of the two sides tens of GB).

    python benchmarks/parser_vs_openai.py [--repeat 3] [--calls 1,12,128] [--mb 1,10,50] [--max-total-mb 200]
    python benchmarks/parser_vs_openai.py --quick    # one repeat, cells of at most 60 MB: a few minutes

Prints the setup (versions, CPUs, load), every run, then per size and N the
median MB/s of each side and the ratio reference/openai-python, of the
medians and the median of each repeat's own ratio (above 1: the reference is
faster). Machines here are noisy: quote the ratios, and medians of several
repeats.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from importlib.metadata import version
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from openai._streaming import SSEDecoder
from openai.lib.streaming._deltas import accumulate_delta

from harness.reference.stream import parse_stream
from harness.wire.chunks import ENVELOPE, choice_chunk, usage_chunk
from harness.wire.sse import sse

# Token-sized pieces, as real streams send them.
_WORDS = ("The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", ".")


def stream_body(megabytes: float) -> bytes:
    """A streamed completion of about ``megabytes`` MB: reasoning, text, two fragmented tool calls, usage."""
    target = int(megabytes * 1_000_000)
    chunks = [choice_chunk(ENVELOPE, {"role": "assistant", "content": None})]
    size = 0
    n = 0
    while size < target:
        n += 1
        for delta in _round(n):
            chunk = choice_chunk(ENVELOPE, delta)
            chunks.append(chunk)
            size += len(json.dumps(chunk)) + 8  # "data: " and the blank line
    chunks.append(choice_chunk(ENVELOPE, {}, "tool_calls"))
    chunks.append(usage_chunk(ENVELOPE, {"prompt_tokens": 100, "completion_tokens": n, "total_tokens": 100 + n}))
    return sse(chunks)


def _round(n: int) -> list[dict]:
    # Mostly text and reasoning, as real streams are; every tenth round a tool-call fragment.
    word = _WORDS[n % len(_WORDS)]
    deltas = [{"reasoning_content": word}, {"content": word}]
    if n == 1:
        for index, name in enumerate(("get_weather", "get_time")):
            head = {"index": index, "id": f"call_{index}", "type": "function",
                    "function": {"name": name, "arguments": ""}}
            deltas.append({"tool_calls": [head]})
    elif n % 10 == 0:
        deltas.append({"tool_calls": [{"index": n % 2, "function": {"arguments": '{"city": "Paris", '}}]})
    return deltas


def openai_parse(body: bytes) -> dict:
    """The body read by openai-python's decoder and ``accumulate_delta``: each choice's message, finish reason, usage."""
    choices: dict[int, dict] = {}
    usage = None
    for event in SSEDecoder().iter_bytes(iter([body])):
        if event.data.startswith("[DONE]"):
            break
        chunk = json.loads(event.data)
        if chunk.get("usage") is not None:
            usage = chunk["usage"]
        for choice in chunk["choices"]:
            snapshot = choices.setdefault(choice["index"], {"message": {}, "finish_reason": None})
            accumulate_delta(snapshot["message"], choice["delta"])
            if choice.get("finish_reason") is not None:
                snapshot["finish_reason"] = choice["finish_reason"]
    return {"choices": choices, "usage": usage}


SIDES: dict[str, Callable[[bytes], object]] = {"reference": parse_stream, "openai-python": openai_parse}


def rate(parse: Callable[[bytes], object], body: bytes, calls: int) -> tuple[float, object]:
    """MB/s of ``calls`` parses of ``body`` running at once on ``calls`` threads, and the first call's result."""
    with ThreadPoolExecutor(max_workers=calls) as pool:
        started = time.perf_counter()
        results = list(pool.map(parse, [body] * calls))
        wall = time.perf_counter() - started
    return calls * len(body) / 1e6 / wall, results[0]


def _answer(side: str, result) -> tuple:
    """What both sides must agree on: text, reasoning, each call's arguments, finish reason, usage."""
    if side == "reference":
        calls = tuple(call["arguments"] for call in result["tool_calls"])
        return result["content"], result["reasoning"], calls, result["finish_reason"], result["usage"]
    choice = result["choices"][0]
    message = choice["message"]
    calls = tuple(call["function"]["arguments"] for call in message["tool_calls"])
    return message["content"], message["reasoning_content"], calls, choice["finish_reason"], result["usage"]


def _numbers(text: str, kind: type) -> list:
    return [kind(part) for part in text.split(",")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--calls", default="1,12,128", help="comma-separated numbers of parallel calls")
    parser.add_argument("--mb", default="1,10,50", help="comma-separated sizes of each stream in MB")
    parser.add_argument("--max-total-mb", type=float, default=200.0,
                        help="skip a cell whose calls parse more than this many MB between them (default: 200)")
    parser.add_argument("--quick", action="store_true", help="one repeat, cells of at most 60 MB")
    args = parser.parse_args()
    print(_setup(), flush=True)
    if args.quick:
        args.repeat, args.max_total_mb = 1, 60.0
    sizes, counts = _numbers(args.mb, float), _numbers(args.calls, int)
    rates: dict[tuple[float, int, str], list[float]] = {}
    skipped: list[tuple[float, int]] = []
    for megabytes in sizes:
        body = stream_body(megabytes)
        print(f"stream: {len(body) / 1e6:.2f} MB, {body.count(b'data: ')} events", flush=True)
        for calls in counts:
            if calls * megabytes > args.max_total_mb:
                skipped.append((megabytes, calls))
                continue
            for repeat in range(args.repeat):
                answers = []
                for side, parse in SIDES.items():
                    mbps, result = rate(parse, body, calls)
                    answers.append(_answer(side, result))
                    rates.setdefault((megabytes, calls, side), []).append(mbps)
                    print(f"{megabytes:g} MB, calls {calls:>3}, run {repeat + 1}: {side:<13} {mbps:6.2f} MB/s",
                          flush=True)
                assert answers[0] == answers[1], "the two sides read different answers"
    print(f"\nmedian of {args.repeat} run(s) per cell, MB/s (same body, same calls, sides alternating):")
    print(f"{'stream':>8} {'calls':>5} {'reference':>10} {'openai-python':>14} {'ratio':>7} {'paired':>7}")
    for megabytes in sizes:
        for calls in counts:
            if (megabytes, calls) in skipped:
                print(f"{megabytes:>6g}MB {calls:>5}  skipped: {calls * megabytes:g} MB > --max-total-mb "
                      f"{args.max_total_mb:g}")
                continue
            ref_runs, sdk_runs = (rates[megabytes, calls, side] for side in SIDES)
            ref, sdk_rate = statistics.median(ref_runs), statistics.median(sdk_runs)
            paired = statistics.median(r / o for r, o in zip(ref_runs, sdk_runs))
            print(f"{megabytes:>6g}MB {calls:>5} {ref:>10.2f} {sdk_rate:>14.2f} {ref / sdk_rate:>6.2f}x {paired:>6.2f}x")
    print("ratio = reference/openai-python of the medians; paired = median of each repeat's ratio (its two runs")
    print("back to back, so a load that drifts between repeats cancels); above 1: the reference is faster")
    print(f"load average at the end: {_load()}")
    return 0


def _setup() -> str:
    return (f"setup: Python {platform.python_version()}, openai {version('openai')}, orjson {version('orjson')}, "
            f"{os.cpu_count()} CPUs, load average {_load()}")


def _load() -> str:
    return " ".join(f"{load:.1f}" for load in os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
