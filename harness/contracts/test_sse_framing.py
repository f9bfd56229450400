"""Contract: the same stream in every SSE framing providers use parses to the same response.

Incident: the streams of incident `sse-index-accumulation` as different endpoints frame them:
``data:`` with or without a space, CRLF or LF line ends, keep-alive comment
lines (``: keep-alive``) between events, a stream that stops after its last
event without ``[DONE]``, and one that stops right after its last ``data:``
line, without the blank line that closes the event.

Rule: each framing parses to exactly what the plain framing (``data: `` with
a space, LF, a blank line after each event, ``[DONE]``) parses to.

Level: per framing. The space, the line ends and comment lines are the SSE
rules (WHATWG), and a body that ends after complete events without
``[DONE]`` still delivered every one of them: ``[DONE]`` is OpenAI's last
event, not a condition for the ones before it. These are wire. A last event
cut off before its closing blank line is discarded by the SSE rules, so
reading it is robust: relay gateways and proxies that close the connection
right after the last ``data:`` line send it (public reports against
OpenAI's own SDKs, with the finish reason lost).

Production fingerprint: behind one gateway (or after a keep-alive) the reply
ends early: an answer cut mid-sentence, tool calls missing their last
argument pieces or missing entirely, only for some providers.
"""

from dataclasses import replace

import pytest

from harness.clip import shown
from harness.testing import completion_chunks, sse
from harness.under_test.invoke import valid
from harness.wire.sse import PLAIN

CHUNKS = completion_chunks(
    [
        {"content": "Checking "},
        {"content": "the weather."},
        {"tool_calls": [
            {"index": 0, "id": "call_w", "type": "function", "function": {"name": "get_weather", "arguments": '{"ci'}}
        ]},
        {"tool_calls": [{"index": 0, "function": {"arguments": 'ty":"Oslo"}'}}]},
    ],
    "tool_calls",
)
FRAMINGS = [
    pytest.param(replace(PLAIN, space=False), id="no-space-after-colon", marks=pytest.mark.wire),
    pytest.param(replace(PLAIN, line_end="\r\n"), id="crlf", marks=pytest.mark.wire),
    pytest.param(replace(PLAIN, keep_alive=True), id="keep-alive-comments", marks=pytest.mark.wire),
    pytest.param(replace(PLAIN, done=False), id="no-done", marks=pytest.mark.wire),
    pytest.param(replace(PLAIN, done=False, terminated=False), id="last-event-unterminated",
                 marks=pytest.mark.robust),
]


@pytest.mark.parametrize("framing", FRAMINGS)
def test_every_framing_parses_like_the_plain_one(stream, framing):
    stream = valid(stream)
    plain, framed = sse(CHUNKS), sse(CHUNKS, framing)
    expected = stream.parse_stream(plain)
    assert expected.get("content") == "Checking the weather." and len(expected.get("tool_calls") or []) == 1, (
        f"the plain framing parsed to {shown(expected)}, but should give the content 'Checking the weather.' and "
        f"one call; stream: {shown(plain)}"
    )
    got = stream.parse_stream(framed)
    assert got == expected, (
        f"parsed {shown(got)}, but the plain framing of the same events gives {shown(expected)}; stream: "
        f"{shown(framed)}"
    )
