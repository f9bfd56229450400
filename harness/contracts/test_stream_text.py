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
the same way from the ``reasoning_content`` pieces, and the two never mix;
the calls streamed in the same deltas as the text are all there, with their
arguments. A stream with no text has ``""`` for both. Each part is its own
check (text wrong, reasoning dropped, reasoning altered, content mixed with
reasoning, a call missing, a call's arguments wrong), so one broken part
never hides another.

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
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.testing import completion_chunks, same_arguments, sse
from harness.testing.streams import envelopes
from harness.under_test.invoke import valid
from harness.wire.chunks import ENVELOPE

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
    """Deltas carrying content, reasoning, both, or neither (null), in any mix and order.

    Some of them also carry a whole tool call in the same delta (each call one
    fragment, at the next index), as models that talk while they call tools
    send them.
    """
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
    if deltas:
        for k in sorted(set(draw(st.lists(st.integers(0, len(deltas) - 1), max_size=3)))):
            deltas[k] = {**deltas[k], "tool_calls": [_call(len(_calls(deltas)))]}
    if draw(st.booleans()):
        deltas.append({"content": None, "tool_calls": [_call(len(_calls(deltas)))]})
    return deltas


def _call(index: int) -> dict:
    arguments = f'{{"q":"item {index}"}}'
    return {"index": index, "id": f"call_t{index}", "type": "function",
            "function": {"name": "lookup", "arguments": arguments}}


def _calls(deltas: list[dict]) -> list[dict]:
    return [fragment for d in deltas for fragment in d.get("tool_calls") or []]


def _joined(deltas: list[dict], key: str) -> str:
    return "".join(d.get(key) or "" for d in deltas)


def _parsed(stream, deltas: list[dict], envelope) -> tuple[dict, str]:
    body = sse(completion_chunks(deltas, "stop", envelope=envelope))
    return valid(stream).parse_stream(body), f"stream: {shown(body)}"


def _check_calls(got: dict, deltas: list[dict], where: str) -> None:
    by_id = {c.get("id"): c for c in got.get("tool_calls") or []}
    sent = _calls(deltas)
    missing = [f["id"] for f in sent if f["id"] not in by_id]
    assert not missing, (
        f"calls {shown(missing)} are missing (parsed ids {shown(list(by_id))}), but every call streamed beside the "
        f"text should be there; {where}"
    )
    wrong = [(f["id"], by_id[f["id"]].get("arguments")) for f in sent
             if not same_arguments(by_id[f["id"]].get("arguments"), f["function"]["arguments"])]
    assert not wrong, f"calls with wrong arguments (id, got): {shown(wrong)}, but each has its own; {where}"


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


# Pinned for the derandomized gate, one shape each (Hypothesis runs every explicit example, then
# stops; an example holding two shapes shows only the first that fails): text and calls in the same
# delta; reasoning and content in the same delta, reasoning that is not ASCII.
TEXT_BESIDE_CALLS = [
    {"content": "Looking ", "reasoning_content": "two lookups", "tool_calls": [_call(0)]},
    {"content": "both up.", "tool_calls": [_call(1)]},
]
REASONING_BESIDE_CONTENT = [
    {"content": None, "reasoning_content": "Zwei Städte: "},
    {"content": "Zürich ", "reasoning_content": "Zürich und Genf."},
    {"content": "und Genf.", "reasoning_content": " 思考"},
]
# An answer about SSE itself: the text [DONE] inside an event's data.
ABOUT_SSE = [
    {"content": "The stream ends with "},
    {"content": "`data: [DONE]`."},
]


@pytest.mark.wire
@given(deltas=_text_deltas(), envelope=envelopes)
@example(deltas=DEEPSEEK_ROUND, envelope=ENVELOPE)
@example(deltas=TEXT_BESIDE_CALLS, envelope=ENVELOPE)
@example(deltas=REASONING_BESIDE_CONTENT, envelope=ENVELOPE)
@example(deltas=ABOUT_SSE, envelope=ENVELOPE)
def test_content_is_every_piece_in_order(stream, deltas, envelope):
    got, where = _parsed(stream, deltas, envelope)
    want = _joined(deltas, "content")
    assert got.get("content") == want, (
        f"content={shown(got.get('content'), 500)}, but the stream's content pieces "
        f"{[d.get('content') for d in deltas if 'content' in d]!r} joined in order are {want!r}; {where}"
    )
    _check_calls(got, deltas, where)


@pytest.mark.provider
@given(deltas=_text_deltas(), envelope=envelopes)
@example(deltas=DEEPSEEK_ROUND, envelope=ENVELOPE)
@example(deltas=TEXT_BESIDE_CALLS, envelope=ENVELOPE)
@example(deltas=REASONING_BESIDE_CONTENT, envelope=ENVELOPE)
def test_reasoning_is_every_piece_in_order(stream, deltas, envelope):
    got, where = _parsed(stream, deltas, envelope)
    want, reasoning = _joined(deltas, "reasoning_content"), got.get("reasoning")
    pieces = [d.get("reasoning_content") for d in deltas if "reasoning_content" in d]
    assert reasoning or not want, f"reasoning={reasoning!r}, but the stream's reasoning pieces {shown(pieces)} " \
        f"joined in order are {want!r}: the reasoning was dropped; {where}"
    assert not reasoning or reasoning == want, (
        f"reasoning={shown(reasoning, 500)}, but the stream's reasoning pieces {shown(pieces)} joined in order are "
        f"{want!r}: the reasoning was altered; {where}"
    )
    # Reasoning folded into the answer would pass the wire test; here the two must stay apart.
    assert got.get("content") == _joined(deltas, "content"), (
        f"content={shown(got.get('content'), 500)}, but should be {shown(_joined(deltas, 'content'))}: content and "
        f"reasoning are built from their own pieces only; {where}"
    )
    _check_calls(got, deltas, where)
