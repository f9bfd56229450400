"""Scripted Anthropic Messages rounds from the incidents, played on the loopback provider's ``/v1/messages`` route.

As for chat (:mod:`harness.loopback.scenarios`) the round answering a request
is read from the request itself: the turn is the number of user messages that
carry a prompt (a user message holding only ``tool_result`` blocks continues
the turn), the round the number of assistant messages since the last one. Each
round is a neutral turn (:mod:`harness.adapter`) written by the one Messages
writer (:mod:`harness.wire.anthropic_events`); every thinking block carries a
signature of its own, so a client that drops, reorders or edits one is told
apart from one that sends it back unchanged.
"""

from __future__ import annotations

import base64
import hashlib
import json

from harness.loopback.round_script import BLANK_TEXTS
from harness.loopback.round_types import Round, RoundScenario
from harness.loopback.schema_args import arguments_for
from harness.wire.anthropic_events import Plan, turn_body

# Block kinds a round is written from: thinking (signed), redacted thinking, text, a tool call, a zero-argument call.
KINDS = ("thinking", "redacted", "text", "call", "call0", *BLANK_TEXTS)
ERROR_AT = 4  # the event an error round's overloaded_error replaces: after message_start and its first block


def _is_prompt(message: dict) -> bool:
    content = message.get("content")
    if message.get("role") != "user":
        return False
    if not isinstance(content, list):
        return True
    return any(not (isinstance(b, dict) and b.get("type") == "tool_result") for b in content)


def position(messages: list[dict], prompts: tuple[str, ...] = ()) -> tuple[int, int]:
    """(turn, round) of a Messages request: prompts before it, assistant messages since the last prompt.

    With ``prompts`` (the probe's, in order) the turn is the one whose prompt
    the last prompt message holds, so an agent that dropped a failed turn
    from its history is still placed right.
    """
    at = [i for i, m in enumerate(messages) if _is_prompt(m)]
    start = at[-1] if at else 0
    turn = max(len(at) - 1, 0)
    if at:
        text = json.dumps(messages[start].get("content"), ensure_ascii=False)
        turn = next((t for t, p in enumerate(prompts) if p and p in text), turn)
    return turn, sum(1 for m in messages[start:] if m.get("role") == "assistant")


def declared_tools(body: dict) -> dict[str, dict]:
    """name -> input_schema of every client tool the request declares."""
    return {t["name"]: t.get("input_schema") or {"type": "object"} for t in body.get("tools") or ()
            if isinstance(t, dict) and isinstance(t.get("name"), str)}


def _opaque(seed: str) -> str:
    """A signature-like value: base64 of a digest, as Anthropic's are (its exact bytes are what matters)."""
    return base64.b64encode(hashlib.sha256(seed.encode()).digest() * 3).decode()


def turn_for(scenario: RoundScenario, body: dict, allowed: frozenset[str] | None = None,
             prompts: tuple[str, ...] = ()) -> tuple[dict, bool]:
    """The neutral turn answering ``body`` under ``scenario``, and whether the round fails with an error event."""
    messages = [m for m in body.get("messages") or () if isinstance(m, dict)]
    turn, round_ = position(messages, prompts)
    step = scenario.round(turn, round_)
    tools = {n: s for n, s in declared_tools(body).items() if allowed is None or n in allowed}
    names = sorted(tools)
    # A zero-argument call goes to a tool that needs no argument, when the agent has one.
    bare = [n for n in names if not (tools[n].get("required") or tools[n].get("properties"))] or names
    seed = f"{scenario.name}/{turn}/{round_}"
    blocks, calls = [], 0
    for k, kind in enumerate(step.kinds):
        if kind == "thinking":
            blocks.append({"type": "reasoning", "text": f"Runde {round_ + 1}, Zug {turn + 1}: erst nachsehen — "
                           f"dann antworten ({k}).", "signature": _opaque(f"{seed}/{k}")})
        elif kind == "redacted":
            blocks.append({"type": "redacted_reasoning", "data": "EmwK" + _opaque(f"{seed}/redacted/{k}")})
        elif kind in BLANK_TEXTS:
            blocks.append({"type": "text", "text": BLANK_TEXTS[kind]})
        elif kind == "text":
            blocks.append({"type": "text", "text": f"Ich sehe nach (round {round_ + 1})." if "call" in step.kinds
                           or "call0" in step.kinds else f"Done: Zürich 18 °C, 東京 21 °C (turn {turn + 1})."})
        elif names:
            pool = bare if kind == "call0" else names
            name = pool[calls % len(pool)]
            arguments = "" if kind == "call0" else arguments_for(tools[name], turn * 100 + round_ * 20 + calls)
            blocks.append({"type": "tool_call", "id": f"toolu_01{hashlib.sha256(f'{seed}/{k}'.encode()).hexdigest()[:20]}",
                           "name": name, "arguments": arguments})
            calls += 1
    if not any(b["type"] == "text" for b in blocks) and not calls:
        blocks.append({"type": "text", "text": "I have no tool I may use for that, so here is my answer."})
    usage = {"input_tokens": 20 + 10 * len(messages), "output_tokens": 12}
    return {"blocks": blocks, "stop_reason": "tool_use" if calls else "end_turn", "usage": usage}, step.error


def body_for(turn: dict, error: bool) -> bytes:
    """The SSE body streaming ``turn``, cut by an overloaded_error event when the round fails."""
    return turn_body(turn, Plan(error=ERROR_AT) if error else Plan())


_THINK_CALL = Round(("thinking", "call"))
SCENARIOS: dict[str, RoundScenario] = {s.name: s for s in (
    RoundScenario("interleaved-thinking", "thinking, text and a tool call interleaved over three rounds, each "
                     "round's thinking signed; a second turn", "wire",
                     ((_THINK_CALL, Round(("thinking", "text", "call", "thinking", "call")), Round(("thinking", "text"))),
                      (_THINK_CALL, Round(("text",)))), "anthropic-replay-regrouped"),
    RoundScenario("redacted-thinking", "a redacted_thinking block before the signed thinking of a tool round",
                     "wire", ((Round(("redacted", "thinking", "call")), Round(("text",))),), "anthropic-opaque-lost"),
    RoundScenario("zero-argument-tool", "a tool_use whose input streams only as an empty partial_json", "wire",
                     ((Round(("thinking", "call0")), Round(("text",))),)),
    RoundScenario("parallel-12", "12 parallel tool_use blocks after one signed thinking block", "wire",
                     ((Round(("thinking",) + ("call",) * 12), Round(("text",))),)),
    RoundScenario("stream-error", "an overloaded_error event after the first block; then a normal turn", "wire",
                     ((Round(("text",), error=True),), (_THINK_CALL, Round(("text",))))),
    RoundScenario("blank-text", "a whitespace-only text block between signed thinking and a call, an empty one "
                     "before the answer (Anthropic refuses both sent back)", "wire",
                     ((Round(("thinking", "blank", "call")), Round(("empty", "text"))),), "anthropic-empty-text"),
)}
