"""Cold storage of persisted rounds, and the texts memory derives from them.

Rounds are the neutral ones of Anthropic Messages, OpenAI Responses and
Gemini alike (:mod:`harness.reference.round_history`), so one store serves
the three. The record of a round is the round itself, so loading gives back every block
byte for byte, in order, opaque values and empty texts included; the text
blocks beside it (one per non-empty text, by role, in the order things
happened) are what search and distillation read.
"""

from __future__ import annotations

import copy
import hashlib

_ROLE_OF = {"reasoning": "reasoning", "text": "response"}
_LABELS = {"input": "Input", "reasoning": "Reasoning", "response": "Response", "tool_output": "Tool output"}
_VECTOR_ROLES = ("input", "reasoning", "response")


def parts(event: dict) -> list[tuple[str, str]]:
    """``(role, text)`` of the round's non-empty texts: its input, its blocks in order, then its tool outputs."""
    found = [("input", event.get("input") or "")]
    found += [(_ROLE_OF[b["type"]], b.get("text") or "") for b in event.get("blocks") or () if b.get("type") in _ROLE_OF]
    found += [("tool_output", r.get("content") or "") for r in event.get("tool_results") or ()]
    return [(role, text) for role, text in found if text]


def store(events: list[dict]) -> dict:
    blocks = [{"id": hashlib.sha256(f"{n}|{k}|{role}".encode()).hexdigest()[:24], "role": role, "content": text}
              for n, event in enumerate(events) for k, (role, text) in enumerate(parts(event))]
    return {"events": copy.deepcopy(events), "blocks": blocks}


def load(cold: dict) -> list[dict]:
    return copy.deepcopy(list(cold.get("events") or ()))


def distill(event: dict) -> str:
    return "\n\n".join(f"{_LABELS[role]}:\n{text}" for role, text in parts(event))


def vector_text(event: dict) -> str:
    return "\n".join(text for role, text in parts(event) if role in _VECTOR_ROLES)
