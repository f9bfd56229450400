"""Contract: an SSE body is read by the SSE rules: byte order mark, multi-line data, other fields, line ends, bytes.

Incident: the tool-call streams of incident `sse-index-accumulation` pass
through proxies and gateways that write SSE their own way, all within the
rules (WHATWG HTML, "Server-sent events"): a UTF-8 byte order mark before the
first event, one event's data spread over several ``data:`` lines (joined
with a newline), ``event:``, ``id:`` and ``retry:`` fields beside the data,
lines ended by a lone carriage return. A client that reads one ``data:`` line
as one event, or takes every ``name: value`` line for data, loses or refuses
the event; one that skips bytes it cannot decode hides corrupted text.

Rule: each of these bodies parses to exactly what the same events written
plainly parse to: with a byte order mark before the first event; with each
event's JSON spread over several ``data:`` lines; with ``event:``, ``id:``,
``retry:`` and unknown fields and comments around the data;
with lone ``\\r`` line ends. Bytes that are not UTF-8 inside an event
either make the parse refuse the body (an error raised on purpose, not a
crash) or read as U+FFFD as the SSE decoding does; never dropped silently,
and the same body with valid UTF-8 parses.

Level: wire (the SSE rules every client of a streamed chat completion
follows).

Production fingerprint: behind one proxy the first event of every reply is
lost (the byte order mark glued to ``data``), or every reply fails to parse;
answers with characters silently missing where a multi-byte character was
corrupted.
"""

import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.contracts.calls import refusal, valid
from harness.stream_examples import PLAIN, shown
from harness.testing import completion_chunks, sse

pytestmark = pytest.mark.wire

CHUNKS = completion_chunks(
    [
        {"content": "Checking ", "reasoning_content": None},
        {"content": "the weather in Zürich."},
        {"tool_calls": [
            {"index": 0, "id": "call_w", "type": "function", "function": {"name": "get_weather", "arguments": '{"ci'}}
        ]},
        {"tool_calls": [{"index": 0, "function": {"arguments": 'ty":"Zürich"}'}}]},
    ],
    "tool_calls",
    usage={"prompt_tokens": 9, "completion_tokens": 4, "total_tokens": 13},
)
BOM = b"\xef\xbb\xbf"


def _events(chunks: list[dict], write_data, end: str = "\n") -> bytes:
    """``chunks`` framed with ``write_data(json_text) -> list of lines`` per event, then ``[DONE]``."""
    lines: list[str] = []
    for chunk in [*chunks, None]:
        text = "[DONE]" if chunk is None else json.dumps(chunk, ensure_ascii=False)
        lines += write_data(text, chunk is None) + [""]
    return end.join(lines + [""]).encode()


def _multi_line(text: str, done: bool) -> list[str]:
    if done:
        return [f"data: {text}"]
    # indent=1 puts a line end between JSON tokens, where a newline is whitespace.
    spread = json.dumps(json.loads(text), ensure_ascii=False, indent=1)
    return [f"data: {line}" for line in spread.splitlines()]


def _with_fields(text: str, done: bool) -> list[str]:
    return ["event: completion", "id: 7", f"data: {text}", "retry: 3000", "x-trace: a1b2", ": comment"]


VARIANTS = {
    "byte-order-mark": lambda: BOM + sse(CHUNKS),
    "multi-line-data": lambda: _events(CHUNKS, _multi_line),
    "other-fields": lambda: _events(CHUNKS, _with_fields),
    "cr-line-ends": lambda: sse(CHUNKS, replace(PLAIN, line_end="\r")),
    "multi-line-data-crlf": lambda: _events(CHUNKS, _multi_line, end="\r\n"),
    "byte-order-mark-keep-alive-first": lambda: BOM + sse(CHUNKS, replace(PLAIN, keep_alive=True)),
}


def _plain(stream) -> dict:
    plain = sse(CHUNKS)
    expected = valid(stream).parse_stream(plain)
    calls = [(c.get("id"), c.get("name")) for c in expected.get("tool_calls") or []]
    assert expected.get("content") == "Checking the weather in Zürich." and calls == [("call_w", "get_weather")], (
        f"the plainly framed stream parsed to {expected}, but should give the content 'Checking the weather in "
        f"Zürich.' and the call call_w (get_weather); stream: {shown(plain)}"
    )
    return expected


@pytest.mark.parametrize("variant", VARIANTS)
def test_sse_variants_parse_like_the_plain_body(stream, variant):
    expected = _plain(stream)
    body = VARIANTS[variant]()
    got = valid(stream).parse_stream(body)
    assert got == expected, f"{variant}: parsed {got}, but the plain body of the same events gives {expected}; " \
        f"stream: {shown(body)}"


# Bytes that are not UTF-8, as a broken proxy or a Latin-1 backend writes them.
_INVALID = st.sampled_from([b"\xe9", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"])
_MARK = "\u2063"  # invisible separator: a placeholder no generated text contains


@given(bad=_INVALID, before=st.text(max_size=8).filter(lambda t: _MARK not in t and "\ufffd" not in t),
       after=st.text(max_size=8).filter(lambda t: _MARK not in t and "\ufffd" not in t))
def test_bytes_that_are_not_utf8_are_refused_or_replaced(stream, bad, before, after):
    chunks = completion_chunks([{"content": f"{before}{_MARK}{after}"}], "stop")
    mark = _MARK.encode()
    clean = sse(chunks).replace(mark, "é".encode())
    parsed = valid(stream).parse_stream(clean)
    assert parsed.get("content") == f"{before}é{after}", (
        f"content={parsed.get('content')!r}, but the same stream with valid UTF-8 should parse to "
        f"{before + 'é' + after!r}; stream: {shown(clean)}"
    )
    body = sse(chunks).replace(mark, bad)
    try:
        got = stream.parse_stream(body)
    except Exception:
        refusal(stream.parse_stream, body, why=f"the event holds the bytes {bad!r}, which are not UTF-8")
        return
    content = got.get("content")
    replaced = isinstance(content, str) and content.startswith(before) and content.endswith(after) and (
        "\ufffd" in content[len(before) : len(content) - len(after) or None])
    assert replaced, (
        f"content={content!r}, but the bytes {bad!r} (not UTF-8) between {before!r} and {after!r} should either "
        f"be refused or read as U+FFFD between the text around them; stream: {body!r:.1500}"
    )
