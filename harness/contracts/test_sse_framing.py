"""Contract: the same stream in every SSE framing providers use parses to the same response.

Incident: the streams of seed 001 as different endpoints frame them (provider
facts): ``data:`` with or without a space, CRLF or LF line ends, keep-alive
comment lines (``: ping``) between events, and a stream that stops without
``[DONE]`` or without its closing blank line.

Rule: each framing parses to exactly what the plain framing (``data: `` with
a space, LF, blank line between events, ``[DONE]``) parses to.

Production fingerprint: behind one gateway (or after a keep-alive) the reply
ends early: an answer cut mid-sentence, tool calls missing their last
argument pieces or missing entirely, only for some providers.
"""

import json

import pytest

pytestmark = pytest.mark.wire

EVENTS = [
    {"choices": [{"index": 0, "delta": {"content": "Checking "}, "finish_reason": None}]},
    {"choices": [{"index": 0, "delta": {"content": "the weather."}, "finish_reason": None}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "call_w", "type": "function", "function": {"name": "get_weather", "arguments": '{"ci'}}
    ]}, "finish_reason": None}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": 'ty":"Oslo"}'}}]},
                  "finish_reason": None}]},
    {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
]
DATA = [json.dumps(e) for e in EVENTS]
PLAIN = "".join(f"data: {d}\n\n" for d in DATA) + "data: [DONE]\n\n"
FRAMINGS = {
    "no-space-after-colon": "".join(f"data:{d}\n\n" for d in DATA) + "data:[DONE]\n\n",
    "crlf": PLAIN.replace("\n", "\r\n"),
    "keep-alive-comments": ": ping\n\n" + "".join(f"data: {d}\n\n: keep-alive\n\n" for d in DATA) + "data: [DONE]\n\n",
    "no-done": "".join(f"data: {d}\n\n" for d in DATA),
    "no-done-no-closing-blank-line": "\n\n".join(f"data: {d}" for d in DATA),
}


@pytest.mark.parametrize("framing", FRAMINGS)
def test_every_framing_parses_like_the_plain_one(stream, framing):
    expected = stream.parse_stream(PLAIN.encode())
    got = stream.parse_stream(FRAMINGS[framing].encode())
    assert got == expected, f"{framing}: parsed {got}, but the plain framing of the same events gives {expected}"
    assert expected.get("content") == "Checking the weather." and len(expected.get("tool_calls") or []) == 1, (
        f"the plain framing parsed to {expected}, expected the content 'Checking the weather.' and one call"
    )
