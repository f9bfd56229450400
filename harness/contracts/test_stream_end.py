"""Contract: the end of a stream is read too: its finish reason, its usage, and a provider's error.

Incident: the streams of seed 001 end with a chunk whose only news is
``finish_reason: "tool_calls"`` and, with ``stream_options.include_usage``, a
usage-only chunk whose ``choices`` is ``[]`` (some providers leave the key
out; provider facts). In seed 000 the kernel fails over to the next provider
only when a provider's error is an error ("all 2 providers failed, last
error: api error 400"); a provider can also report one inside a 200 stream.

Rule: the parsed response's ``finish_reason`` is the last one the stream
sent; its ``usage`` is the usage object sent, whether that chunk has
``choices: []`` or no ``choices``; a chunk carrying an ``error`` object makes
``parse_stream`` fail instead of returning a response.

Production fingerprint: after a tool round the kernel sees ``finish_reason``
None and stops or loops; token accounting reads zero on every round; a
provider error mid-stream becomes an empty assistant reply and no failover.
"""

import json

import pytest

pytestmark = pytest.mark.wire

FAILED = object()
USAGE = {"prompt_tokens": 31, "completion_tokens": 7, "total_tokens": 38}


def _sse(*events: dict) -> bytes:
    return "".join(f"data: {json.dumps(e)}\n\n" for e in events).encode() + b"data: [DONE]\n\n"


def _delta(delta: dict, finish_reason: str | None = None) -> dict:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}


CALL = {"index": 0, "id": "call_k2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}
STREAMS = {
    "tool-round": (_sse(_delta({"tool_calls": [CALL]}), _delta({}, "tool_calls")), "tool_calls"),
    "text-answer": (_sse(_delta({"content": "It is noon."}), _delta({}, "stop")), "stop"),
    "cut-by-length": (_sse(_delta({"content": "It is"}, "length")), "length"),
}


@pytest.mark.parametrize("sample", STREAMS)
def test_finish_reason_is_the_last_one_sent(stream, sample):
    body, expected = STREAMS[sample]
    got = stream.parse_stream(body).get("finish_reason")
    assert got == expected, f"finish_reason={got!r}, but the {sample} stream ended with {expected!r}: {body!r:.300}"


@pytest.mark.parametrize("choices", ["empty-list", "absent"])
def test_usage_chunk_is_kept(stream, choices):
    last = {"choices": [], "usage": USAGE} if choices == "empty-list" else {"usage": USAGE}
    body = _sse(_delta({"content": "It is noon."}), _delta({}, "stop"), last)
    got = stream.parse_stream(body)
    assert got.get("usage") == USAGE, f"usage={got.get('usage')!r}, but the last chunk {last} sent {USAGE}"
    assert got.get("content") == "It is noon." and got.get("finish_reason") == "stop", (
        f"content={got.get('content')!r}, finish_reason={got.get('finish_reason')!r} after a usage chunk "
        f"{last}, but should stay 'It is noon.' and 'stop'"
    )


def test_an_error_inside_the_stream_fails_the_parse(stream):
    error = {"error": {"message": "The server is overloaded, retry later", "type": "server_error"}}
    body = _sse(_delta({"content": "It is"}), error)
    try:
        got = stream.parse_stream(body)
    except Exception:
        got = FAILED
    assert got is FAILED, f"parse_stream returned {got!r}, but a stream with an error chunk {error} should fail"
