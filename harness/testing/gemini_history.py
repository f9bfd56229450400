"""Gemini histories for the messages contracts: strategies and the wire a correct serializer writes.

Turns are the neutral turns of :mod:`harness.adapter` as a thinking model
sends them: thought summaries and text in any order, then the round's
parallel calls, the first call signed (only the first of parallel calls is),
a text answer's signature on its last part; calls with ids or without;
arguments as any JSON object or none; texts empty, blank or any unicode.
Call ids and names are drawn so that a loop's calls never repeat an id.

:func:`wire_content` says what a correct serializer writes for a turn,
independently of any adapter, and :func:`part_changes` how written parts
differ from it, sub-rule by sub-rule.
"""

from __future__ import annotations

import base64
import json

from hypothesis import strategies as st

from harness.clip import shown
from harness.rules.gemini_history import parts_of, signature_bytes
from harness.rules.pairing import same_arguments
from harness.testing.anthropic_history import arguments, texts
from harness.testing.scripted import endings
from harness.wire.gemini_events import wire_part

TOOL_NAMES = ("read_file", "get_weather", "list_dir")
# A thoughtSignature is bytes the API sends as base64 (SDKs decode it; anything else is not one).
signatures = st.binary(min_size=1, max_size=96).map(lambda raw: base64.b64encode(raw).decode("ascii"))
_questions = st.text(min_size=1, max_size=20).filter(lambda t: t.strip())


def carries_something(block: dict) -> bool:
    """A block goes back as a part unless it is text (or thought) with no text and no signature."""
    return block["type"] == "tool_call" or bool(block["text"]) or bool(block.get("signature"))


@st.composite
def turns(draw, min_calls: int = 0, max_calls: int = 4, first_id: int = 1, with_ids: bool | None = None) -> dict:
    """One model turn with ``min_calls``..``max_calls`` parallel calls, ids ``fc_<first_id>`` on (or none)."""
    ids = draw(st.booleans()) if with_ids is None else with_ids
    n = draw(st.integers(min_calls, max_calls))
    calls = [{"type": "tool_call", "id": f"fc_{first_id + k:02d}" if ids else "",
              "name": draw(st.sampled_from(TOOL_NAMES)), "arguments": draw(arguments())} for k in range(n)]
    speech = draw(st.lists(st.one_of(
        st.builds(lambda t: {"type": "text", "text": t}, texts),
        st.builds(lambda t: {"type": "reasoning", "text": t, "signature": ""}, texts)), max_size=4))
    if calls:
        calls[0] = {**calls[0], "signature": draw(signatures)}
    elif speech and speech[-1]["type"] == "text" and draw(st.booleans()):
        speech[-1] = {**speech[-1], "signature": draw(signatures)}
    blocks = speech + calls
    if not any(carries_something(b) for b in blocks):
        blocks.append({"type": "text", "text": draw(st.text(min_size=1, max_size=8))})
    return {"blocks": blocks, "stop_reason": "STOP", "usage": None}


@st.composite
def tool_loops(draw, max_rounds: int = 3, first_id: int = 1) -> list[dict]:
    """The turns of one agent turn: 1..``max_rounds`` rounds of calls, then an answer without calls.

    Each round of calls ends as real endpoints end one (:func:`harness.testing.scripted.endings`).
    """
    loop: list[dict] = []
    ids = draw(st.booleans())
    for _ in range(draw(st.integers(1, max_rounds))):
        loop.append(draw(endings(draw(turns(min_calls=1, first_id=first_id, with_ids=ids)), "gemini")))
        first_id += len(calls_of(loop[-1]))
    return loop + [draw(turns(max_calls=0))]


@st.composite
def persisted_rounds(draw, min_turns: int = 1, max_turns: int = 2) -> list[dict]:
    """Persisted events of ``min_turns``..``max_turns`` turns, one per round (:mod:`harness.adapter`).

    Each round's results answer its calls in call order (Gemini pairs a
    response with its call by place when calls have no ids), any of them
    empty; call ids are unique throughout.
    """
    stamp = draw(st.floats(min_value=1.0, max_value=4e9, allow_nan=False))
    events: list[dict] = []
    first_id = 1
    for _ in range(draw(st.integers(min_turns, max_turns))):
        for k, turn in enumerate(draw(tool_loops(max_rounds=2, first_id=first_id))):
            first_id += len(calls_of(turn))
            results = results_for(turn, [draw(texts) for _ in calls_of(turn)])
            events.append({"input": draw(_questions) if k == 0 else None, "blocks": turn["blocks"],
                           "tool_results": results, "timestamp": stamp})
    return events


def wire_history(events: list[dict]) -> list[dict]:
    """Persisted rounds as the contents a correct renderer writes: each round's responses and the next question in one user content."""
    contents: list[dict] = []
    pending: list[dict] = []
    for event in events:
        if event.get("input"):
            pending.append({"text": event["input"]})
        if pending:
            contents.append({"role": "user", "parts": pending})
        contents.append(wire_content(event))
        pending = [response_part(r) for r in event["tool_results"]]
    if pending:
        contents.append({"role": "user", "parts": pending})
    return contents


def response_part(result: dict) -> dict:
    """The ``functionResponse`` part a correct serializer writes for one neutral result."""
    response = {"name": result["name"], "response": {"result": result["content"]}}
    return {"functionResponse": response | ({"id": result["tool_call_id"]} if result["tool_call_id"] else {})}


def calls_of(turn: dict) -> list[dict]:
    return [b for b in turn["blocks"] if b["type"] == "tool_call"]


def results_for(turn: dict, contents: list[str]) -> list[dict]:
    """The neutral tool results answering ``turn``'s calls, in order, with ``contents``."""
    return [{"tool_call_id": c["id"], "name": c["name"], "content": text} for c, text in zip(calls_of(turn), contents)]


def wire_content(turn: dict) -> dict:
    """The model content a correct serializer writes: one part per block that carries something, in order."""
    return {"role": "model", "parts": [wire_part(b) for b in turn["blocks"] if carries_something(b)]}


# The sub-rules part_changes reports on, each on its own so that one never hides another.
PART_RULES = ("signatures", "order", "thought", "text", "calls", "ids", "args", "empty")


def _kind(part: object) -> str:
    if not isinstance(part, dict):
        return repr(part)
    if "functionCall" in part:
        return "functionCall"
    return "thought" if part.get("thought") is True else "text"


def _call(part: dict) -> dict:
    call = part.get("functionCall")
    return call if isinstance(call, dict) else {}


def _runs(parts: list) -> list:
    """``parts`` as Gemini tells them apart when sent back: a call or a signed part as it is, each run of adjacent
    unsigned parts of one kind (text, thought) as one part holding their texts joined, parts that carry nothing
    left out. The documentation forbids merging a signed part, not merging unsigned text."""
    runs: list = []
    for part in parts:
        if not isinstance(part, dict) or "functionCall" in part or part.get("thoughtSignature"):
            runs.append(part)
        elif not part.get("text"):
            continue
        elif runs and isinstance(runs[-1], dict) and _unsigned_text(runs[-1]) and _unsigned_text(part) \
                and _kind(runs[-1]) == _kind(part):
            runs[-1] = {**runs[-1], "text": runs[-1]["text"] + part["text"]}
        else:
            runs.append(part)
    return runs


def _unsigned_text(part: dict) -> bool:
    return "functionCall" not in part and not part.get("thoughtSignature") and isinstance(part.get("text"), str)


def _signed(parts: list) -> list[tuple]:
    """Each signed part in order: its kind, what it says (its text, or which call: its place among the calls and its
    name) and its signature's bytes (standard or URL-safe base64 read alike)."""
    calls = [p for p in parts if isinstance(p, dict) and "functionCall" in p]
    return [(_kind(p), (calls.index(p), _call(p).get("name")) if "functionCall" in p else p.get("text"),
             signature_bytes(p["thoughtSignature"]))
            for p in parts if isinstance(p, dict) and p.get("thoughtSignature")]


def part_changes(got: object, want: list[dict]) -> dict[str, str]:
    """How the wire parts ``got`` differ from ``want``, by sub-rule (:data:`PART_RULES`); absent: no change.

    ``signatures``: each signed part, in order, with what it says and its
    ``thoughtSignature`` (the same bytes, standard or URL-safe base64): none
    dropped, moved, added or merged with another part, whatever the shape of
    the unsigned parts around it. The shape sub-rules read the parts as
    :func:`_runs` does (adjacent unsigned texts of one kind as one): ``order``:
    the part kinds in order; ``thought`` and ``text``: the texts of each kind
    in order; ``calls``: each call's name, in order; ``ids``: each call's id,
    present exactly when the call had one; ``args``: each call's ``args`` as a
    JSON value (absent is ``{}``); ``empty``: a part that carries nothing
    (empty text, no signature).
    """
    got = got if isinstance(got, list) else []
    dicts = [p for p in got if isinstance(p, dict)]
    changes = {}
    signed = (_signed(got), _signed(want))
    if signed[0] != signed[1]:
        changes["signatures"] = (f"{shown(signed[0])}, but should be {shown(signed[1])} (kind, text or (k-th call, "
                                 "name), signature bytes of each signed part, in order)")
    runs, want_runs = _runs(got), _runs(want)
    run_dicts = [p for p in runs if isinstance(p, dict)]
    pairs = {
        "order": ([_kind(p) for p in runs], [_kind(p) for p in want_runs]),
        "thought": ([p.get("text") for p in run_dicts if _kind(p) == "thought"],
                    [p["text"] for p in want_runs if _kind(p) == "thought"]),
        "text": ([p.get("text") for p in run_dicts if _kind(p) == "text" and p.get("text")],
                 [p["text"] for p in want_runs if _kind(p) == "text" and p["text"]]),
        "calls": ([_call(p).get("name") for p in dicts if "functionCall" in p],
                  [p["functionCall"]["name"] for p in want if "functionCall" in p]),
        "ids": ([_call(p).get("id") for p in dicts if "functionCall" in p],
                [p["functionCall"].get("id") for p in want if "functionCall" in p]),
    }
    changes |= {rule: f"{shown(g)}, but should be {shown(w)}" for rule, (g, w) in pairs.items() if g != w}
    got_args = [_call(p).get("args", {}) for p in dicts if "functionCall" in p]
    want_args = [p["functionCall"].get("args", {}) for p in want if "functionCall" in p]
    wrong = [f"call {k}: {shown(g)}, but should be {shown(w)}" for k, (g, w) in enumerate(zip(got_args, want_args))
             if not (isinstance(g, dict) and same_arguments(json.dumps(g), json.dumps(w)))]
    if wrong:
        changes["args"] = "; ".join(wrong)
    if any(_kind(p) != "functionCall" and not p.get("text") and not p.get("thoughtSignature") for p in dicts):
        changes["empty"] = f"a part that carries nothing (empty text, no signature) in {shown(got)}"
    return changes


# --- how the tool-round contract reads a generateContent request (harness.testing.formats, the row's tool_rounds) --

def model_contents(contents: list) -> list[tuple[int, dict]]:
    """The model contents of a history, with their places."""
    return [(n, c) for n, c in enumerate(contents) if isinstance(c, dict) and c.get("role") == "model"]


def content_changes(content: dict, turn: dict) -> dict[str, str]:
    """How a model content sent back differs from the round it answers (:func:`part_changes`)."""
    return part_changes(parts_of(content), wire_content(turn)["parts"])


def answer_faults(contents: list, turns: list[dict], outputs: list[list[set[str]]]) -> list[str]:
    """What is wrong with the responses: each round answered, in call order, in the user content right after its
    model content: one ``functionResponse`` per call with its name (and id where it had one), its ``response`` an
    object holding one of ``outputs[k][j]`` (the texts call ``j`` of round ``k`` may carry)."""
    wrong = []
    for k, ((n, _), turn) in enumerate(zip(model_contents(contents), turns)):
        calls = calls_of(turn)
        if not calls:
            continue
        after = contents[n + 1] if n + 1 < len(contents) else {}
        responses = [p.get("functionResponse") for p in parts_of(after) if isinstance(p, dict)
                     and "functionResponse" in p] if isinstance(after, dict) and after.get("role") == "user" else []
        names = [r.get("name") if isinstance(r, dict) else r for r in responses]
        if names != [c["name"] for c in calls]:
            wrong.append(f"round {k + 1}: the user content after it answers {shown(names)}, expected one "
                         f"functionResponse per call in order {[c['name'] for c in calls]}")
            continue
        for j, (r, c) in enumerate(zip(responses, calls)):
            if (r.get("id") or "") != c["id"]:
                wrong.append(f"round {k + 1}, call {j}: response id {shown(r.get('id'))}, expected {shown(c['id'] or None)}")
            body = r.get("response")
            if not isinstance(body, dict) or not set(map(str, body.values())) & outputs[k][j]:
                wrong.append(f"round {k + 1}, call {j}: response {shown(body)} should be an object holding one of "
                             f"{shown(sorted(outputs[k][j]))}")
    return wrong


def questions(contents: list) -> list:
    """The texts the user contents of a history say, in order."""
    return [p.get("text") for c in contents if isinstance(c, dict) and c.get("role") == "user"
            for p in parts_of(c) if isinstance(p, dict) and "text" in p]
