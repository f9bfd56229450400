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
with lone ``\\r`` line ends. The field grammar as a whole
(``test_the_sse_field_grammar_is_read_as_the_rules_say``), in any
combination: a line without a colon is a field named by the whole line, with
an empty value (``data`` alone adds an empty line to the data); one space
after the colon is removed, only one; ``event``, ``id``, ``retry`` and
unknown fields are not data; comment lines inside an event; LF, CRLF and CR
line ends, mixed from one event to the next; an event is dispatched only at
its blank line. The content, reasoning, calls, finish reason and usage are
each their own check. Bytes that are not UTF-8 inside an event
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
from hypothesis import example, given, strategies as st

from harness.clip import clip_repr, shown
from harness.testing import completion_chunks, sse
from harness.under_test.invoke import refusal, valid
from harness.wire.sse import PLAIN

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
        f"the plainly framed stream parsed to {shown(expected)}, but should give the content 'Checking the weather in "
        f"Zürich.' and the call call_w (get_weather); stream: {shown(plain)}"
    )
    return expected


@pytest.mark.parametrize("variant", VARIANTS)
def test_sse_variants_parse_like_the_plain_body(stream, variant):
    expected = _plain(stream)
    body = VARIANTS[variant]()
    got = valid(stream).parse_stream(body)
    assert got == expected, f"{variant}: parsed {shown(got)}, but the plain body of the same events gives " \
        f"{shown(expected)}; stream: {shown(body)}"


# The WHATWG field grammar, one feature each; a drawn set of them applies to every event of a body.
FEATURES = {
    "multi-line": "the JSON over several data lines",
    "no-space": "data:{...}",
    "two-spaces": "data:  {...} (one space removed, the other is JSON whitespace)",
    "empty-data-line": "a line 'data' without a colon: an empty line of data",
    "comments": "comment lines inside the event",
    "fields": "event, id and retry fields beside the data",
    "fields-without-colon": "lines 'event', 'id', 'retry' (fields with empty values)",
    "unknown-fields": "unknown fields, with and without a colon",
}
ENDS = ("\n", "\r\n", "\r")


def _grammar_event(text: str, features: frozenset[str], done: bool) -> list[str]:
    prefix = "data:" if "no-space" in features else "data:  " if "two-spaces" in features and not done else "data: "
    values = [text] if done or "multi-line" not in features else json.dumps(
        json.loads(text), ensure_ascii=False, indent=1).splitlines()
    lines = [f"{prefix}{value}" for value in values]
    if "empty-data-line" in features and not done:
        # After the first line, where a newline is JSON whitespace ("[DONE]" must stay the whole data).
        lines.insert(1, "data")
    if "comments" in features:
        lines = [": trace 1", *lines[:1], ":", *lines[1:], ": end"]
    if "fields" in features:
        lines = ["event: completion", "id: 7", *lines, "retry: 3000"]
    if "fields-without-colon" in features:
        lines = ["event", *lines, "id", "retry"]
    if "unknown-fields" in features:
        lines = ["x-trace: a1b2", *lines, "foo"]
    return lines


def _grammar_body(chunks: list[dict], features: frozenset[str], end: str, mixed: bool) -> bytes:
    """Each event in the drawn grammar; ``mixed`` gives event k the line end after ``end`` k times."""
    out = []
    texts = [json.dumps(c, ensure_ascii=False) for c in chunks] + ["[DONE]"]
    for k, text in enumerate(texts):
        line_end = ENDS[(ENDS.index(end) + k) % len(ENDS)] if mixed else end
        out.append(line_end.join([*_grammar_event(text, features, text == "[DONE]"), "", ""]))
    return "".join(out).encode()


def _pinned(test):
    """Each feature alone (so none hides another), and lines ended by CR and mixed line ends."""
    for feature in FEATURES:
        test = example(features=frozenset({feature}), end="\n", mixed=False)(test)
    test = example(features=frozenset({"multi-line", "comments"}), end="\r", mixed=False)(test)
    return example(features=frozenset({"multi-line", "fields"}), end="\n", mixed=True)(test)


# Not drawn here: blank lines that close no data and keep-alive events (test_sse_framing.py has them),
# and a byte order mark (VARIANTS above); each is its own check.
@_pinned
@given(features=st.frozensets(st.sampled_from(sorted(FEATURES))), end=st.sampled_from(ENDS), mixed=st.booleans())
def test_the_sse_field_grammar_is_read_as_the_rules_say(stream, features, end, mixed):
    expected = _plain(stream)
    body = _grammar_body(CHUNKS, features, end, mixed)
    got = valid(stream).parse_stream(body)
    where = f"grammar {[FEATURES[f] for f in sorted(features)]}, line ends {end!r}{' mixed' * mixed}; " \
        f"stream: {shown(body)}"
    assert got.get("content") == expected.get("content"), (
        f"content={shown(got.get('content'))}, but the plain body gives {shown(expected.get('content'))}; {where}"
    )
    assert got.get("reasoning") == expected.get("reasoning"), (
        f"reasoning={shown(got.get('reasoning'))}, but the plain body gives {shown(expected.get('reasoning'))}; {where}"
    )
    assert got.get("tool_calls") == expected.get("tool_calls"), (
        f"tool_calls={shown(got.get('tool_calls'))}, but the plain body gives {shown(expected.get('tool_calls'))}; "
        f"{where}"
    )
    assert got.get("finish_reason") == expected.get("finish_reason"), (
        f"finish_reason={shown(got.get('finish_reason'))}, but the plain body gives "
        f"{expected.get('finish_reason')!r}; {where}"
    )
    assert got.get("usage") == expected.get("usage"), (
        f"usage={shown(got.get('usage'))}, but the plain body gives {shown(expected.get('usage'))}; {where}"
    )


# Bytes that are not UTF-8, as a broken proxy or a Latin-1 backend writes them.
_INVALID = st.sampled_from([b"\xe9", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"])
_MARK = "\u2063"  # invisible separator: a placeholder no generated text contains


@given(bad=_INVALID, before=st.text(max_size=8).filter(lambda t: _MARK not in t and "\ufffd" not in t),
       after=st.text(max_size=8).filter(lambda t: _MARK not in t and "\ufffd" not in t))
@example(bad=b"\xe9", before="Caf", after=" au lait")  # a Latin-1 backend's é
def test_bytes_that_are_not_utf8_are_refused_or_replaced(stream, bad, before, after):
    chunks = completion_chunks([{"content": f"{before}{_MARK}{after}"}], "stop")
    mark = _MARK.encode()
    clean = sse(chunks).replace(mark, "é".encode())
    parsed = valid(stream).parse_stream(clean)
    assert parsed.get("content") == f"{before}é{after}", (
        f"content={shown(parsed.get('content'))}, but the same stream with valid UTF-8 should parse to "
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
        f"content={shown(content)}, but the bytes {bad!r} (not UTF-8) between {before!r} and {after!r} should either "
        f"be refused or read as U+FFFD between the text around them; stream: {clip_repr(body, 1500)}"
    )
