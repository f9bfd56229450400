"""Contract: the end of a stream is read too: its finish reason, its usage, and a provider's error.

Incident: the streams of incident `sse-index-accumulation` end with a chunk whose only news is
``finish_reason: "tool_calls"`` and, with ``stream_options.include_usage``, a
usage chunk whose ``choices`` is ``[]``. In incident `deepseek-reasoning-400` the kernel fails over to
the next provider only when a provider's error is an error ("all 2 providers
failed, last error: api error 400"); a provider can also report one inside a
200 stream.

Rule: the parsed response's ``finish_reason`` is the last one the stream
sent, read from the choice whatever its delta holds; its ``usage`` holds the
three standard counts the usage chunk sent, with their values, also when the
usage carries a provider's extensions (nested details, cache-hit counts,
reasoning-token details). Every form the format allows passes: a
``total_tokens`` left out is derived (the format defines it as prompt plus
completion, the same information). The strict form, every key sent kept at
every depth with its value, ``total_tokens`` included, is its own check.
Both are the last non-null value sent, wherever it comes: a chunk whose
``usage`` or ``finish_reason`` is null (OpenAI sends ``"usage": null`` on
every chunk before the usage chunk) leaves the value as it was, and a later
value replaces an earlier one (vLLM's continuous usage sends a running count
on every chunk; gateways repeat ``finish_reason`` after the end). A
chunk carrying an ``error`` object makes ``parse_stream`` refuse the body
(an exception raised on purpose; a crash such as a ``TypeError`` is not a
refusal) instead of returning a response, while the same stream without that
chunk parses.

Level: wire, except these cases. ``choices`` is a required key of every
chunk, and the format's usage chunk has ``choices: []``: a usage chunk
without the key is robust; so are values repeated or given where the format
puts null (the format sends each once, at the end); so is a finish chunk
whose delta is null or left out (the format sends ``delta: {}``; relays that
re-serialize a choice without a delta write ``null`` or drop the key); so is
the strict usage form (``test_usage_keeps_every_key_sent``): DeepSeek's
``prompt_cache_hit_tokens``, OpenAI's and Qwen's ``prompt_tokens_details``,
``completion_tokens_details`` with ``reasoning_tokens`` are extensions a
client may read into its own names (LangChain keeps its own usage model). Fireworks sends usage-only chunks without
``choices``, as did other inference servers and the bridge some gateways put
in front of the Responses API (public reports).

Production fingerprint: after a tool round the kernel sees ``finish_reason``
None and stops or loops; token accounting reads zero on every round; a
provider error mid-stream becomes an empty assistant reply and no failover.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.testing import completion_chunks, sse, usage_chunk
from harness.under_test.invoke import refusal, valid
from harness.wire.chunks import ENVELOPE, choice_chunk

USAGE = {"prompt_tokens": 31, "completion_tokens": 7, "total_tokens": 38}
CALL = {"index": 0, "id": "call_k2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}
STANDARD = ("prompt_tokens", "completion_tokens", "total_tokens")


def _counts_kept(usage: object, sent: dict) -> bool:
    """The three standard counts of ``sent`` are in ``usage``; a total left out is prompt plus completion."""
    if not isinstance(usage, dict):
        return False
    total = usage.get("total_tokens", sent["prompt_tokens"] + sent["completion_tokens"])
    return all(usage.get(key, "<absent>") == sent[key] for key in STANDARD[:2]) and total == sent["total_tokens"]


def _kept_whole(got: object, sent: object) -> bool:
    """Every key of ``sent``, at every depth, is in ``got`` with its value (clients may add keys; null is absent)."""
    if isinstance(sent, dict):
        return isinstance(got, dict) and all(
            got.get(k) is None if v is None else k in got and _kept_whole(got[k], v) for k, v in sent.items())
    return got == sent


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
    assert got == expected, (
        f"finish_reason={shown(got)}, but the {sample} stream ended with {shown(expected)}: {shown(body)}"
    )


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
    assert _counts_kept(usage, USAGE), (
        f"usage={shown(usage)}, but should hold the counts {USAGE} the last chunk sent; stream: {shown(body)}"
    )
    assert got.get("content") == "It is noon." and got.get("finish_reason") == "stop", (
        f"content={shown(got.get('content'))}, finish_reason={shown(got.get('finish_reason'))} after a usage chunk, "
        f"but should stay 'It is noon.' and 'stop'; stream: {shown(body)}"
    )


@pytest.mark.wire
def test_usage_null_on_every_chunk_before_the_usage_chunk(stream):
    chunks = [*completion_chunks([{"content": "It is"}, {"content": " noon."}], "stop"), usage_chunk(ENVELOPE, USAGE)]
    for chunk in chunks[:-1]:
        chunk["usage"] = None  # what OpenAI sends with stream_options.include_usage
    body = sse(chunks)
    got = valid(stream).parse_stream(body)
    assert _counts_kept(got.get("usage"), USAGE), (
        f"usage={shown(got.get('usage'))}, but should be {USAGE}; stream: {shown(body)}"
    )
    assert got.get("finish_reason") == "stop", (
        f"finish_reason={shown(got.get('finish_reason'))}, but should be 'stop'; stream: {shown(body)}"
    )


@pytest.mark.parametrize(
    "delta",
    [pytest.param({}, id="empty", marks=pytest.mark.wire),
     pytest.param(None, id="null", marks=pytest.mark.robust),
     pytest.param("<absent>", id="absent", marks=pytest.mark.robust)],
)
def test_finish_reason_is_read_whatever_the_delta_holds(stream, delta):
    finish = choice_chunk(ENVELOPE, {}, "tool_calls")
    if delta == "<absent>":
        del finish["choices"][0]["delta"]
    else:
        finish["choices"][0]["delta"] = delta
    body = sse([*completion_chunks([{"content": None, "tool_calls": [CALL]}]), finish])
    got = valid(stream).parse_stream(body)
    assert got.get("finish_reason") == "tool_calls", (
        f"finish_reason={shown(got.get('finish_reason'))}, but the closing choice (delta {shown(delta)}) says "
        f"'tool_calls'; stream: {shown(body)}"
    )


_count = st.integers(0, 10**6)


@st.composite
def _usages(draw) -> dict:
    """Usage objects as providers send them: the three counts, and their own extensions beside them."""
    # Every request counts a prompt token at least: no provider sends an all-zero usage.
    prompt, completion = draw(st.integers(1, 10**6)), draw(_count)
    usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
    if draw(st.booleans()):  # DeepSeek: context-cache hits and misses
        hit = draw(st.integers(0, prompt))
        usage |= {"prompt_cache_hit_tokens": hit, "prompt_cache_miss_tokens": prompt - hit}
    if draw(st.booleans()):  # OpenAI, Qwen: cached prompt tokens (OpenAI also audio)
        details = {"cached_tokens": draw(st.integers(0, prompt))}
        if draw(st.booleans()):
            details["audio_tokens"] = draw(st.integers(0, prompt))
        usage["prompt_tokens_details"] = details
    if draw(st.booleans()):  # OpenAI's reasoning models, DeepSeek's thinking mode
        details = {"reasoning_tokens": draw(st.integers(0, completion))}
        if draw(st.booleans()):
            details |= {"accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0, "audio_tokens": 0}
        usage["completion_tokens_details"] = details
    if draw(st.booleans()):  # details a server sends as null: nothing to report
        usage[draw(st.sampled_from(["prompt_tokens_details", "completion_tokens_details"]))] = None
    return usage


DEEPSEEK_USAGE = {"prompt_tokens": 1200, "completion_tokens": 340, "total_tokens": 1540,
                  "prompt_cache_hit_tokens": 1024, "prompt_cache_miss_tokens": 176,
                  "prompt_tokens_details": {"cached_tokens": 1024},
                  "completion_tokens_details": {"reasoning_tokens": 298}}


def _usage_body(usage: dict) -> bytes:
    return sse([*completion_chunks([{"content": "It is noon."}], "stop"), usage_chunk(ENVELOPE, usage)])


@pytest.mark.wire
@given(usage=_usages())
@example(usage=DEEPSEEK_USAGE)
def test_usage_with_extensions_keeps_the_standard_counts(stream, usage):
    body = _usage_body(usage)
    got = valid(stream).parse_stream(body).get("usage")
    sent = {key: usage[key] for key in STANDARD}
    assert _counts_kept(got, sent), (
        f"usage={shown(got)}, but should hold the standard counts {shown(sent)} of the usage sent (a total left out is "
        f"their sum); usage sent: {usage}; stream: {shown(body)}"
    )


@pytest.mark.robust
@given(usage=_usages())
@example(usage=DEEPSEEK_USAGE)
def test_usage_keeps_every_key_sent(stream, usage):
    body = _usage_body(usage)
    got = valid(stream).parse_stream(body).get("usage")
    assert _kept_whole(got, usage), (
        f"usage={shown(got)}, but should keep every key sent, at every depth, with its value: {shown(usage)}; "
        f"stream: {shown(body)}"
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


# Pinned: a gateway's end: usage null on every chunk, tool_calls, then a closing chunk with the usage beside the
# choice and another finish_reason, then a trailing usage null.
GATEWAY_END = [("null", None), ("null", "tool_calls"), (USAGE, "stop"), ("null", None)]


@pytest.mark.robust
@given(ends=_ENDS)
@example(ends=GATEWAY_END)
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
    usage_kept = not got_usage if want_usage is None else _counts_kept(got_usage, want_usage)
    assert usage_kept, (
        f"usage={shown(got_usage)}, but should be the last non-null usage sent, {want_usage!r}; stream: {shown(body)}"
    )
    assert got.get("finish_reason") == want_reason, (
        f"finish_reason={shown(got.get('finish_reason'))}, but should be the last non-null one sent, {want_reason!r}; "
        f"stream: {shown(body)}"
    )


@pytest.mark.wire
def test_an_error_inside_the_stream_fails_the_parse(stream):
    error = {"error": {"message": "The server is overloaded, retry later", "type": "server_error"}}
    opening, finish = completion_chunks([{"content": "It is"}], "stop")
    # The same stream without the error chunk must parse: an adapter that refuses everything proves nothing.
    clean = sse([opening, finish])
    parsed = valid(stream).parse_stream(clean)
    assert parsed.get("content") == "It is" and parsed.get("finish_reason") == "stop", (
        f"content={shown(parsed.get('content'))}, finish_reason={shown(parsed.get('finish_reason'))}, but the stream "
        f"without an error chunk should parse to 'It is' and 'stop'; stream: {shown(clean)}"
    )
    body = sse([opening, error, finish])
    # A crash (TypeError and the like) is not a refusal: a client failing on every chunk would pass otherwise.
    refusal(stream.parse_stream, body, why=f"the stream carries the error chunk {error}")
