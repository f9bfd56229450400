"""Bedrock histories for the rounds contracts: strategies and the messages a correct renderer writes.

Turns are neutral turns as Claude on Bedrock sends them: signed reasoning
and redacted reasoning, text (empty, blank or any unicode), then the round's
parallel calls with ids of Bedrock's pattern, unique throughout a history.
:func:`wire_history` says what a correct renderer writes for persisted
rounds, independently of any adapter.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from harness.clip import clip_json, shown
from harness.rules.bedrock_history import content_of
from harness.testing.anthropic_history import arguments, texts
from harness.testing.bedrock_streams import redacted_data, signatures
from harness.testing.scripted import endings

TOOL_NAMES = ("read_file", "get_weather", "list_dir")
_questions = st.text(min_size=1, max_size=20).filter(lambda t: t.strip())


@st.composite
def turns(draw, min_calls: int = 0, max_calls: int = 4, first_id: int = 1) -> dict:
    """One model turn: reasoning (signed) or redacted reasoning, text, then ``min_calls``..``max_calls`` calls."""
    speech = draw(st.lists(st.one_of(
        st.builds(lambda t: {"type": "text", "text": t}, texts),
        st.builds(lambda t, s: {"type": "reasoning", "text": t, "signature": s}, texts, signatures),
        st.builds(lambda d: {"type": "redacted_reasoning", "data": d}, redacted_data)), max_size=3))
    calls = [{"type": "tool_call", "id": f"tooluse_{first_id + k:03d}", "name": draw(st.sampled_from(TOOL_NAMES)),
              "arguments": draw(arguments())} for k in range(draw(st.integers(min_calls, max_calls)))]
    blocks = speech + calls
    if not any(_content(b) is not None for b in blocks):
        blocks.append({"type": "text", "text": draw(_questions)})
    return {"blocks": blocks, "stop_reason": "tool_use" if calls else "end_turn", "usage": None}


@st.composite
def tool_loops(draw, max_rounds: int = 3, first_id: int = 1) -> list[dict]:
    """1..``max_rounds`` rounds of calls, each ended as real endpoints end one, then an answer without calls."""
    loop: list[dict] = []
    for _ in range(draw(st.integers(1, max_rounds))):
        loop.append(draw(endings(draw(turns(min_calls=1, first_id=first_id)), "bedrock")))
        first_id += len(calls_of(loop[-1]))
    return loop + [draw(turns(max_calls=0))]


@st.composite
def persisted_rounds(draw, min_turns: int = 1, max_turns: int = 2) -> list[dict]:
    """Persisted events of ``min_turns``..``max_turns`` turns, one per round, results in call order."""
    stamp = draw(st.floats(min_value=1.0, max_value=4e9, allow_nan=False))
    events: list[dict] = []
    first_id = 1
    for _ in range(draw(st.integers(min_turns, max_turns))):
        for k, turn in enumerate(draw(tool_loops(max_rounds=2, first_id=first_id))):
            first_id += len(calls_of(turn))
            events.append({"input": draw(_questions) if k == 0 else None, "blocks": turn["blocks"],
                           "tool_results": results_for(turn, [draw(texts) for _ in calls_of(turn)]),
                           "timestamp": stamp})
    return events


def calls_of(turn: dict) -> list[dict]:
    return [b for b in turn["blocks"] if b["type"] == "tool_call"]


def results_for(turn: dict, contents: list[str]) -> list[dict]:
    return [{"tool_call_id": c["id"], "name": c["name"], "content": text} for c, text in zip(calls_of(turn), contents)]


def _content(block: dict) -> dict | None:
    kind = block["type"]
    if kind == "text":
        return {"text": block["text"]} if block["text"].strip() else None
    if kind == "reasoning":
        return {"reasoningContent": {"reasoningText": {"text": block["text"], "signature": block["signature"]}}} \
            if block["signature"] else None
    if kind == "redacted_reasoning":
        return {"reasoningContent": {"redactedContent": block["data"]}}
    return {"toolUse": {"toolUseId": block["id"], "name": block["name"],
                        "input": json.loads(block["arguments"]) if block["arguments"] else {}}}


def assistant_message(turn: dict) -> dict:
    """The assistant message a correct serializer writes: one content block per block that carries something."""
    return {"role": "assistant", "content": [c for c in map(_content, turn["blocks"]) if c is not None]}


def result_block(result: dict) -> dict:
    """The ``toolResult`` a correct serializer writes: AWS requires only the id and the content (status is optional)."""
    content = [{"text": result["content"]}] if result["content"] else []
    return {"toolResult": {"toolUseId": result["tool_call_id"], "content": content}}


def status_as_required(block: object) -> object:
    """``block`` with a ``status`` of ``success`` left out: it says what an absent status says (AWS: optional)."""
    result = block.get("toolResult") if isinstance(block, dict) else None
    if not isinstance(result, dict) or result.get("status") != "success":
        return block
    return {**block, "toolResult": {k: v for k, v in result.items() if k != "status"}}


def wire_history(events: list[dict]) -> list[dict]:
    """Persisted rounds as the messages a correct renderer writes: results first in the user message after a round."""
    messages: list[dict] = []
    pending: list[dict] = []
    for event in events:
        if event.get("input"):
            pending.append({"text": event["input"]})
        if pending:
            messages.append({"role": "user", "content": pending})
        messages.append(assistant_message(event))
        pending = [result_block(r) for r in event["tool_results"]]
    if pending:
        messages.append({"role": "user", "content": pending})
    return messages


def is_question(message: object) -> bool:
    return isinstance(message, dict) and message.get("role") == "user" and any(
        isinstance(b, dict) and "text" in b for b in message.get("content") or ())


def _placeholder(block: object) -> bool:
    return isinstance(block, dict) and list(block) == ["text"] and isinstance(block["text"], str) \
        and bool(block["text"].strip())


def placeholders_dropped(content: list, blocks: list[dict]) -> list:
    """``content`` (an assistant message written from ``blocks``) without the placeholder text of a blank block.

    Bedrock refuses a blank text block, so a serializer leaves a blank block
    out or stands a text Bedrock takes (LangChain's ``"."``) in its place:
    either way nothing the model said is lost. Only a non-blank text block at
    a blank block's place (and not the block written next) counts as its
    placeholder; every other block stays, to be compared.
    """
    expected = [_content(b) for b in blocks]
    out, at = [], 0
    for k, block in enumerate(blocks):
        if expected[k] is not None:
            out += content[at:at + 1]
            at += 1
            continue
        following = next((e for e in expected[k + 1:] if e is not None), None)
        if block["type"] == "text" and at < len(content) and _placeholder(content[at]) and content[at] != following:
            at += 1
    return out + content[at:]


def placeholder_dropped(block: object, sent: str) -> object:
    """A ``toolResult`` ``block`` written for a result of content ``sent``, read as written without a placeholder.

    A blank result (Bedrock refuses blank text) may go back with a non-blank
    placeholder text instead, as a blank block of a model turn may.
    """
    result = block.get("toolResult") if isinstance(block, dict) else None
    if sent.strip() or not isinstance(result, dict) or not (isinstance(result.get("content"), list)
                                                    and len(result["content"]) == 1
                                                    and _placeholder(result["content"][0])):
        return block
    return {**block, "toolResult": {**result, "content": [{"text": sent}] if sent else []}}


# --- how the tool-round contract reads a Converse request (harness.testing.formats, the row's tool_rounds) ---------

def model_messages(messages: list) -> list[tuple[int, dict]]:
    """The assistant messages of a history, with their places."""
    return [(n, m) for n, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"]


def message_changes(message: dict, turn: dict) -> dict[str, str]:
    """How an assistant message sent back differs from the round it answers: its content blocks, exactly."""
    got, want = content_of(message), assistant_message(turn)["content"]
    return {} if got == want else {"content": f"{clip_json(got, 1200)}, but should be {clip_json(want, 1200)} "
                                              "(the blocks as received)"}


def answer_faults(messages: list, turns: list[dict], outputs: list[list[set[str]]]) -> list[str]:
    """What is wrong with the results: each round answered alone, in the user message right after it, one
    ``toolResult`` per call in call order naming its ``toolUseId``, holding one of ``outputs[k][j]`` (the texts call
    ``j`` of round ``k`` may carry), and nothing else."""
    wrong = []
    for k, ((n, _), turn) in enumerate(zip(model_messages(messages), turns)):
        calls = calls_of(turn)
        if not calls:
            continue
        after = messages[n + 1] if n + 1 < len(messages) else {}
        blocks = content_of(after) if isinstance(after, dict) and after.get("role") == "user" else []
        results = [b.get("toolResult") for b in blocks]
        ids = [r.get("toolUseId") if isinstance(r, dict) else r for r in results]
        if ids != [c["id"] for c in calls]:
            wrong.append(f"round {k + 1}: the user message after it holds {shown(blocks)}; expected one toolResult "
                         f"per call in order {[c['id'] for c in calls]} and nothing else")
            continue
        for j, result in enumerate(results):
            said = {b.get("text") for b in result.get("content") or () if isinstance(b, dict)} or {""}
            if not said & outputs[k][j]:
                wrong.append(f"round {k + 1}, call {j}: toolResult content {shown(result.get('content'))} should "
                             f"hold one of {shown(sorted(outputs[k][j]))}")
    return wrong


def questions(messages: list) -> list:
    """The texts the user messages of a history say, in order."""
    return [b.get("text") for m in messages if isinstance(m, dict) and m.get("role") == "user"
            for b in content_of(m) if "text" in b]
