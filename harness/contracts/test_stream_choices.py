"""Contract: the choices of a stream stay apart: nothing of choice 1 ends up in the response.

Incident: a request with ``n`` above 1 (or a gateway that fans one request
out to several candidates) streams several choices, told apart only by each
choice's ``index``, interleaved chunk by chunk like the tool calls of
incident `sse-index-accumulation`, and sometimes two choices in one chunk. A
client that reads every choice into one response splices two answers into
one and runs the tool calls of both.

Rule: a stream whose chunks carry choices 0 and 1 (choice 0 first, then
interleaved, sometimes both in one chunk) is either refused (an error raised
on purpose, not a crash) or parsed as choice 0 alone: its content, reasoning,
tool calls and finish reason, never any of choice 1's. The same stream
without choice 1 parses.

Level: robust. OpenAI, Azure OpenAI and vLLM stream several choices when a
request asks for ``n`` above 1, told apart by their ``index``; a client
library that never asks for more than one need not read such a stream
(LangChain's and the Vercel AI SDK's stream readers splice the choices), an
agent kernel behind a gateway that may fan out must.

Production fingerprint: answers that read like two drafts shuffled together;
tool calls run twice with different arguments.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.testing import sse
from harness.under_test.invoke import refusal, valid
from harness.wire.chunks import ENVELOPE

pytestmark = pytest.mark.robust

ZERO = [
    {"content": "Zero says ", "reasoning_content": "zero thinks"},
    {"content": "hello."},
    {"tool_calls": [{"index": 0, "id": "call_zero", "type": "function",
                     "function": {"name": "zero_tool", "arguments": '{"z":0}'}}]},
]
ONE = [
    {"content": "ONE-SAYS ", "reasoning_content": "ONE-THINKS"},
    {"content": "ONE-BYE."},
    {"tool_calls": [{"index": 0, "id": "call_one", "type": "function",
                     "function": {"name": "one_tool", "arguments": '{"o":1}'}}]},
]


def _choice(index: int, delta: dict, finish: str | None = None) -> dict:
    return {"index": index, "delta": delta, "logprobs": None, "finish_reason": finish}


@st.composite
def _two_choice_streams(draw) -> tuple[list[dict], list[dict]]:
    """(the chunks with both choices interleaved, the chunks of choice 0 alone)."""
    entries = [(0, _choice(0, {"role": "assistant", **ZERO[0]}))] + [(0, _choice(0, d)) for d in ZERO[1:]]
    entries += [(0, _choice(0, {}, "tool_calls"))]
    ones = [(1, _choice(1, {"role": "assistant", **ONE[0]}))] + [(1, _choice(1, d)) for d in ONE[1:]]
    ones += [(1, _choice(1, {}, draw(st.sampled_from(["stop", "length", "tool_calls"]))))]
    # Interleave keeping each choice's own order; choice 0 opens the stream, as servers send them.
    order = [0, *draw(st.permutations([0] * (len(entries) - 1) + [1] * len(ones)))]
    queues = {0: list(entries), 1: list(ones)}
    merged = [queues[k].pop(0)[1] for k in order]
    chunks: list[dict] = []
    for choice in merged:
        join = draw(st.booleans())
        if join and chunks and all(c["index"] != choice["index"] for c in chunks[-1]["choices"]):
            chunks[-1]["choices"].append(choice)  # both choices in one chunk
        else:
            chunks.append({**ENVELOPE.fields(), "choices": [choice]})
    alone = [{**ENVELOPE.fields(), "choices": [c for c in chunk["choices"] if c["index"] == 0]} for chunk in chunks]
    return chunks, [c for c in alone if c["choices"]]


def _leaks(got: dict) -> list[str]:
    text = " ".join(str(got.get(k)) for k in ("content", "reasoning")) + " " + str(got.get("tool_calls"))
    return [word for word in ("ONE-", "call_one", "one_tool") if word in text]


# Pinned: n=2 as OpenAI streams it, one choice per chunk, the two taking turns.
_TAKING_TURNS = [_choice(0, {"role": "assistant", **ZERO[0]}), _choice(1, {"role": "assistant", **ONE[0]}),
                 _choice(0, ZERO[1]), _choice(1, ONE[1]), _choice(0, ZERO[2]), _choice(1, ONE[2]),
                 _choice(0, {}, "tool_calls"), _choice(1, {}, "tool_calls")]
TAKING_TURNS = ([{**ENVELOPE.fields(), "choices": [c]} for c in _TAKING_TURNS],
                [{**ENVELOPE.fields(), "choices": [c]} for c in _TAKING_TURNS if c["index"] == 0])


@given(_two_choice_streams())
@example(TAKING_TURNS)
def test_choice_one_never_leaks_into_the_response(stream, streams):
    both, alone = streams
    clean = sse(alone)
    expected = valid(stream).parse_stream(clean)
    calls = [c.get("id") for c in expected.get("tool_calls") or []]
    assert expected.get("content") == "Zero says hello." and calls == ["call_zero"], (
        f"the stream of choice 0 alone parsed to {shown(expected)}, but should give 'Zero says hello.' and the call "
        f"call_zero; stream: {shown(clean)}"
    )
    body = sse(both)
    try:
        got = stream.parse_stream(body)
    except Exception:
        refusal(stream.parse_stream, body, why="the stream carries a second choice, which one response cannot hold")
        return
    where = f"a stream of choices 0 and 1 should be refused or parse to choice 0 alone, {shown(expected)}; " \
        f"stream: {shown(body)}"
    assert not _leaks(got), f"parsed {shown(got)}, with choice 1's {shown(_leaks(got))} in it; {where}"
    # usage is left out: some clients count tokens themselves. Each key is its own check.
    assert got.get("content") == expected.get("content"), f"content={shown(got.get('content'))}; {where}"
    assert got.get("reasoning") == expected.get("reasoning"), f"reasoning={shown(got.get('reasoning'))}; {where}"
    assert got.get("tool_calls") == expected.get("tool_calls"), f"tool_calls={shown(got.get('tool_calls'))}; {where}"
    assert got.get("finish_reason") == expected.get("finish_reason"), (
        f"finish_reason={shown(got.get('finish_reason'))}; {where}"
    )
