"""The body to send: extended thinking switched on or off by the asked effort, in the form the model takes.

Claude models take thinking in one of two forms, by family: the budget form
(``{"type": "enabled", "budget_tokens": N}``, at least 1024 tokens and below
``max_tokens``) up to the 4.5 models, the adaptive form (``{"type":
"adaptive"}`` with the depth in ``output_config.effort``) from 4.6 on, where
Opus 4.7 and later take nothing else. Some models always think: they refuse
``disabled``, so "off" sends no ``thinking`` and leaves the history as it is
(thinking stays on). With thinking off the final assistant message may hold
no thinking (earlier ones Anthropic ignores, so they stay as they were).
A model this table does not name gets the budget form, the one every model
before the adaptive families takes.
"""

from __future__ import annotations

import copy
import re

# The thinking budget per effort level, in tokens (Anthropic's minimum is 1024).
BUDGETS = {"low": 1024, "medium": 4096, "high": 16000, "max": 32000}
_REASONING_TYPES = ("thinking", "redacted_thinking")
# Model families by what they take (ids as Anthropic names them; a gateway's vendor/ prefix, Bedrock's anthropic.).
_ADAPTIVE = ("claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-7", "claude-opus-4-8", "claude-opus-5",
             "claude-sonnet-5", "claude-fable-5", "claude-mythos-")
_ALWAYS_THINKS = ("claude-fable-5", "claude-mythos-")
# The effort words each adaptive family takes beyond low, medium and high.
_MAX_EFFORT = {"claude-opus-4-6": "max", "claude-opus-4-7": "max", "claude-opus-4-8": "max", "claude-opus-5": "max"}


def transform_request(body: dict, options: dict) -> dict:
    sent = copy.deepcopy(body)
    effort = options.get("effort")
    if effort is None:
        return sent
    model = _family(sent.get("model"))
    if effort == "off":
        sent.pop("thinking", None)
        if not model.startswith(_ALWAYS_THINKS):  # those think without the key: their history stays whole
            _strip_final_thinking(sent.get("messages") or [])
        return sent
    if effort not in BUDGETS:
        raise ValueError(f"effort {effort!r}: expected one of off, {', '.join(BUDGETS)}")
    if model.startswith(_ADAPTIVE):
        sent["thinking"] = {"type": "adaptive"}
        top = next((word for prefix, word in _MAX_EFFORT.items() if model.startswith(prefix)), "high")
        sent["output_config"] = {**(sent.get("output_config") or {}), "effort": top if effort == "max" else effort}
        return sent
    budget = BUDGETS[effort]
    sent["thinking"] = {"type": "enabled", "budget_tokens": budget}
    if (sent.get("max_tokens") or 0) <= budget:  # pragma: no mutate (equivalent: `0` -> `1`: every budget is at least 1024, so no max_tokens and 0 or 1 all fall below it)
        sent["max_tokens"] = budget * 2  # pragma: no mutate (out of scope: `2` -> `3`: how far above the budget max_tokens is raised; the rule is only above it)
    return sent


def _family(model: object) -> str:
    """``anthropic/claude-opus-4.7`` -> ``claude-opus-4-7``."""
    name = model.lower().rpartition("/")[2].removeprefix("anthropic.") if isinstance(model, str) else ""  # pragma: no mutate (out of scope: `isinstance(model, str)` -> `(isinstance(model, str)) or True`, `""` -> `"XXXX"`: a body naming no model, which Anthropic refuses whatever its thinking)
    return re.sub(r"(?<=\d)\.(?=\d)", "-", name)


def _strip_final_thinking(messages: list[dict]) -> None:
    assistants = [m for m in messages if m.get("role") == "assistant"]
    if not assistants or not isinstance(assistants[-1].get("content"), list):
        return
    final = assistants[-1]
    final["content"] = [block for block in final["content"] if block.get("type") not in _REASONING_TYPES]
