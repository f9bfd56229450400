"""Contract: the text of a stream is every piece it sent, joined in arrival order, content and reasoning apart.

Incident: the streams of incident `sse-index-accumulation` carry the model's
words as many small ``content`` pieces, and DeepSeek's thinking mode streams
``reasoning_content`` pieces before them (incident `deepseek-reasoning-400`:
the first delta is often ``{"role": "assistant", "content": null,
"reasoning_content": ""}``). A client that drops a piece it finds empty-looking
(a lone space, a newline) runs words together; one that keeps only the last
reasoning piece, or none, loses the model's working memory before the
round-trip rule ever gets a chance to send it back (one widely used SDK keeps
only the last fragment; another drops the field).

Rule: the parsed ``content`` is every ``content`` piece the stream sent,
joined in arrival order and byte for byte (whitespace-only pieces, newlines,
non-ASCII text and text such as ``[DONE]`` or ``data:`` included: only an
event whose whole data is ``[DONE]`` ends the stream; ``null`` and ``""`` pieces add nothing), also
when the same delta carries reasoning or tool calls; ``reasoning`` is built
the same way from the ``reasoning_content`` pieces, and the two never mix.
A stream with no text has ``""`` for both.

Level: per test. ``test_content_is_every_piece_in_order``: wire (the
format's ``content`` deltas). ``test_reasoning_is_every_piece_in_order``:
provider (``reasoning_content`` is DeepSeek's extension, streamed by its
thinking mode and by gateways serving reasoning models).

Production fingerprint: answers with words run together ("Thefile") or a
paragraph break lost; a DeepSeek round whose stored reasoning is only its last
few characters, then HTTP 400 "The reasoning_content in the thinking mode must
be passed back to the API." or a model that re-derives what it had decided.
"""

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from harness.contracts.calls import valid
from harness.stream_examples import ENVELOPE, envelopes, shown
from harness.testing import completion_chunks, sse

# Pieces as models stream them: words, lone spaces and newlines, empty strings, any unicode, and text
# that looks like the framing around it (a model explaining SSE writes "[DONE]" and "data:").
_piece = st.one_of(
    st.sampled_from(["", " ", "\n", "\n\n", "  ", "\t", "The", " file", ",", " é", "思考", "🧠", "\r\n",
                     "[DONE]", " [DONE]", "data: [DONE]", "data:", ": ping"]),
    st.text(max_size=6),
)
_FIELDS = ("content", "reasoning_content")


@st.composite
def _text_deltas(draw) -> list[dict]:
    """Deltas carrying content, reasoning, both, or neither (null), in any mix and order."""
    deltas = []
    for _ in range(draw(st.integers(0, 10))):
        delta = {}
        for key in _FIELDS:
            choice = draw(st.integers(0, 3))
            if choice == 1:
                delta[key] = None
            elif choice >= 2:
                delta[key] = draw(_piece)
        deltas.append(delta)
    if draw(st.booleans()):
        # DeepSeek's opening delta: role, content null, an empty reasoning piece.
        deltas.insert(0, {"content": None, "reasoning_content": ""})
    if draw(st.booleans()):
        deltas.append({"content": None, "tool_calls": [
            {"index": 0, "id": "call_t", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]})
    return deltas


def _joined(deltas: list[dict], key: str) -> str:
    return "".join(d.get(key) or "" for d in deltas)


def _check(stream, deltas: list[dict], envelope, key: str, field: str) -> None:
    body = sse(completion_chunks(deltas, "stop", envelope=envelope))
    got = valid(stream).parse_stream(body)
    want = _joined(deltas, key)
    assert got.get(field) == want, (
        f"{field}={shown(got.get(field), 500)}, but the stream's {key} pieces "
        f"{[d.get(key) for d in deltas if key in d]!r} joined in order are {want!r}; stream: {shown(body)}"
    )
    if field == "reasoning":
        # Reasoning folded into the answer would pass the wire test above; here it must stay apart.
        assert got.get("content") == _joined(deltas, "content"), (
            f"content={shown(got.get('content'), 500)}, but should be {_joined(deltas, 'content')!r}: content and "
            f"reasoning are built from their own pieces only; stream: {shown(body)}"
        )


DEEPSEEK_ROUND = [
    {"content": None, "reasoning_content": ""},
    {"content": None, "reasoning_content": "The user"},
    {"content": None, "reasoning_content": " wants"},
    {"content": None, "reasoning_content": "\n"},
    {"content": None, "reasoning_content": " the date."},
    {"content": "It", "reasoning_content": None},
    {"content": " ", "reasoning_content": None},
    {"content": "is", "reasoning_content": None},
    {"content": "\n\n", "reasoning_content": None},
    {"content": "noon.", "reasoning_content": None},
]


@pytest.mark.wire
@given(deltas=_text_deltas(), envelope=envelopes)
@example(deltas=DEEPSEEK_ROUND, envelope=ENVELOPE)
def test_content_is_every_piece_in_order(stream, deltas, envelope):
    _check(stream, deltas, envelope, "content", "content")


@pytest.mark.provider
@given(deltas=_text_deltas(), envelope=envelopes)
@example(deltas=DEEPSEEK_ROUND, envelope=ENVELOPE)
def test_reasoning_is_every_piece_in_order(stream, deltas, envelope):
    _check(stream, deltas, envelope, "reasoning_content", "reasoning")
