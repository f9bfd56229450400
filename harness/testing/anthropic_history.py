"""Anthropic histories for the messages, request, kernel and memory contracts: strategies and expected wire shapes.

Turns are the neutral turns of :mod:`harness.adapter`: thinking, redacted
thinking, text and tool calls interleaved in any order the provider may send
(with thinking on, a turn opens with its thinking; after that anything goes),
text that is empty, whitespace or any unicode, opaque values (signatures,
redacted data) holding any character a JSON string can carry, and tool
arguments as the provider streams them: ``""`` for a call without arguments,
or a JSON object in any spacing. Tool-call ids are unique across a whole loop.

:func:`wire_message` and :func:`wire_user` say what a correct serializer
writes for a turn and for a round's tool results, independently of any
adapter: the contracts compare against them.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from harness.clip import shown
from harness.rules import anthropic_thinking
from harness.rules.anthropic_history import tool_result_text, wire_block
from harness.rules.models import BUDGET, ROWS
from harness.rules.pairing import same_arguments
from harness.testing.scripted import cut_calls, ended, endings, tool_outputs

TOOL_NAMES = ("read_file", "get_weather", "list_dir")

_base64 = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", min_size=1,
                  max_size=40)
# Opaque values as the provider sends them (base64) or as any JSON string could carry them; never empty.
opaque_values = _base64 | st.text(min_size=1, max_size=24)
texts = st.text(max_size=20) | st.sampled_from(["", " ", "\n", "\u00a0"])
# Integers a JSON number carries exactly everywhere (RFC 8259, section 6: within IEEE 754 doubles).
_exact_integers = st.integers(-(2**53) + 1, 2**53 - 1)
_json_values = st.recursive(st.none() | st.booleans() | _exact_integers | st.text(max_size=6),
                            lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner,
                                                                                          max_size=2), max_leaves=4)
# What a user asks: never blank (a blank question is a text block Anthropic refuses).
_questions = st.text(min_size=1, max_size=20).filter(lambda t: not blank(t))
_spacings = st.sampled_from([(",", ":"), (", ", ": "), (",\n", " : ")])


@st.composite
def arguments(draw) -> str:
    """Tool-call arguments as streamed: ``""`` (a call with none, meaning ``{}``) or a JSON object's text."""
    if draw(st.integers(0, 3)) == 0:
        return ""
    value = draw(st.dictionaries(st.text(max_size=6), _json_values, max_size=3))
    return json.dumps(value, separators=draw(_spacings), ensure_ascii=draw(st.booleans()))


def reasoning_blocks() -> st.SearchStrategy[dict]:
    return st.builds(lambda text, signature: {"type": "reasoning", "text": text, "signature": signature},
                     texts, opaque_values)


def redacted_blocks() -> st.SearchStrategy[dict]:
    return st.builds(lambda data: {"type": "redacted_reasoning", "data": data}, opaque_values)


def text_blocks() -> st.SearchStrategy[dict]:
    return st.builds(lambda text: {"type": "text", "text": text}, texts)


@st.composite
def turns(draw, thinking: bool = True, min_calls: int = 0, max_calls: int = 4, first_id: int = 1) -> dict:
    """One assistant turn with ``min_calls``..``max_calls`` tool calls, numbered ``toolu_<first_id>`` on.

    With ``thinking`` the turn opens with a thinking or redacted block, as a
    model with thinking enabled always answers, and blocks of every kind come
    in any order after it; without, it holds text and calls only. A turn
    always says something (an answer with no block at all would be an empty
    message, which the wire refuses).
    """
    n = draw(st.integers(min_calls, max_calls))
    calls = [{"type": "tool_call", "id": f"toolu_{first_id + k:02d}", "name": draw(st.sampled_from(TOOL_NAMES)),
              "arguments": draw(arguments())} for k in range(n)]
    kinds = st.one_of(text_blocks(), reasoning_blocks(), redacted_blocks()) if thinking else text_blocks()
    others = draw(st.lists(kinds, max_size=4))
    blocks = [draw(st.one_of(reasoning_blocks(), redacted_blocks()))] if thinking else []
    mixed = draw(st.permutations(calls + others))
    # The provider's text comes before the turn's first tool use (a tool use closes the turn's speech); only
    # thinking interleaves with the calls.
    first = next((k for k, b in enumerate(mixed) if b["type"] == "tool_call"), len(mixed))
    late = mixed[first:]
    blocks += mixed[:first] + [b for b in late if b["type"] == "text"] + [b for b in late if b["type"] != "text"]
    if not any(expected_block(b) for b in blocks):
        blocks.append({"type": "text", "text": draw(st.text(min_size=1, max_size=8))})
    return {"blocks": blocks, "stop_reason": "tool_use" if calls else "end_turn", "usage": None}


@st.composite
def tool_loops(draw, thinking: bool = True, max_rounds: int = 3, first_id: int = 1) -> list[dict]:
    """The turns of one agent turn: 1..``max_rounds`` tool rounds, then an answer without calls; ids unique.

    Each tool round ends as real endpoints end one (:func:`harness.testing.scripted.endings`).
    """
    loop: list[dict] = []
    for _ in range(draw(st.integers(1, max_rounds))):
        loop.append(draw(endings(draw(turns(thinking, min_calls=1, first_id=first_id)), "anthropic")))
        first_id += len(calls_of(loop[-1]))
    return loop + [draw(turns(thinking, max_calls=0))]


@st.composite
def persisted_rounds(draw, min_turns: int = 1, max_turns: int = 2) -> list[dict]:
    """Persisted events of ``min_turns``..``max_turns`` turns, one per round (:mod:`harness.adapter`).

    Tool-call ids are unique throughout.

    Each round's results answer its calls in any order (a concurrent batch
    finishes in any order), any of them empty; timestamps repeat.
    """
    stamp = draw(st.floats(min_value=1.0, max_value=4e9, allow_nan=False))
    events: list[dict] = []
    first_id = 1
    for _ in range(draw(st.integers(min_turns, max_turns))):
        for k, turn in enumerate(draw(tool_loops(thinking=draw(st.booleans()), max_rounds=2, first_id=first_id))):
            calls = calls_of(turn)
            first_id += len(calls)
            results = [{"tool_call_id": c["id"], "content": draw(texts)} for c in draw(st.permutations(calls))]
            events.append({"input": draw(_questions) if k == 0 else None,
                           "blocks": turn["blocks"], "tool_results": results, "timestamp": stamp})
    return events


def blank(text: str) -> bool:
    """Text Anthropic refuses in a text block: empty, or only whitespace."""
    return not text.strip()


def expected_block(block: dict) -> dict | None:
    """The wire block a correct serializer writes for a neutral block; None for a blank text block."""
    if block["type"] == "text" and blank(block["text"]):
        return None
    wire = wire_block(block)
    if block["type"] == "tool_call":
        wire["input"] = json.loads(block["arguments"] or "{}")
    return wire


def wire_message(turn_or_blocks: dict | list) -> dict:
    """The assistant wire message for a turn (or its blocks): every block in order, blank text left out."""
    blocks = turn_or_blocks["blocks"] if isinstance(turn_or_blocks, dict) else turn_or_blocks
    return {"role": "assistant", "content": [w for w in map(expected_block, blocks) if w is not None]}


def tool_result_blocks(results: list[dict]) -> list[dict]:
    return [{"type": "tool_result", "tool_use_id": r["tool_call_id"], "content": r["content"]} for r in results]


def calls_of(turn_or_blocks: dict | list) -> list[dict]:
    blocks = turn_or_blocks["blocks"] if isinstance(turn_or_blocks, dict) else turn_or_blocks
    return [b for b in blocks if b["type"] == "tool_call"]


def content_blocks(message: dict) -> list:
    """A wire message's content as blocks: the wire's string form is one text block."""
    content = message.get("content")
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def wire_history(events: list[dict]) -> list[dict]:
    """Persisted rounds as the Messages history a correct renderer writes (roles alternating).

    A round's results and the next turn's question share one user message,
    results first.
    """
    messages: list[dict] = []
    pending: list[dict] = []  # the user content not yet closed by an assistant message
    for event in events:
        if event.get("input"):
            pending.append({"type": "text", "text": event["input"]})
        if pending:
            messages.append({"role": "user", "content": pending})
        messages.append(wire_message(event["blocks"]))
        pending = tool_result_blocks(event["tool_results"])
    if pending:
        messages.append({"role": "user", "content": pending})
    return messages


# The sub-rules block_changes reports on, each on its own so that one never hides another.
BLOCK_RULES = ("order", "thinking", "redacted", "calls", "input", "text", "empty")


def _of(blocks: list, kind: str, *keys: str) -> list:
    return [tuple(b.get(k, "<absent>") for k in keys) for b in blocks if isinstance(b, dict) and b.get("type") == kind]


def _thinking(blocks: list) -> list:
    # A signature that came empty may go back empty or left out: Anthropic refuses both alike, and neither makes one up.
    return [(text, "" if signature == "<absent>" else signature)
            for text, signature in _of(blocks, "thinking", "thinking", "signature")]


def block_changes(got: object, want: list[dict]) -> dict[str, str]:
    """How the wire blocks ``got`` differ from ``want``, by sub-rule (:data:`BLOCK_RULES`); absent: no change.

    ``order``: the block types in order; ``thinking``: each thinking block's
    text and signature, byte for byte (an empty signature and none alike), in order; ``redacted``: each data;
    ``calls``: each tool_use's id and name; ``input``: each tool_use's input as
    a JSON value (by id); ``text``: the non-empty texts in order; ``empty``: a
    text block that is blank (empty or only whitespace: Anthropic refuses both).
    """
    got = got if isinstance(got, list) else []
    changes = {}
    pairs = {
        "order": ([b.get("type") if isinstance(b, dict) else b for b in got], [b["type"] for b in want]),
        "thinking": (_thinking(got), _thinking(want)),
        "redacted": (_of(got, "redacted_thinking", "data"), _of(want, "redacted_thinking", "data")),
        "calls": (_of(got, "tool_use", "id", "name"), _of(want, "tool_use", "id", "name")),
        "text": ([t for (t,) in _of(got, "text", "text") if not _blank_value(t)],
                 [t for (t,) in _of(want, "text", "text")]),
    }
    for rule, (g, w) in pairs.items():
        if g != w:
            changes[rule] = f"{shown(g)}, but should be {shown(w)}"
    inputs = _of(got, "tool_use", "id", "input")
    wrong = [f"{i}: {shown(_input_of(inputs, i))}, but should be {shown(v)}"
             for i, v in _of(want, "tool_use", "id", "input")
             if _input_of(inputs, i) != "<absent>" and not _same_input(_input_of(inputs, i), v)]
    if wrong:
        changes["input"] = "; ".join(wrong)
    if any(_blank_value(t) for (t,) in _of(got, "text", "text")):
        changes["empty"] = f"a blank text block (empty or only whitespace) in {shown([b.get('type') for b in got if isinstance(b, dict)])}"
    return changes


def _input_of(inputs: list[tuple], call_id: object) -> object:
    """The input of the last tool_use sent back with this id; ids are compared, never hashed (any type may come back)."""
    found = [value for i, value in inputs if i == call_id]
    return found[-1] if found else "<absent>"


def _blank_value(text: object) -> bool:
    return isinstance(text, str) and blank(text)


def _same_input(got: object, want: dict) -> bool:
    return isinstance(got, dict) and same_arguments(json.dumps(got), json.dumps(want))


def _call(cid: str, name: str, arguments: str) -> dict:
    return {"type": "tool_call", "id": cid, "name": name, "arguments": arguments}


# The incidents' turn: interleaved thinking, text and three tool calls, signatures that streamed in several
# pieces (joined here as the decoder joins them), a redacted block and a call with no arguments.
INTERLEAVED_TURN = {"blocks": [
    {"type": "reasoning", "text": "Weather for two cities, then the folder.",
     "signature": "EqQBCkgIAxAB" + "GAIiQHb3Jz9+" + "kx0c/w=="},
    {"type": "text", "text": "Let me check."},
    _call("toolu_01", "get_weather", '{"city":"Paris"}'),
    {"type": "redacted_reasoning", "data": "EmwKAhgBEgy3va3pzix/LafPsn4a" + "Dw=="},
    _call("toolu_02", "get_weather", '{"city": "Z\u00fcrich", "units": null}'),
    {"type": "reasoning", "text": "And the folder.", "signature": "Eo8B" + "CkYIAx" + "gCKkA="},
    {"type": "text", "text": ""},
    _call("toolu_03", "list_dir", ""),
], "stop_reason": "tool_use", "usage": None}
INTERLEAVED_ANSWER = {"blocks": [
    {"type": "reasoning", "text": "All three are in.", "signature": "EpABCkYIAx" + "gCIkBd"},
    {"type": "text", "text": "Paris 18\u00b0C, Z\u00fcrich 12\u00b0C; the folder holds 4 files."},
], "stop_reason": "end_turn", "usage": None}


# What the user asks in the incident's loop, and that loop with its tool round ended as relays end one:
# "end_turn" and a usage, or no stop reason.
LOOP_QUESTION = "What is the weather in Paris and Zurich, and what is in the folder?"
RELAYED_LOOPS = tuple([ended(INTERLEAVED_TURN, "anthropic", variant), INTERLEAVED_ANSWER] for variant in (1, 2))


# --- how the tool-round contract reads a Messages request (harness.testing.formats, the row's tool_rounds) -------

def thought(turns: list[dict]) -> bool:
    """Whether the latest of ``turns`` opened with thinking (a model with thinking enabled always does)."""
    return bool(turns and turns[-1]["blocks"]) and turns[-1]["blocks"][0]["type"] in ("reasoning", "redacted_reasoning")


def as_sent(body: object, turns: list[dict]) -> object:
    """A request as it goes out after ``turns``: thinking enabled when the latest of them thought, none when not."""
    if not isinstance(body, dict):
        return body
    body = {k: v for k, v in body.items() if k != "thinking"}
    return body | ({"thinking": {"type": "enabled", "budget_tokens": 1024}} if thought(turns) else {})


# The model the kernel's requests are judged as sending to: one that takes no assistant prefill (Claude 4.6 and
# later), so the prefill rule holds, and takes the budget form and thinking off, as :func:`as_sent` writes them.
JUDGED_MODEL = next(row for row in ROWS if row.format == "anthropic" and not row.prefill and BUDGET in row.thinking
                    and row.can_disable)


def request_refusals(body: object, turns: list[dict]) -> list:
    """The refusals of a request (a body) after ``turns``, as sent to :data:`JUDGED_MODEL`: its thinking parameters
    and prefill rule by the model's row, then the history rules given the turns sent."""
    if not isinstance(body, dict):
        return []
    return anthropic_thinking.request_refusals({**as_sent(body, turns), "model": JUDGED_MODEL.example}, turns or None)


def model_messages(messages: list) -> list[tuple[int, dict]]:
    """The assistant messages of a history, with their places."""
    return [(n, m) for n, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"]


def message_changes(message: dict, turn: dict) -> dict[str, str]:
    """How an assistant message sent back differs from the round it answers (:func:`block_changes`)."""
    return block_changes(content_blocks(message), wire_message(turn)["content"])


def answer_faults(messages: list, turns: list[dict], outputs: list[list[set[str]]]) -> list[str]:
    """What is wrong with the results: each round's calls answered by the ``tool_result`` blocks opening the user
    message right after its assistant message (paired by id, any order), each carrying one of ``outputs[k][j]``
    (the texts call ``j`` of round ``k`` may carry)."""
    wrong = []
    for k, ((n, _), turn) in enumerate(zip(model_messages(messages), turns)):
        calls = calls_of(turn)
        if not calls:
            continue
        after = messages[n + 1] if n + 1 < len(messages) else {}
        blocks = content_blocks(after) if isinstance(after, dict) and after.get("role") == "user" else []
        opening = [b for b in (blocks if isinstance(blocks, list) else [])[:len(calls)] if isinstance(b, dict)]
        ids = sorted(str(b.get("tool_use_id")) if b.get("type") == "tool_result" else f"<{b.get('type')}>"
                     for b in opening)
        if ids != sorted(c["id"] for c in calls):
            wrong.append(f"round {k + 1}: the message after it opens with {shown(ids)}, but should be a user message "
                         f"opening with one tool_result per tool_use: {[c['id'] for c in calls]} (any order)")
            continue
        carried = {b.get("tool_use_id"): tool_result_text(b) for b in opening}
        wrong += [f"round {k + 1}, {c['id']}: tool_result carries {shown(carried[c['id']])}, expected one of "
                  f"{shown(sorted(outputs[k][j]))}" for j, c in enumerate(calls) if carried[c["id"]] not in outputs[k][j]]
    return wrong


def questions(messages: list) -> list:
    """The texts the user messages of a history say, in order (a string content is one text)."""
    return [b.get("text") for m in messages if isinstance(m, dict) and m.get("role") == "user"
            for b in (content_blocks(m) or ()) if isinstance(b, dict) and b.get("type") == "text"]


def _holds(wire_input: object, arguments: str) -> bool:
    """Whether a tool_use's ``input`` carries the call's raw arguments: parsed, or the raw text as a value."""
    if not isinstance(wire_input, dict):
        return False
    try:
        parsed = json.loads(arguments or "{}")
    except ValueError:
        parsed = None
    return wire_input == parsed if isinstance(parsed, dict) else arguments in wire_input.values()


def cut_call_faults(messages: list, turn: dict) -> list[str]:
    """What is wrong with a history sending back ``turn``, a round with a call whose ``partial_json`` was cut off:
    its calls go back with their ids and names, each ``input`` an object holding the arguments as streamed (parsed
    when they parse to an object, else the raw text), and the cut call is answered by one ``tool_result``."""
    calls = calls_of(turn)
    at = next((k for k, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"), None)
    uses = [b for b in content_blocks(messages[at]) or () if isinstance(b, dict) and b.get("type") == "tool_use"] if (
        at is not None) else []
    sent = [(b.get("id"), b.get("name")) for b in uses]
    if sent != [(c["id"], c["name"]) for c in calls]:
        return [f"the round's calls go back as {shown(sent)}, but the model made {[(c['id'], c['name']) for c in calls]}"
                " (a call whose arguments were cut off included)"]
    faults = [f"{c['id']}: input {shown(b.get('input'))}, the model streamed {c['arguments']!r}; a tool_use's input "
              "should be an object holding the arguments as streamed (parsed when they parse to an object, else the "
              "raw text)" for c, b in zip(calls, uses) if not _holds(b.get("input"), c["arguments"])]
    for cut in cut_calls(calls):
        answers = [b for b in content_blocks(messages[at + 1]) or () if isinstance(b, dict)
                   and b.get("type") == "tool_result" and b.get("tool_use_id") == cut["id"]] if at + 1 < len(messages) else []
        text = tool_result_text(answers[0]) if answers else None
        if not (len(answers) == 1 and isinstance(text, str) and text.strip()):
            faults.append(f"the cut call {cut['id']} is answered with {shown([tool_result_text(b) for b in answers])}; "
                          f"it should get one tool_result: what the tool returned, {sorted(tool_outputs(cut))}, or an "
                          "error text the model can read")
    return faults
