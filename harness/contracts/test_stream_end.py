"""Contract: the end of a stream is read too: its finish reason, its usage, and a provider's error.

Incident: the streams of incident `sse-index-accumulation` end with a chunk whose only news is
``finish_reason: "tool_calls"`` and, with ``stream_options.include_usage``, a
usage chunk whose ``choices`` is ``[]``. In incident `deepseek-reasoning-400` the kernel fails over to
the next provider only when a provider's error is an error ("all 2 providers
failed, last error: api error 400"); a provider can also report one inside a
200 stream.

Rule: the parsed response's ``finish_reason`` is the last one the stream
sent; its ``usage`` holds every count the usage chunk sent, with its value.
Both are the last non-null value sent, wherever it comes: a chunk whose
``usage`` or ``finish_reason`` is null (OpenAI sends ``"usage": null`` on
every chunk before the usage chunk) leaves the value as it was, and a later
value replaces an earlier one (vLLM's continuous usage sends a running count
on every chunk; gateways repeat ``finish_reason`` after the end). A
chunk carrying an ``error`` object makes ``parse_stream`` refuse the body
(an exception raised on purpose; a crash such as a ``TypeError`` is not a
refusal) instead of returning a response, while the same stream without that
chunk parses.

Level: wire, except two cases. ``choices`` is a required key of every
chunk, and the format's usage chunk has ``choices: []``: a usage chunk
without the key is robust; so are values repeated or given where the format
puts null (the format sends each once, at the end). Fireworks sends usage-only chunks without
``choices``, as did other inference servers and the bridge some gateways put
in front of the Responses API (public reports).

Production fingerprint: after a tool round the kernel sees ``finish_reason``
None and stops or loops; token accounting reads zero on every round; a
provider error mid-stream becomes an empty assistant reply and no failover.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.contracts.calls import refusal, valid
from harness.stream_examples import ENVELOPE, choice_chunk, shown
from harness.testing import completion_chunks, sse, usage_chunk

USAGE = {"prompt_tokens": 31, "completion_tokens": 7, "total_tokens": 38}
CALL = {"index": 0, "id": "call_k2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}
def _holds(usage: object, counts: dict) -> bool:
    # Clients add their own detail keys (litellm: completion_tokens_details); every count sent must be there.
    return isinstance(usage, dict) and all(usage.get(key, "<absent>") == value for key, value in counts.items())


STREAMS = {
    "tool-round": (completion_chunks([{"content": None, "tool_calls": [CALL]}], "tool_calls"), "tool_calls"),
    "text-answer": (completion_chunks([{"content": "It is noon."}], "stop"), "stop"),
    "cut-by-length": (completion_chunks([{"content": "It is"}], "length"), "length"),
}


@pytest.mark.wire
@pytest.mark.parametrize("sample", STREAMS)
def test_finish_reason_is_the_last_one_sent(stream, sample):
    chunks, expected = STREAMS[sample]
    body = sse(chunks)
    got = valid(stream).parse_stream(body).get("finish_reason")
    assert got == expected, f"finish_reason={got!r}, but the {sample} stream ended with {expected!r}: {shown(body)}"


@pytest.mark.parametrize(
    "choices",
    [pytest.param(True, id="empty-list", marks=pytest.mark.wire),
     pytest.param(False, id="absent", marks=pytest.mark.robust)],
)
def test_usage_chunk_is_kept(stream, choices):
    last = usage_chunk(ENVELOPE, USAGE, choices=choices)
    body = sse([*completion_chunks([{"content": "It is noon."}], "stop"), last])
    got = valid(stream).parse_stream(body)
    usage = got.get("usage")
    assert _holds(usage, USAGE), f"usage={usage!r}, but should hold the counts {USAGE} the last chunk sent; stream: {shown(body)}"
    assert got.get("content") == "It is noon." and got.get("finish_reason") == "stop", (
        f"content={got.get('content')!r}, finish_reason={got.get('finish_reason')!r} after a usage chunk, but "
        f"should stay 'It is noon.' and 'stop'; stream: {shown(body)}"
    )


@pytest.mark.wire
def test_usage_null_on_every_chunk_before_the_usage_chunk(stream):
    chunks = [*completion_chunks([{"content": "It is"}, {"content": " noon."}], "stop"), usage_chunk(ENVELOPE, USAGE)]
    for chunk in chunks[:-1]:
        chunk["usage"] = None  # what OpenAI sends with stream_options.include_usage
    body = sse(chunks)
    got = valid(stream).parse_stream(body)
    assert _holds(got.get("usage"), USAGE) and got.get("finish_reason") == "stop", (
        f"usage={got.get('usage')!r}, finish_reason={got.get('finish_reason')!r}, but should be {USAGE} and "
        f"'stop'; stream: {shown(body)}"
    )


_REASONS = st.sampled_from(["stop", "length", "tool_calls", "content_filter"])
_COUNTS = st.integers(0, 10**6).map(lambda n: {"prompt_tokens": n, "completion_tokens": 1, "total_tokens": n + 1})
# Per chunk: absent, null or a value, for usage and for finish_reason, in any order and any number.
_ENDS = st.lists(
    st.tuples(st.none() | st.just("null") | _COUNTS, st.none() | st.just("null") | _REASONS), min_size=1, max_size=6
)


def _last(values: list) -> object:
    given_values = [value for value in values if value not in (None, "null")]
    return given_values[-1] if given_values else None


@pytest.mark.robust
@given(ends=_ENDS)
def test_usage_and_finish_reason_are_the_last_values_sent(stream, ends):
    chunks = []
    for number, (usage, reason) in enumerate(ends):
        chunk = choice_chunk(ENVELOPE, {"content": f"w{number} "}, None if reason == "null" else reason)
        if reason is None:
            del chunk["choices"][0]["finish_reason"]
        if usage is not None:
            chunk["usage"] = None if usage == "null" else usage
        chunks.append(chunk)
    body = sse(chunks)
    got = valid(stream).parse_stream(body)
    want_usage, want_reason = _last([u for u, _ in ends]), _last([r for _, r in ends])
    got_usage = got.get("usage")
    usage_kept = not got_usage if want_usage is None else _holds(got_usage, want_usage)
    assert usage_kept and got.get("finish_reason") == want_reason, (
        f"usage={got_usage!r}, finish_reason={got.get('finish_reason')!r}, but should be the last non-null "
        f"values sent, {want_usage!r} and {want_reason!r}; stream: {shown(body)}"
    )


@pytest.mark.wire
def test_an_error_inside_the_stream_fails_the_parse(stream):
    error = {"error": {"message": "The server is overloaded, retry later", "type": "server_error"}}
    opening, finish = completion_chunks([{"content": "It is"}], "stop")
    # The same stream without the error chunk must parse: an adapter that refuses everything proves nothing.
    clean = sse([opening, finish])
    parsed = valid(stream).parse_stream(clean)
    assert parsed.get("content") == "It is" and parsed.get("finish_reason") == "stop", (
        f"content={parsed.get('content')!r}, finish_reason={parsed.get('finish_reason')!r}, but the stream "
        f"without an error chunk should parse to 'It is' and 'stop'; stream: {shown(clean)}"
    )
    body = sse([opening, error, finish])
    # A crash (TypeError and the like) is not a refusal: a client failing on every chunk would pass otherwise.
    refusal(stream.parse_stream, body, why=f"the stream carries the error chunk {error}")
