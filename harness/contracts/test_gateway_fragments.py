"""Contract: tool-call fragments in the shapes gateways really send are read as the calls they stand for.

Incident: the accumulation bug of seed 001, met again through gateway quirks
(provider facts, each a public bug report): some endpoints omit ``index`` on
every fragment, telling calls apart only by a new ``id``; some deliver
``arguments`` as an already-parsed JSON object instead of a string. Client
libraries shipped "id-less fragments appended to the most recent call" and
lost object arguments.

Rule: a fragment without ``index`` continues the latest call, whatever index
that call had, and a new ``id`` opens the next one (the first fragment opens
the first call); a call that never streams ``arguments`` has ``""``;
``arguments`` sent as an object come out as a JSON string that parses back to
that object.

Production fingerprint: behind such a gateway every call after the first
vanishes or swallows its neighbours' arguments; a tool receives ``null`` (or
the text ``[object Object]``) instead of the arguments the model chose.
"""

import json

import pytest

pytestmark = pytest.mark.robust


def _sse(fragments: list[dict]) -> bytes:
    chunks = [{"choices": [{"index": 0, "delta": {"tool_calls": [f]}, "finish_reason": None}]} for f in fragments]
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return "".join(f"data: {json.dumps(c)}\n\n" for c in chunks).encode() + b"data: [DONE]\n\n"


def _calls(stream, fragments: list[dict]) -> list[tuple]:
    calls = stream.parse_stream(_sse(fragments))["tool_calls"]
    return [(c.get("id"), c.get("name"), c.get("arguments")) for c in calls]


def test_fragments_without_index_follow_the_latest_call(stream):
    fragments = [
        {"id": "call_a", "type": "function", "function": {"name": "read", "arguments": '{"path":'}},
        {"function": {"arguments": '"a.txt"}'}},
        {"id": "call_b", "type": "function", "function": {"name": "read", "arguments": '{"path":'}},
        {"function": {"arguments": '"b.txt"}'}},
    ]
    expected = [("call_a", "read", '{"path":"a.txt"}'), ("call_b", "read", '{"path":"b.txt"}')]
    got = _calls(stream, fragments)
    assert got == expected, f"calls={got}, but index-less fragments {fragments} should give {expected}"


def test_index_less_pieces_continue_a_call_opened_at_index_1(stream):
    fragments = [
        {"index": 1, "id": "call_s", "type": "function", "function": {"name": "search", "arguments": '{"q":'}},
        {"function": {"arguments": '"oslo"}'}},
    ]
    expected = [("call_s", "search", '{"q":"oslo"}')]
    got = _calls(stream, fragments)
    assert got == expected, f"calls={got}, but fragments {fragments} should give {expected}"


def test_calls_that_stream_no_arguments_have_empty_arguments(stream):
    fragments = [
        {"index": 0, "id": "call_p", "type": "function", "function": {"name": "ping"}},
        {"index": 0, "id": "call_q", "type": "function", "function": {"name": "ping"}},
    ]
    expected = [("call_p", "ping", ""), ("call_q", "ping", "")]
    got = _calls(stream, fragments)
    assert got == expected, f"calls={got}, but fragments without arguments {fragments} should give {expected}"


def test_object_arguments_become_their_json_text(stream):
    sent = {"city": "Zürich", "days": [1, 2], "units": None}
    fragments = [{"index": 0, "id": "call_o", "type": "function", "function": {"name": "forecast", "arguments": sent}}]
    got = _calls(stream, fragments)
    arguments = got[0][2] if len(got) == 1 else None
    assert isinstance(arguments, str) and _parsed(arguments) == sent, (
        f"calls={got}, but arguments sent as the object {sent} should come back as JSON text of that object"
    )


def _parsed(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return f"<not JSON: {text!r}>"
