"""Contract: a streamed tool-call fragment belongs to the call its upstream ``index`` names.

Incident: a client joined parallel streamed tool calls by each fragment's
position in the chunk's ``tool_calls`` list (``accs[i]``) instead of the
fragment's ``index`` field (incident `sse-index-accumulation`). Providers stream each call's arguments
over many chunks, one fragment per chunk, so that position is always 0: every
argument piece of every call landed on the first call, and the others were
left with nothing. Tools then ran without their arguments, and the agent
seemed to forget what it had just decided to do.

Rule: fragments are grouped by their upstream ``index``, never by where they
sit in a chunk; a call's arguments are its own pieces joined in arrival order,
whatever the other calls stream in between, whatever order the calls open in,
and however many fragments (of one call or of several) share a chunk, also
when the same delta carries text. Calls are compared by their identity (the
``id`` their opening fragment carries): every call streamed is there, once,
with its name and its arguments, and no other call is; the text the model
streams beside its calls comes out whole, and the finish reason is
``tool_calls``. Each of these is its own check, so one broken part never
hides another. The streams are the format's own: calls numbered 0 to n - 1,
each opening fragment carrying ``id``, ``type`` and ``function.name``, later
fragments only ``index`` and an ``arguments`` piece; arguments compare as JSON
values (a client may re-serialize them).

Level: per test. Everything above is wire (the ``index`` rule of the
chat-completions streaming format).
``test_calls_come_out_in_the_order_of_their_index`` is robust: the calls as a
list in the order of their ``index``. A correct client may keep arrival
order: results pair with their calls by ``tool_call_id`` in any order, and
servers open calls in index order; a kernel that reads calls by position
behind a gateway that opens them out of order needs it. The shapes gateways
send outside the format (no ``index``, a new ``id`` at a taken index,
numbering from 1, nulls for the keys a fragment leaves out) are the robust
contract ``test_gateway_fragments.py``.

Production fingerprint: a response with 12 parallel calls, 11 of them with
empty arguments and the first holding every call's pieces run together; in
the logs, exactly 12 "empty arguments" warnings per response.
"""

import json

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.rules import blocks
from harness.testing import Envelope, completion_chunks, sse
from harness.testing.chat_turns import as_sent
from harness.testing.streams import envelopes
from harness.under_test.invoke import valid
from harness.wire.chunks import ENVELOPE
from harness.formats import spec_for


def _first(index: int, cid: str, name: str, arguments: str) -> dict:
    return {"index": index, "id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}


def _later(index: int, arguments: str) -> dict:
    return {"index": index, "function": {"arguments": arguments}}


def _body(chunks: list[list[dict]], envelope: Envelope, text: dict[int, str] | None) -> bytes:
    """``text`` puts a content piece in the same delta as the fragments of chunk number k."""
    deltas = [{"tool_calls": c} for c in chunks]
    for k, piece in (text or {}).items():
        deltas[k] = {"content": piece, **deltas[k]}
    return sse(completion_chunks(deltas, "tool_calls", envelope=envelope))


def _sent(expected: list[tuple[str, str, str]], text: str) -> dict:
    """The neutral turn the stream carries: the text beside the calls, the calls, the ``tool_calls`` finish."""
    calls = [{"type": "tool_call", "id": cid, "name": name, "arguments": args} for cid, name, args in expected]
    return {"blocks": [{"type": "text", "text": text}] * bool(text) + calls, "stop_reason": "tool_calls", "usage": None}


def _check(stream, chunks: list[list[dict]], expected: list[tuple[str, str, str]], what: str,
           envelope: Envelope = ENVELOPE, text: dict[int, str] | None = None) -> None:
    """Each part of the rule (``harness.rules.blocks``, read through the chat codec) is its own assertion."""
    body = _body(chunks, envelope, text)
    parsed = valid(stream).parse_stream(body)
    got_ids = [c.get("id") for c in parsed["tool_calls"]]
    where = f"{what}; {len(got_ids)} calls parsed, ids {shown(got_ids)}; stream: {shown(body)}"
    want_text = "".join(piece for _, piece in sorted((text or {}).items()))
    sent = _sent(expected, want_text)
    got = as_sent(spec_for("chat").codec.decode(parsed), sent)
    ids = blocks.call_ids(got, sent)
    assert "missing" not in ids, (
        f"calls {shown(ids.get('missing'))} are missing, but every call streamed should be there; {where}")
    assert "extra" not in ids, f"calls {shown(ids.get('extra'))} were never streamed, but came back; {where}"
    assert "repeated" not in ids, (
        f"calls {shown(ids.get('repeated'))} came back more than once, but each was streamed once; {where}")
    names = blocks.call_fields(got, sent, "name")
    assert not names, f"calls with the wrong name (id, got, expected): {shown(names)}; {where}"
    arguments = blocks.call_fields(got, sent, "arguments")
    assert not arguments, (
        f"calls with the wrong arguments (id, got, expected as a JSON value): {shown(arguments)}; {where}"
    )
    assert not blocks.texts(got, sent, "text"), (
        f"content={shown(parsed.get('content'))}, but the text streamed beside the calls is {want_text!r}; {where}"
    )
    assert not blocks.stop_reason(got, sent), (
        f"finish_reason={shown(parsed.get('finish_reason'))}, but the stream ended with 'tool_calls'; {where}"
    )


@pytest.mark.wire
def test_parallel_calls_keep_their_own_arguments(stream):
    expected = [("call_0", "a_tool", '{"days":7}'), ("call_1", "b_tool", "{}"), ("call_2", "c_tool", '{"q":"x"}')]
    chunks = [[_first(index, cid, name, args)] for index, (cid, name, args) in enumerate(expected)]
    _check(stream, chunks, expected, "3 parallel calls, one chunk each, indices 0/1/2")


@pytest.mark.wire
def test_split_arguments_are_joined_by_index(stream):
    chunks = [
        [_first(0, "call_a", "a_tool", '{"x":1}')],
        [_first(1, "call_b", "b_tool", '{"y":')],
        [_later(1, "2}")],
    ]
    expected = [("call_a", "a_tool", '{"x":1}'), ("call_b", "b_tool", '{"y":2}')]
    _check(stream, chunks, expected, "call_b's arguments split over two chunks, the second carrying only index+arguments")


@pytest.mark.wire
def test_twelve_parallel_calls_of_the_incident(stream):
    expected = [(f"call_{k:02d}", f"tool_{k}", json.dumps({"city": f"City {k}", "days": k})) for k in range(12)]
    chunks = []
    for index, (cid, name, args) in enumerate(expected):
        # As providers stream them: the opening fragment, then the arguments in three pieces.
        third = len(args) // 3
        chunks.append([_first(index, cid, name, "")])
        for piece in (args[:third], args[third : 2 * third], args[2 * third :]):
            chunks.append([_later(index, piece)])
    _check(stream, chunks, expected, "12 parallel calls, arguments in 3 chunks each, one fragment per chunk")


_json_scalar = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8)
)
_json_value = st.recursive(
    _json_scalar,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
_json_object = st.dictionaries(st.text(max_size=6), _json_value, max_size=3)
_stem = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=8)


def _pieces(draw, text: str) -> list[str]:
    """``text`` cut at any characters; the first piece may be empty, as opening fragments often are."""
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=4))))
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:]) if b > a or a == 0]


@st.composite
def _parallel_streams(draw):
    """Calls (id, name, arguments) and the fragment chunks that stream them, interleaved.

    Calls are numbered 0 to n - 1 and may open in any order (the format gives
    the order of openings no meaning); any call's pieces may come between any
    other's.
    """
    n = draw(st.integers(1, 8))
    # Distinct by construction; the drawn stems vary what ids and names look like.
    ids = [f"{draw(_stem)}{k}" for k in range(n)]
    names = [f"{draw(_stem)}_{k}" for k in range(n)]
    ascii_only = draw(st.booleans())
    arguments = [json.dumps(draw(_json_object), ensure_ascii=ascii_only) for _ in range(n)]
    pieces = [_pieces(draw, text) for text in arguments]
    # A shuffled multiset of call numbers: each call's k-th occurrence sends its k-th piece.
    order = draw(st.permutations([k for k in range(n) for _ in pieces[k]]))
    sent = [0] * n
    fragments = []
    for k in order:
        piece = pieces[k][sent[k]]
        fragments.append(_first(k, ids[k], names[k], piece) if sent[k] == 0 else _later(k, piece))
        sent[k] += 1
    # One fragment per chunk as in the incident, unless a drawn flag joins it to the
    # previous chunk: lists of several calls' fragments test position against index, and
    # several fragments of one call in one chunk (some servers send them so) test joining.
    joins = draw(st.lists(st.booleans(), min_size=len(fragments), max_size=len(fragments)))
    chunks: list[list[dict]] = []
    for fragment, join in zip(fragments, joins):
        if join and chunks:
            chunks[-1].append(fragment)
        else:
            chunks.append([fragment])
    # Text the model writes beside its calls, in some of the chunks.
    text = draw(st.dictionaries(st.integers(0, len(chunks) - 1), st.text(min_size=1, max_size=5), max_size=3))
    return list(zip(ids, names, arguments)), chunks, text


def _shape(chunks: list[list[dict]]) -> str:
    return " | ".join(",".join(f"{f['index']}" for f in chunk) for chunk in chunks)


# Pinned for the derandomized gate, one shape each (Hypothesis runs every explicit example, then
# stops; an example holding two shapes shows only the first that fails): text in the same delta as a
# call's opening fragment and as a later piece, two calls' fragments in one chunk; call 1 opened
# before call 0.
TEXT_BESIDE_FRAGMENTS = (
    [("call_a", "read_a", '{"path":"a"}'), ("call_b", "read_b", '{"path":"b"}')],
    [[_first(0, "call_a", "read_a", '{"path":')], [_later(0, '"a"}'), _first(1, "call_b", "read_b", '{"path":"b"}')]],
    {0: "Reading ", 1: "both."},
)
OPENED_OUT_OF_ORDER = (
    [("call_a", "read_a", '{"path":"a"}'), ("call_b", "read_b", '{"path":"b"}')],
    [[_first(1, "call_b", "read_b", '{"path":"b"}')], [_first(0, "call_a", "read_a", '{"path":"a"}')]],
    {},
)


@pytest.mark.wire
@given(_parallel_streams(), envelopes)
@example(TEXT_BESIDE_FRAGMENTS, ENVELOPE)
@example(OPENED_OUT_OF_ORDER, ENVELOPE)
def test_any_interleaving_keeps_each_calls_arguments(stream, sample, envelope):
    expected, chunks, text = sample
    _check(stream, chunks, expected, f"{len(expected)} calls streamed as chunks of fragment indices "
           f"[{_shape(chunks)}]", envelope, text)


@pytest.mark.robust
@given(_parallel_streams(), envelopes)
@example(TEXT_BESIDE_FRAGMENTS, ENVELOPE)
@example(OPENED_OUT_OF_ORDER, ENVELOPE)
def test_calls_come_out_in_the_order_of_their_index(stream, sample, envelope):
    expected, chunks, text = sample
    body = _body(chunks, envelope, text)
    got = [c.get("id") for c in valid(stream).parse_stream(body)["tool_calls"]]
    want = [cid for cid, _, _ in expected]
    assert got == want, (
        f"call ids in order {shown(got)}, but the calls numbered by their index are {shown(want)}; "
        f"{len(expected)} calls streamed as chunks of fragment indices [{_shape(chunks)}]; stream: {shown(body)}"
    )
