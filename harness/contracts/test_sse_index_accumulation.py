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
and however many fragments (of one call or of several) share a chunk. The
calls come out in the order of their ``index``, compared as a list; the text
the model streams beside its calls comes out whole, and the finish reason is
``tool_calls``. The streams are the format's own: calls numbered 0 to n - 1,
each opening fragment carrying ``id``, ``type`` and ``function.name``, later
fragments only ``index`` and an ``arguments`` piece; arguments compare as JSON
values (a client may re-serialize them).

Level: wire (the ``index`` rule of the chat-completions streaming format).
The shapes gateways send outside it (no ``index``, a new ``id`` at a taken
index, numbering from 1, nulls for the keys a fragment leaves out) are the
robust contract ``test_gateway_fragments.py``.

Production fingerprint: a response with 12 parallel calls, 11 of them with
empty arguments and the first holding every call's pieces run together; in
the logs, exactly 12 "empty arguments" warnings per response.
"""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.contracts.calls import valid
from harness.stream_examples import ENVELOPE, envelopes, shown
from harness.testing import Envelope, completion_chunks, same_arguments, sse

pytestmark = pytest.mark.wire


def _first(index: int, cid: str, name: str, arguments: str) -> dict:
    return {"index": index, "id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}


def _later(index: int, arguments: str) -> dict:
    return {"index": index, "function": {"arguments": arguments}}


def _problems(calls: list[dict], expected: list[tuple[str, str, str]]) -> list[str]:
    """Every way ``calls`` differs from ``expected`` (id, name, arguments), position by position.

    The calls come out in the order of their ``index`` (the order the model
    made them in): a list compared as a list.
    """
    n = len(calls)
    problems = []
    got_ids = [c.get("id") for c in calls]
    want_ids = [cid for cid, _, _ in expected]
    if got_ids != want_ids:
        problems.append(f"call ids in order {got_ids!r}, expected {want_ids!r} (the order of their index)")
    by_id = {}
    for call in calls:
        by_id.setdefault(call.get("id"), call)
    for cid, name, want in expected:
        call = by_id.get(cid)
        if call is None:
            problems.append(f"call {cid} ({name}): missing; {n} calls in stream")
            continue
        if call.get("name") != name:
            problems.append(f"call {cid}: name={call.get('name')!r}, expected {name!r}; {n} calls in stream")
        got = call.get("arguments")
        if not same_arguments(got, want):
            problems.append(
                f"call {cid} ({name}): arguments={got!r}, expected {want!r} (as a JSON value); {n} calls in stream"
            )
    return problems


def _check(stream, chunks: list[list[dict]], expected: list[tuple[str, str, str]], what: str,
           envelope: Envelope = ENVELOPE, text: dict[int, str] | None = None) -> None:
    """``text`` puts a content piece beside the fragments of chunk number k: the text must come out whole too."""
    deltas = [{"tool_calls": c} for c in chunks]
    for k, piece in (text or {}).items():
        deltas[k] = {"content": piece, **deltas[k]}
    body = sse(completion_chunks(deltas, "tool_calls", envelope=envelope))
    parsed = valid(stream).parse_stream(body)
    problems = _problems(parsed["tool_calls"], expected)
    want_text = "".join(piece for _, piece in sorted((text or {}).items()))
    if parsed.get("content") != want_text:
        problems.append(f"content={parsed.get('content')!r}, but the text streamed beside the calls is {want_text!r}")
    if parsed.get("finish_reason") != "tool_calls":
        problems.append(f"finish_reason={parsed.get('finish_reason')!r}, but the stream ended with 'tool_calls'")
    assert not problems, (
        f"{what}: {len(problems)} problem(s):\n  " + "\n  ".join(problems) + f"\nstream: {shown(body)}"
    )


def test_parallel_calls_keep_their_own_arguments(stream):
    expected = [("call_0", "a_tool", '{"days":7}'), ("call_1", "b_tool", "{}"), ("call_2", "c_tool", '{"q":"x"}')]
    chunks = [[_first(index, cid, name, args)] for index, (cid, name, args) in enumerate(expected)]
    _check(stream, chunks, expected, "3 parallel calls, one chunk each, indices 0/1/2")


def test_split_arguments_are_joined_by_index(stream):
    chunks = [
        [_first(0, "call_a", "a_tool", '{"x":1}')],
        [_first(1, "call_b", "b_tool", '{"y":')],
        [_later(1, "2}")],
    ]
    expected = [("call_a", "a_tool", '{"x":1}'), ("call_b", "b_tool", '{"y":2}')]
    _check(stream, chunks, expected, "call_b's arguments split over two chunks, the second carrying only index+arguments")


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


@given(_parallel_streams(), envelopes)
def test_any_interleaving_keeps_each_calls_arguments(stream, sample, envelope):
    expected, chunks, text = sample
    shape = " | ".join(",".join(f"{f['index']}" for f in chunk) for chunk in chunks)
    _check(stream, chunks, expected, f"{len(expected)} calls streamed as chunks of fragment indices [{shape}]",
           envelope, text)
