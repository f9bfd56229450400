"""Contract: every tool call id of a request is one the model takes, each result still answering its own call.

Incident: `mistral-call-ids`: Mistral's models (on Mistral's API and on
servers running its tokenizer) take tool call ids of nine letters and digits
only; a history whose ids came from another provider, a gateway or the
agent itself (``call_search``, ``toolu_...``, a UUID) is refused on every
request.

Rule: ``transform_request(body, {"base_url": B})`` of a chat body whose
history holds tool rounds (one to three calls each, every call answered, the
answers in any order; ids in the shapes providers, gateways and agents give
them), for the model and endpoint of every chat row of the model table
(:mod:`harness.rules.models`; ``--model`` picks one) and one model it does
not know:

- every call id and every ``tool_call_id`` sent is one the row's model takes
  (for Mistral's models, nine letters and digits);
- the renaming, where there is one, is a one-to-one map: each result still
  answers its own call (the pairing rule holds, and a call's result carries
  the same text as before), two ids never become one, in a long session too
  (120 calls), and a renamed id never takes an id the history already holds
  (the history is sent again with the id another one was renamed to);
- an id the row's model takes is sent as the history holds it: only the
  refused ones are renamed (Mistral's own ids, and every id to a model that
  takes any, stay the caller's).

Level: provider (Mistral's rule, by model family).

Production fingerprint: HTTP 400 "Tool call id was call_search but must be
a-z, A-Z, 0-9, with a length of 9." from the first request after a tool
round; or, with ids cut to nine characters, two calls merged and a result
answering the wrong call; or, with a renamed id that is also one the
history holds, a 400 for a duplicate call id or a result answering two calls.
"""

import copy
import re

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json
from harness.rules import chat_ids
from harness.rules.pairing import pairing
from harness.testing.requests import TOOLS
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.provider, pytest.mark.formats("chat")]

_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
# Call ids as they arrive: OpenAI's, Anthropic's, a UUID, one a gateway or agent names, and one Mistral gave.
call_ids = st.one_of(
    st.text(_ALNUM, min_size=24, max_size=24).map("call_".__add__),
    st.text(_ALNUM, min_size=24, max_size=24).map("toolu_".__add__),
    st.uuids().map(str),
    st.sampled_from(["call_search", "call_0", "call_1", "0", "1", "search:0", "functions.search:1"]),
    st.text(_ALNUM, min_size=9, max_size=9),
)


@st.composite
def histories(draw) -> list[dict]:
    """A question, then one or two tool rounds with every call answered, then the answer."""
    rounds = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
    ids = draw(st.lists(call_ids, min_size=sum(rounds), max_size=sum(rounds), unique=True))
    messages, taken = [{"role": "user", "content": "Read both files."}], iter(ids)
    for size in rounds:
        calls = [{"id": next(taken), "type": "function",
                  "function": {"name": "read_file", "arguments": f'{{"path": "{n}.txt"}}'}} for n in range(size)]
        messages.append({"role": "assistant", "content": None, "tool_calls": calls})
        messages += [{"role": "tool", "tool_call_id": c["id"], "content": f"text of {c['function']['arguments']}"}
                     for c in draw(st.permutations(calls))]
    return messages + [{"role": "assistant", "content": "They differ."}, {"role": "user", "content": "Where?"}]


PINNED = [{"role": "user", "content": "Search twice."},
          {"role": "assistant", "content": None, "tool_calls": [
              {"id": "call_search", "type": "function", "function": {"name": "read_file", "arguments": '{"q": 1}'}},
              {"id": "call_searcH", "type": "function", "function": {"name": "read_file", "arguments": '{"q": 2}'}},
              {"id": "abcDEF123", "type": "function", "function": {"name": "read_file", "arguments": '{"q": 3}'}}]},
          {"role": "tool", "tool_call_id": "call_searcH", "content": "two"},
          {"role": "tool", "tool_call_id": "abcDEF123", "content": "three"},
          {"role": "tool", "tool_call_id": "call_search", "content": "one"}]


def _round(cid: str, n: int) -> list[dict]:
    """One tool round: a call with id ``cid`` reading file ``n``, and its result."""
    call = {"id": cid, "type": "function", "function": {"name": "read_file", "arguments": f'{{"path": "{n}.txt"}}'}}
    return [{"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": cid, "content": f"text of {n}.txt"}]


# A long session: 120 tool rounds, ids as an agent numbers them.
LONG = [{"role": "user", "content": "Read every file."}, *(m for n in range(120) for m in _round(f"call_{n}", n))]


def _answers(messages: list) -> dict:
    """Each call's arguments -> the text of the result that answers it (by id, as the provider pairs them)."""
    results = {m.get("tool_call_id"): m.get("content") for m in messages if isinstance(m, dict)
               and m.get("role") == "tool"}
    return {c["function"]["arguments"]: results.get(c.get("id")) for m in messages if isinstance(m, dict)
            for c in m.get("tool_calls") or () if isinstance(c, dict) and isinstance(c.get("function"), dict)}


def _sent(transform, row, history: list[dict]) -> tuple[list, str]:
    """The messages ``transform_request`` sends for ``history`` to ``row``'s model, and the text naming the input."""
    body = {"model": row.example, "messages": history, "tools": TOOLS, "stream": True}
    before = copy.deepcopy(body)
    out = valid(transform).transform_request(body, {"base_url": row.base_url})
    io = (f"\n  model: {row.describe()}\n  sent ids: {chat_ids.call_ids(out.get('messages'))}"
          f"\n  history ids: {chat_ids.call_ids(history)}")
    assert body == before, f"transform_request changed the caller's body: {clip_json(body, 800)}"
    refused = chat_ids.refusals(out, row)
    assert not refused, f"the provider refuses the ids: {refused}{io}"
    return (out.get("messages") if isinstance(out.get("messages"), list) else []), io


def _one_to_one(history: list[dict], messages: list, io: str) -> None:
    """Each result still answers its own call, and no two calls share an id."""
    broken = [v.rule for v in pairing(messages)]
    assert not broken, f"the ids sent break the pairing of calls and results: {broken}{io}"
    assert _answers(messages) == _answers(history), (
        f"a result answers another call than before: {_answers(messages)}, expected {_answers(history)}{io}")
    sent = chat_ids.call_ids(messages)
    calls = [c for m in messages if isinstance(m, dict) for c in m.get("tool_calls") or ()]
    assert len({c.get("id") for c in calls if isinstance(c, dict)}) == len(calls) == sum(
        len(m.get("tool_calls") or ()) for m in history), f"two calls were given one id, or a call was lost{io}"
    assert len(sent) == len(chat_ids.call_ids(history)), f"ids were added or lost{io}"


@given(history=histories())
@example(history=PINNED)
@example(history=LONG)
def test_every_call_id_is_one_the_model_takes(transform, model_row, history):
    messages, io = _sent(transform, model_row, history)
    _one_to_one(history, messages, io)
    renamed = [(cid, sent) for cid, sent in zip(chat_ids.call_ids(history), chat_ids.call_ids(messages))
               if cid != sent and (model_row.call_ids is None or re.fullmatch(model_row.call_ids, str(cid)))]
    assert not renamed, (
        f"only the ids the model refuses should be renamed, but ids it takes were too (history id, sent id): "
        f"{renamed}{io}")


@given(cid=call_ids, first=st.booleans())
@example(cid="call_search", first=False)
@example(cid="toolu_01A09q90qw90lq917835lq9", first=True)
def test_a_renamed_id_never_takes_an_id_the_history_holds(transform, model_row, cid, first):
    """The history is sent once to learn what ``cid`` becomes, then again holding that id too (in the round
    before ``cid``'s or after it): the two calls must still get two ids."""
    question = [{"role": "user", "content": "Read both files."}]
    alone, _ = _sent(transform, model_row, [*question, *_round(cid, 1)])
    became = next(iter(chat_ids.call_ids(alone)), cid)
    # Where cid is kept, the history holds another id the model takes instead.
    other = became if isinstance(became, str) and became != cid else next(
        i for i in ("a1B2c3D4e", "f5G6h7J8k") if i != cid)
    rounds = [_round(cid, 1), _round(other, 2)]
    history = [*question, *rounds[0 if first else 1], *rounds[1 if first else 0]]
    messages, io = _sent(transform, model_row, history)
    _one_to_one(history, messages, f"{io}\n  {cid!r} alone became {became!r}")
