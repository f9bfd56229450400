"""The reference stream parser itself: SSE framing, tool-call accumulation, refusals."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.reference.accumulator import ToolCallAccumulator
from harness.reference.sse import StreamError, iter_events
from harness.reference.stream import parse_stream


def _chunk(delta: dict | None = None, finish_reason: str | None = None) -> dict:
    return {"choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish_reason}]}


def _body(*chunks: dict, end: str = "data: [DONE]\n\n") -> bytes:
    return ("".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + end).encode()


def _calls(*deltas: list[dict]) -> list[dict]:
    return parse_stream(_body(*(_chunk({"tool_calls": d}) for d in deltas)))["tool_calls"]


# --- framing ---------------------------------------------------------------


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_line_ends(eol):
    body = f'data: {{"a":1}}{eol}{eol}data: {{"b":2}}{eol}{eol}data: [DONE]{eol}{eol}'.encode()
    assert list(iter_events(body)) == [(1, '{"a":1}'), (2, '{"b":2}')]


def test_comments_and_other_fields_are_skipped():
    body = b': keep-alive\n\nevent: message\nid: 7\nretry: 100\n: ping\ndata: {"a":1}\n\n:\n\ndata: [DONE]\n\n'
    assert list(iter_events(body)) == [(1, '{"a":1}')]


def test_data_without_space():
    assert list(iter_events(b'data:{"a":1}\n\ndata:[DONE]\n\n')) == [(1, '{"a":1}')]


def test_only_one_space_is_stripped():
    assert list(iter_events(b"data:  x\n\n")) == [(1, " x")]


def test_multi_line_data_is_joined_with_newline():
    assert list(iter_events(b'data: {"a":\ndata: 1}\n\n')) == [(1, '{"a":\n1}')]
    assert parse_stream(b'data: {"choices":[{"delta":\ndata: {"content":"hi"}}]}\n\n')["content"] == "hi"


def test_stream_without_done():
    assert parse_stream(_body(_chunk({"content": "hi"}), end=""))["content"] == "hi"


def test_stream_without_final_blank_line():
    body = b'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"choices":[{"delta":{"content":"b"}}]}'
    assert parse_stream(body)["content"] == "ab"


def test_nothing_after_done_is_read():
    body = _body(_chunk({"content": "a"})) + b"data: not json\n\ndata: \xff\n\n"
    assert parse_stream(body)["content"] == "a"


def test_leading_byte_order_mark_is_ignored():
    assert list(iter_events(b'\xef\xbb\xbfdata: {"a":1}\n\n')) == [(1, '{"a":1}')]


def test_events_are_numbered_by_data_events_only():
    body = b": hi\n\nevent: x\n\ndata: 1\n\n\n\ndata: 2\n\n"
    assert list(iter_events(body)) == [(1, "1"), (2, "2")]


def test_empty_body():
    assert parse_stream(b"") == {"content": "", "reasoning": "", "tool_calls": [], "finish_reason": None, "usage": None}


# --- content, reasoning, finish, usage --------------------------------------


def test_content_reasoning_finish_and_usage():
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    body = _body(
        _chunk({"role": "assistant", "content": None, "reasoning_content": ""}),
        _chunk({"content": None, "reasoning_content": "Think"}),
        _chunk({"content": None, "reasoning_content": " first."}),
        _chunk({"content": "Hello"}),
        _chunk({"content": " there."}),
        _chunk({}, finish_reason="stop"),
        {"choices": [], "usage": usage},
    )
    assert parse_stream(body) == {
        "content": "Hello there.",
        "reasoning": "Think first.",
        "tool_calls": [],
        "finish_reason": "stop",
        "usage": usage,
    }


def test_chunk_without_choices_key_is_usage_only():
    assert parse_stream(_body({"usage": {"total_tokens": 3}}))["usage"] == {"total_tokens": 3}


# --- tool calls ----------------------------------------------------------------


def _open(index, cid, name, arguments="") -> dict:
    return {"index": index, "id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}


def _more(index, arguments) -> dict:
    return {"index": index, "function": {"arguments": arguments}}


def test_split_arguments_are_joined():
    calls = _calls([_open(0, "call_a", "get_weather")], [_more(0, '{"lo')], [_more(0, 'cation":"Paris"}')])
    assert calls == [{"id": "call_a", "name": "get_weather", "arguments": '{"location":"Paris"}'}]


def test_later_fragments_with_null_id_and_name():
    later = {"index": 0, "id": None, "type": None, "function": {"name": None, "arguments": "1}"}}
    calls = _calls([_open(0, "call_a", "f", '{"x":')], [later])
    assert calls == [{"id": "call_a", "name": "f", "arguments": '{"x":1}'}]


def test_interleaved_calls_follow_their_index():
    calls = _calls(
        [_open(1, "call_b", "g", '{"b":')],
        [_open(0, "call_a", "f", '{"a":')],
        [_more(1, "2}"), _more(0, "1}")],
    )
    assert calls == [
        {"id": "call_a", "name": "f", "arguments": '{"a":1}'},
        {"id": "call_b", "name": "g", "arguments": '{"b":2}'},
    ]


def test_every_call_at_index_zero_told_apart_by_id():
    calls = _calls(
        [_open(0, "call_a", "f", '{"a"')],
        [{"index": 0, "id": "call_a", "function": {"arguments": ":1}"}}],
        [_open(0, "call_b", "g", '{"b"')],
        [_more(0, ":2}")],
        [_open(0, "call_c", "h")],
    )
    assert calls == [
        {"id": "call_a", "name": "f", "arguments": '{"a":1}'},
        {"id": "call_b", "name": "g", "arguments": '{"b":2}'},
        {"id": "call_c", "name": "h", "arguments": ""},
    ]


def test_missing_index_continues_the_latest_call():
    no_index = {"function": {"arguments": "1}"}}
    calls = _calls(
        [{"id": "call_a", "function": {"name": "f", "arguments": '{"a":'}}],
        [no_index],
        [{"id": "call_b", "function": {"name": "g", "arguments": "{}"}}],
    )
    assert calls == [
        {"id": "call_a", "name": "f", "arguments": '{"a":1}'},
        {"id": "call_b", "name": "g", "arguments": "{}"},
    ]


def test_first_call_at_index_one():
    calls = _calls([_open(1, "call_a", "f")], [_more(1, "{}")], [_open(2, "call_b", "g", "{}")])
    assert [c["id"] for c in calls] == ["call_a", "call_b"]
    assert [c["arguments"] for c in calls] == ["{}", "{}"]


def test_calls_come_out_in_index_order():
    calls = _calls([_open(2, "call_c", "h")], [_open(0, "call_a", "f")], [_open(1, "call_b", "g")])
    assert [c["id"] for c in calls] == ["call_a", "call_b", "call_c"]


def test_object_arguments_become_their_json_text():
    calls = _calls([_open(0, "call_a", "f", {"city": "Zürich", "days": [1, 2]})])
    assert json.loads(calls[0]["arguments"]) == {"city": "Zürich", "days": [1, 2]}


def test_call_without_arguments_has_empty_string():
    assert _calls([{"index": 0, "id": "call_a", "function": {"name": "f"}}])[0]["arguments"] == ""


def test_accumulator_ignores_position_in_the_chunk():
    acc = ToolCallAccumulator()
    acc.add([_open(0, "call_a", "f"), _open(1, "call_b", "g")])
    acc.add([_more(1, "{}")])
    acc.add([_more(0, "[]")])
    assert acc.calls() == [
        {"id": "call_a", "name": "f", "arguments": "[]"},
        {"id": "call_b", "name": "g", "arguments": "{}"},
    ]


# --- refusals --------------------------------------------------------------------

_GOOD = json.dumps(_chunk({"content": "ok"}))

MALFORMED = {
    "not-json": "{not json",
    "empty-data": "",
    "array": "[1, 2]",
    "string": '"text"',
    "choices-not-list": '{"choices": {"index": 0}}',
    "choices-null": '{"choices": null}',
    "choice-not-object": '{"choices": ["x"]}',
    "choice-index-bool": '{"choices": [{"index": true, "delta": {}}]}',
    "choice-index-other": '{"choices": [{"index": 1, "delta": {"content": "second"}}]}',
    "delta-not-object": '{"choices": [{"index": 0, "delta": "hi"}]}',
    "content-number": '{"choices": [{"index": 0, "delta": {"content": 5}}]}',
    "reasoning-list": '{"choices": [{"index": 0, "delta": {"reasoning_content": ["a"]}}]}',
    "finish-number": '{"choices": [{"index": 0, "delta": {}, "finish_reason": 1}]}',
    "usage-not-object": '{"choices": [], "usage": 12}',
    "provider-error": '{"error": {"message": "overloaded"}}',
    "tool-calls-not-list": '{"choices": [{"delta": {"tool_calls": {"index": 0}}}]}',
    "fragment-not-object": '{"choices": [{"delta": {"tool_calls": [7]}}]}',
    "index-string": '{"choices": [{"delta": {"tool_calls": [{"index": "0"}]}}]}',
    "index-bool": '{"choices": [{"delta": {"tool_calls": [{"index": false}]}}]}',
    "index-float": '{"choices": [{"delta": {"tool_calls": [{"index": 1.5}]}}]}',
    "id-number": '{"choices": [{"delta": {"tool_calls": [{"index": 0, "id": 42}]}}]}',
    "function-not-object": '{"choices": [{"delta": {"tool_calls": [{"index": 0, "function": "f"}]}}]}',
    "name-object": '{"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"name": {}}}]}}]}',
    "arguments-list": '{"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": [1]}}]}}]}',
    "arguments-number": '{"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": 3}}]}}]}',
}


@pytest.mark.parametrize("data", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_event_names_its_number_and_text(data):
    body = f"data: {_GOOD}\n\n: keep-alive\n\ndata: {_GOOD}\n\ndata: {data}\n\ndata: [DONE]\n\n".encode()
    with pytest.raises(StreamError) as caught:
        parse_stream(body)
    assert str(caught.value).startswith("event 3: ")
    assert repr(data[:200]) in str(caught.value)


def test_invalid_utf8_names_the_event():
    body = f"data: {_GOOD}\n\n".encode() + b'data: {"choices": [{"delta": {"content": "\xc3\x28"}}]}\n\n'
    with pytest.raises(StreamError) as caught:
        parse_stream(body)
    assert str(caught.value).startswith("event 2: ") and "UTF-8" in str(caught.value)
    assert "\\xc3(" in str(caught.value)


def test_long_text_is_clipped_in_the_message():
    data = "x" * 1000
    with pytest.raises(StreamError) as caught:
        parse_stream(f"data: {data}\n\n".encode())
    assert "xxx...xxx" in str(caught.value) and len(str(caught.value)) < 300


def test_stream_error_is_a_value_error():
    assert issubclass(StreamError, ValueError)


# --- never anything but StreamError ------------------------------------------------

_json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.sampled_from(["", "[DONE]", "tool_calls", "call_a"]),
)
_json_value = st.recursive(
    _json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(
                ["choices", "delta", "index", "id", "function", "name", "arguments", "tool_calls", "content",
                 "reasoning_content", "finish_reason", "usage", "error", "type"]
            )
            | st.text(max_size=3),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=12,
)
_maybe_int = st.one_of(st.integers(-1, 3), _json_leaf)
_fragment = st.fixed_dictionaries(
    {},
    optional={
        "index": _maybe_int,
        "id": st.sampled_from(["call_a", "call_b"]) | _json_leaf,
        "function": st.fixed_dictionaries({}, optional={"name": _json_leaf, "arguments": _json_value}) | _json_leaf,
    },
)
_delta = st.fixed_dictionaries(
    {},
    optional={
        "content": _json_leaf,
        "reasoning_content": _json_leaf,
        "tool_calls": st.lists(_fragment, max_size=3) | _json_leaf,
    },
)
_choice = st.fixed_dictionaries({}, optional={"index": _maybe_int, "delta": _delta, "finish_reason": _json_leaf})
# Chunks close enough to the real shape to reach the deeper checks.
_chunk_like = st.fixed_dictionaries(
    {}, optional={"choices": st.lists(_choice, max_size=2) | _json_leaf, "usage": _json_value}
)
_sse_piece = st.one_of(
    st.sampled_from(["data: ", "data:", "data", ": ping", "event: x", "id: 1", "\n", "\r\n", "\r", "\n\n", "[DONE]"]),
    _json_value.map(json.dumps),
    _chunk_like.map(lambda chunk: f"data: {json.dumps(chunk)}\n\n"),
    st.text(max_size=8),
)


def _never_raises_other_than_stream_error(body: bytes) -> None:
    try:
        result = parse_stream(body)
    except StreamError:
        return
    assert set(result) == {"content", "reasoning", "tool_calls", "finish_reason", "usage"}


@given(st.binary())
def test_arbitrary_bytes_raise_only_stream_error(body):
    _never_raises_other_than_stream_error(body)


@given(st.lists(_sse_piece, max_size=20).map("".join))
def test_arbitrary_sse_text_raises_only_stream_error(text):
    _never_raises_other_than_stream_error(text.encode())
