"""Contract: a chunk the format does not allow is refused on purpose: no crash, no value of the wrong type passed on.

Incident: the parser of incident `sse-index-accumulation` trusted every
chunk; a gateway bug that sends a number where the format has a string, or a
list where it has an object, then surfaces far from the stream: an integer
tool-call id sent back in the follow-up request (HTTP 400 from the provider),
a ``TypeError`` deep inside the accumulator instead of the failover of
incident `deepseek-reasoning-400` ("all 2 providers failed, last error: ...")
that a refused stream triggers. A client must tell "this body is not a
chat-completion stream" apart from its own bugs.

Rule: for each fault below, the stream carrying it is either refused (an
exception the adapter raises on purpose: not a ``TypeError``,
``AttributeError``, ``KeyError``, ``IndexError`` or ``NameError``) or read
into a response of the neutral shape, whose tool-call ids and names are
strings; and the same stream without the fault parses to the expected
response. Faults: an event that is not JSON, or JSON that is not an object;
``choices`` that is not a list; a choice, a delta or a tool-call fragment that
is not an object; ``tool_calls`` that is not a list; ``content`` or
``reasoning_content`` that is a number; a fragment ``index`` that is a
string, a fraction or a boolean (beside a call at a real index); an ``id`` or a
``name`` that is a number; a ``function`` that is a string; ``arguments``
that are a list or a number; ``usage`` or ``finish_reason`` of the wrong type.

Level: robust. The format gives the types, not what a client does with a body
outside them, and correct client libraries crash on some of these faults or
hand a wrong type on (openai-python returns an integer tool-call id,
LangChain's reader raises ``AttributeError`` on a string delta). No endpoint
is known to send one on purpose: they come from broken gateways and proxies
that re-serialize chunks, and the rule is what an agent kernel needs to fail
over from them.

Production fingerprint: ``TypeError: sequence item 0: expected str instance,
int found`` or ``AttributeError: 'str' object has no attribute 'get'`` in the
stream reader, with no failover; HTTP 400 on the next request, naming a
``tool_call_id`` that is a number.
"""

import copy
import json

import pytest

from harness.clip import shown
from harness.plugin.preconditions import precondition
from harness.testing import completion_chunks, sse
from harness.under_test.invoke import refusal, valid

pytestmark = pytest.mark.robust

GOOD = completion_chunks(
    [
        {"content": "Looking", "reasoning_content": "need the time"},
        {"content": " it up."},
        {"tool_calls": [{"index": 0, "id": "call_a", "type": "function",
                         "function": {"name": "get_time", "arguments": '{"tz":'}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": '"UTC"}'}}]},
        {"tool_calls": [{"index": 1, "id": "call_b", "type": "function",
                         "function": {"name": "get_date", "arguments": "{}"}}]},
    ],
    "tool_calls",
    usage={"prompt_tokens": 12, "completion_tokens": 8, "total_tokens": 20},
)
# Chunk numbers in GOOD: 0 text+reasoning, 1 text, 2 opens call_a, 3 continues it, 4 opens call_b,
# 5 finish, 6 usage.


def _set(chunk_no: int, path: tuple, value):
    def fault(chunks: list[dict]) -> list[dict]:
        chunks = copy.deepcopy(chunks)
        target = chunks[chunk_no]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return chunks

    return fault


def _raw(chunk_no: int, text: str):
    """The event ``chunk_no`` replaced by ``text`` (not a JSON object)."""
    return lambda chunks: (chunks, chunk_no, text)


_FRAG = ("choices", 0, "delta", "tool_calls", 0)
FAULTS = {
    "event-not-json": _raw(1, '{"choices": [{"index": 0, "delta": {"content": " it up."}'),
    "event-a-json-list": _raw(1, '[{"index": 0, "delta": {"content": " it up."}}]'),
    "choices-an-object": _set(1, ("choices",), {"index": 0, "delta": {"content": " it up."}}),
    "choice-a-string": _set(1, ("choices", 0), "it up"),
    "delta-a-string": _set(1, ("choices", 0, "delta"), " it up."),
    "content-a-number": _set(1, ("choices", 0, "delta", "content"), 42),
    "reasoning-a-number": _set(0, ("choices", 0, "delta", "reasoning_content"), 7),
    "tool-calls-an-object": _set(2, ("choices", 0, "delta", "tool_calls"),
                                 {"index": 0, "id": "call_a", "function": {"name": "get_time"}}),
    "fragment-a-string": _set(3, _FRAG, '"UTC"}'),
    "index-a-string": _set(4, (*_FRAG, "index"), "0"),
    "index-a-fraction": _set(4, (*_FRAG, "index"), 0.5),
    "index-a-boolean": _set(4, (*_FRAG, "index"), True),
    "id-a-number": _set(2, (*_FRAG, "id"), 1001),
    "name-a-number": _set(4, (*_FRAG, "function", "name"), 5),
    "function-a-string": _set(4, (*_FRAG, "function"), "get_date"),
    "arguments-a-list": _set(3, (*_FRAG, "function", "arguments"), ["UTC"]),
    "arguments-a-number": _set(3, (*_FRAG, "function", "arguments"), 3),
    "usage-a-number": _set(6, ("usage",), 20),
    "finish-reason-a-number": _set(5, ("choices", 0, "finish_reason"), 1),
}


def _body(chunks: list[dict], raw: tuple | None = None) -> bytes:
    if raw is None:
        return sse(chunks)
    chunks, number, text = raw
    events = [json.dumps(c, ensure_ascii=False) for c in chunks]
    events[number] = text
    return "".join(f"data: {e}\n\n" for e in [*events, "[DONE]"]).encode()


def _shape_problems(got: dict) -> list[str]:
    problems = []
    for n, call in enumerate(got.get("tool_calls") or []):
        for key in ("id", "name", "arguments"):
            if not isinstance(call.get(key), str):
                problems.append(f"tool call #{n} has {key}={shown(call.get(key))}, not a string")
    return problems


@pytest.mark.parametrize("fault", FAULTS)
def test_a_chunk_outside_the_format_is_refused_not_crashed_on(stream, fault):
    clean = sse(GOOD)
    with precondition("parsing the stream without the fault", "test_sse_index_accumulation", "test_stream_text"):
        parsed = valid(stream).parse_stream(clean)
        calls = [(c.get("id"), c.get("name"), c.get("arguments")) for c in parsed.get("tool_calls") or []]
        assert parsed.get("content") == "Looking it up." and calls == [
            ("call_a", "get_time", '{"tz":"UTC"}'), ("call_b", "get_date", "{}")], (
            f"the stream without the fault parsed to {shown(parsed)}, but should give 'Looking it up.' and the "
            f"calls call_a and call_b; stream: {shown(clean)}"
        )
    made = FAULTS[fault](GOOD)
    body = _body(made) if isinstance(made, list) else _body(GOOD, made)
    try:
        got = stream.parse_stream(body)
    except Exception:
        refusal(stream.parse_stream, body, why=f"the stream breaks the format ({fault})")
        return
    problems = _shape_problems(got)
    assert not problems, f"{fault}: parsed {shown(got)}: {'; '.join(problems)}; stream: {shown(body)}"
