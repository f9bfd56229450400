"""The toy format's history: a user question, the model's blocks as sent, the tool results of a round in call order.

``{"role": "user", "text": q}``, ``{"role": "model", "blocks": [...]}`` (the
neutral blocks as received) and ``{"role": "tool", "results": [{"call": id,
"output": text}, ...]}`` right after the model message whose calls it answers.
The toy provider refuses a history whose tool message does not answer the calls
before it, in order, or whose calls go unanswered before the next message.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refusal:
    rule: str
    path: str
    message: str


def question(text: str) -> dict:
    return {"role": "user", "text": text}


def model_message(blocks: list[dict]) -> dict:
    return {"role": "model", "blocks": blocks}


def tool_message(results: list[dict]) -> dict:
    return {"role": "tool", "results": [{"call": r["tool_call_id"], "output": r["content"]} for r in results]}


def calls_of(blocks: list) -> list[dict]:
    return [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_call"]


def _role(message: object) -> object:
    return message.get("role") if isinstance(message, dict) else None


def model_turns(messages: list) -> list[dict]:
    return [m for m in messages if _role(m) == "model"]


def changes(message: dict, turn: dict) -> dict[str, str]:
    """How a model message sent back differs from its round: its blocks, exactly."""
    got = message.get("blocks")
    return {} if got == turn["blocks"] else {"blocks": f"{got!r}, but should be {turn['blocks']!r}"}


def unanswered(messages: list, turns: list[dict], outputs: list[list[set[str]]]) -> list[str]:
    """Each round's calls answered by the tool message right after it, in call order, with one of ``outputs[k][j]``."""
    wrong = []
    places = [n for n, m in enumerate(messages) if _role(m) == "model"]
    for k, (n, turn) in enumerate(zip(places, turns)):
        calls = calls_of(turn["blocks"])
        if not calls:
            continue
        after = messages[n + 1] if n + 1 < len(messages) else None
        results = [r for r in after.get("results") or () if isinstance(r, dict)] if _role(after) == "tool" else []
        if [r.get("call") for r in results] != [c["id"] for c in calls]:
            wrong.append(f"round {k + 1}: the message after it answers {[r.get('call') for r in results]}, expected a "
                         f"tool message answering {[c['id'] for c in calls]} in call order")
            continue
        wrong += [f"round {k + 1}, {c['id']}: output {r.get('output')!r}, expected one of {sorted(outputs[k][j])}"
                  for j, (c, r) in enumerate(zip(calls, results)) if r.get("output") not in outputs[k][j]]
    return wrong


def questions(messages: list) -> list:
    return [m.get("text") for m in messages if _role(m) == "user"]


def refusals(body: object, sent: list[dict] | None = None) -> list[Refusal]:
    """What the toy provider refuses in a request's history (``sent``: the turns it sent; the toy ignores them)."""
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list):
        return []
    found = []
    for n, message in enumerate(messages):
        before = messages[n - 1] if n else None
        calls = [c["id"] for c in calls_of(before.get("blocks") or [])] if _role(before) == "model" else []
        if _role(message) == "tool" and [r.get("call") for r in message.get("results") or ()] != calls:
            found.append(Refusal("toy-results-paired", f"messages[{n}]",
                                 f"the tool message does not answer the calls {calls} before it, in order"))
        if calls and _role(message) != "tool":
            found.append(Refusal("toy-calls-answered", f"messages[{n}]", f"the calls {calls} are not answered"))
    return found
