"""Contract: tool-call fragments in the shapes gateways really send are read as the calls they stand for.

Incident: the accumulation bug of incident `sse-index-accumulation`, met again through gateway quirks,
each one a public bug report. Some OpenAI-compatible endpoints (Gemini's
OpenAI-compatible layer, Ollama, some Qwen deployments, translators from the
Responses API to Chat Completions) send every parallel call at ``index`` 0,
or with no ``index`` at all, and tell calls apart only by a new ``id``; some
number calls from 1; some deliver ``arguments`` as an already-parsed JSON
object instead of a string. Translators from Anthropic's Messages API and
from Bedrock number calls by their content block, so they start at 1 or leave
gaps. Some spell the keys a later fragment leaves out
as ``null`` (DeepInfra's early deltas carry ``arguments: null``), and Azure AI
Foundry and Mistral models deployed on Azure send no ``type`` on a call.
Client libraries shipped "id-less fragments appended to the most recent
call" and lost object arguments.

Rule: a fragment without ``index`` continues the latest call, whatever index
that call had, and a new ``id`` opens the next one (the first fragment opens
the first call, call 0: numbered calls after it are read by their index,
and a new ``id`` at index 0 comes after it); a new ``id`` at an index already taken opens the next call
too, and calls sharing an index keep the order they arrived in; calls numbered from 1, or with gaps in their numbering, are read like
calls numbered from 0, and come out in the order of their index; a call that
never streams ``arguments`` has ``""``; ``arguments`` sent as an object come
out as a JSON string that parses back to that object; ``null`` for ``id``,
``type``, ``name`` or ``arguments`` means the key was left out, and so does
a later fragment repeating its call's ``id``, ``type`` and ``name`` (it
continues that call; only a new ``id`` opens one); a call without ``type``
is a function call.

Level: robust. The format makes ``index`` required and a call's identity;
each shape here is one the endpoints named above send outside it. A client
library that follows the format may fail these and still pass every wire
contract.

Production fingerprint: behind such a gateway every call after the first
vanishes or swallows its neighbours' arguments; a tool receives ``null`` (or
the text ``[object Object]``) instead of the arguments the model chose.
"""

import json

import pytest

from harness.clip import shown
from harness.testing import completion_chunks, same_arguments, sse
from harness.under_test.invoke import valid

pytestmark = pytest.mark.robust


def _tool_call_stream(fragments: list[dict]) -> bytes:
    """One chunk per fragment, a tool-calls finish, then ``[DONE]``: only the fragments leave the format."""
    return sse(completion_chunks([{"tool_calls": [f]} for f in fragments], "tool_calls"))


def _check(stream, fragments: list[dict], expected: list[tuple[str, str, str]], what: str) -> None:
    """The calls parsed from ``fragments`` (one per chunk) are ``expected``: (id, name, arguments) in order."""
    body = _tool_call_stream(fragments)
    calls = valid(stream).parse_stream(body)["tool_calls"]
    got = [(c.get("id"), c.get("name"), c.get("arguments")) for c in calls]
    same = len(got) == len(expected) and all(
        (gid, gname) == (wid, wname) and same_arguments(gargs, wargs)
        for (gid, gname, gargs), (wid, wname, wargs) in zip(got, expected)
    )
    assert same, f"calls={shown(got)}, but {what} should give {shown(expected)}; stream: {shown(body)}"


def test_fragments_without_index_follow_the_latest_call(stream):
    fragments = [
        {"id": "call_a", "type": "function", "function": {"name": "read", "arguments": '{"path":'}},
        {"function": {"arguments": '"a.txt"}'}},
        {"id": "call_b", "type": "function", "function": {"name": "read", "arguments": '{"path":'}},
        {"function": {"arguments": '"b.txt"}'}},
    ]
    expected = [("call_a", "read", '{"path":"a.txt"}'), ("call_b", "read", '{"path":"b.txt"}')]
    _check(stream, fragments, expected, "index-less fragments, a new id opening each call,")


def test_a_new_id_at_the_same_index_opens_the_next_call(stream):
    fragments = [
        {"index": 0, "id": "call_6b1e", "type": "function", "function": {"name": "get_weather", "arguments": ""}},
        {"index": 0, "function": {"arguments": '{"city":"Oslo"}'}},
        {"index": 0, "id": "call_9f4a", "type": "function", "function": {"name": "get_weather", "arguments": ""}},
        {"index": 0, "function": {"arguments": '{"city":"Lisbon"}'}},
        # An id that sorts first, arriving last: the calls keep the order they came in.
        {"index": 0, "id": "call_0c2d", "type": "function", "function": {"name": "get_time", "arguments": ""}},
        {"index": 0, "function": {"arguments": '{"city":"Bergen"}'}},
    ]
    expected = [("call_6b1e", "get_weather", '{"city":"Oslo"}'), ("call_9f4a", "get_weather", '{"city":"Lisbon"}'),
                ("call_0c2d", "get_time", '{"city":"Bergen"}')]
    _check(stream, fragments, expected, "three calls all sent at index 0, told apart by their ids, in arrival order,")


def test_index_less_pieces_continue_a_call_opened_at_index_1(stream):
    fragments = [
        {"index": 1, "id": "call_s", "type": "function", "function": {"name": "search", "arguments": '{"q":'}},
        {"function": {"arguments": '"oslo"}'}},
    ]
    expected = [("call_s", "search", '{"q":"oslo"}')]
    _check(stream, fragments, expected, "a call opened at index 1 continued by index-less pieces")


# A first call sent without index is call 0; numbered calls after it are read by their index as usual.
INDEX_LESS_FIRST = {
    "then-index-1": (
        [{"id": "call_u", "type": "function", "function": {"name": "read", "arguments": '{"path":'}},
         {"function": {"arguments": '"u"}'}},
         {"index": 1, "id": "call_v", "type": "function", "function": {"name": "read", "arguments": '{"path":"v"}'}}],
        [("call_u", "read", '{"path":"u"}'), ("call_v", "read", '{"path":"v"}')],
    ),
    "then-a-new-id-at-index-0": (
        [{"id": "call_u", "type": "function", "function": {"name": "read", "arguments": '{"path":"u"}'}},
         {"index": 0, "id": "call_w", "type": "function", "function": {"name": "read", "arguments": '{"path":"w"}'}}],
        [("call_u", "read", '{"path":"u"}'), ("call_w", "read", '{"path":"w"}')],
    ),
}


@pytest.mark.parametrize("shape", INDEX_LESS_FIRST)
def test_an_index_less_first_call_is_call_zero(stream, shape):
    fragments, expected = INDEX_LESS_FIRST[shape]
    _check(stream, fragments, expected, f"a first call without index, {shape.replace('-', ' ')},")


def test_calls_numbered_from_one(stream):
    fragments = [
        {"index": 1, "id": "call_x", "type": "function", "function": {"name": "get_time", "arguments": ""}},
        {"index": 1, "function": {"arguments": '{"tz":"UTC"}'}},
        {"index": 2, "id": "call_y", "type": "function", "function": {"name": "get_time", "arguments": ""}},
        {"index": 2, "function": {"arguments": '{"tz":"CET"}'}},
    ]
    expected = [("call_x", "get_time", '{"tz":"UTC"}'), ("call_y", "get_time", '{"tz":"CET"}')]
    _check(stream, fragments, expected, "two calls at indices 1 and 2 (no index 0)")


def test_calls_numbered_with_gaps(stream):
    fragments = [
        {"index": 1, "id": "call_g1", "type": "function", "function": {"name": "read", "arguments": ""}},
        {"index": 4, "id": "call_g4", "type": "function", "function": {"name": "list", "arguments": ""}},
        {"index": 1, "function": {"arguments": '{"path":"a"}'}},
        {"index": 3, "id": "call_g3", "type": "function", "function": {"name": "read", "arguments": '{"path":'}},
        {"index": 4, "function": {"arguments": '{"dir":"."}'}},
        {"index": 3, "function": {"arguments": '"b"}'}},
    ]
    expected = [("call_g1", "read", '{"path":"a"}'), ("call_g3", "read", '{"path":"b"}'),
                ("call_g4", "list", '{"dir":"."}')]
    _check(stream, fragments, expected, "three calls at indices 1, 4 and 3 (gaps at 0 and 2), in index order,")


def test_calls_that_stream_no_arguments_have_empty_arguments(stream):
    fragments = [
        {"index": 0, "id": "call_p", "type": "function", "function": {"name": "ping"}},
        {"index": 0, "id": "call_q", "type": "function", "function": {"name": "ping"}},
    ]
    expected = [("call_p", "ping", ""), ("call_q", "ping", "")]
    _check(stream, fragments, expected, "two calls without an arguments key")


# How a later fragment of a call spells the keys only its first fragment needs: as null, or repeated.
LATER_KEYS = {
    "null": lambda cid: {"id": None, "type": None, "function": {"name": None}},
    "repeated": lambda cid: {"id": cid, "type": "function", "function": {"name": "lookup"}},
}


@pytest.mark.parametrize("keys", LATER_KEYS)
def test_later_fragments_continue_their_call(stream, keys):
    def later(index: int, cid: str, arguments: str) -> dict:
        fragment = LATER_KEYS[keys](cid)
        return {"index": index, **fragment, "function": {**fragment["function"], "arguments": arguments}}

    fragments = [
        {"index": 0, "id": "call_m", "type": "function", "function": {"name": "lookup", "arguments": None}},
        later(0, "call_m", '{"key":'),
        {"index": 1, "id": "call_n", "type": "function", "function": {"name": "lookup", "arguments": ""}},
        later(0, "call_m", '"m"}'),
        later(1, "call_n", '{"key":"n"}'),
    ]
    expected = [("call_m", "lookup", '{"key":"m"}'), ("call_n", "lookup", '{"key":"n"}')]
    _check(stream, fragments, expected, f"later fragments spelling the keys of their call as {keys}")


def test_calls_without_a_type_are_function_calls(stream):
    fragments = [
        {"index": 0, "id": "call_t", "function": {"name": "get_weather", "arguments": ""}},
        {"index": 0, "function": {"arguments": '{"city":"Bern"}'}},
    ]
    expected = [("call_t", "get_weather", '{"city":"Bern"}')]
    _check(stream, fragments, expected, "a call whose opening fragment has no type")


def test_object_arguments_become_their_json_text(stream):
    sent = {"city": "Zürich", "days": [1, 2], "units": None}
    fragments = [{"index": 0, "id": "call_o", "type": "function", "function": {"name": "forecast", "arguments": sent}}]
    body = _tool_call_stream(fragments)
    got = [(c.get("id"), c.get("name"), c.get("arguments")) for c in stream.parse_stream(body)["tool_calls"]]
    arguments = got[0][2] if len(got) == 1 else None
    assert isinstance(arguments, str) and _parsed(arguments) == sent, (
        f"calls={shown(got)}, but arguments sent as the object {shown(sent)} should come back as JSON text of that "
        f"object; stream: {shown(body)}"
    )


def _parsed(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return f"<not JSON: {text!r}>"
