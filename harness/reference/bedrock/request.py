"""The body to send: thinking through ``additionalModelRequestFields``, and ``toolConfig`` wherever tool blocks are.

Converse has no thinking field of its own: Bedrock's Claude models take
Anthropic's ``{"thinking": {"type": "enabled", "budget_tokens": N}}`` inside
``additionalModelRequestFields`` (at the top level Bedrock refuses it as an
unknown field), with ``inferenceConfig.maxTokens`` above the budget.
"off" sends no thinking and leaves the final assistant message without its
reasoning. A body whose messages hold ``toolUse`` or ``toolResult`` blocks
without a ``toolConfig`` is refused ("toolConfig field must be defined when
using toolUse and toolResult content blocks"): the tools the history names
are declared then, each with an open object schema.
"""

from __future__ import annotations

import copy

# The thinking budget per effort level, in tokens (Anthropic's minimum is 1024).
BUDGETS = {"low": 1024, "medium": 4096, "high": 16000, "max": 32000}


def transform_request(body: dict, options: dict) -> dict:
    sent = copy.deepcopy(body)
    _declare_used_tools(sent)
    effort = options.get("effort")
    if effort is None:
        return sent
    extra = sent.get("additionalModelRequestFields") or {}
    if effort == "off":
        extra.pop("thinking", None)
        if extra:
            sent["additionalModelRequestFields"] = extra
        else:
            sent.pop("additionalModelRequestFields", None)
        _strip_final_reasoning(sent.get("messages") or [])
        return sent
    if effort not in BUDGETS:
        raise ValueError(f"effort {effort!r}: expected one of off, {', '.join(BUDGETS)}")
    budget = BUDGETS[effort]
    sent["additionalModelRequestFields"] = {**extra, "thinking": {"type": "enabled", "budget_tokens": budget}}
    config = sent.setdefault("inferenceConfig", {})
    if (config.get("maxTokens") or 0) <= budget:
        config["maxTokens"] = budget * 2
    return sent


def _tool_names(messages: list) -> list[str]:
    names: list[str] = []
    for message in messages:
        for block in message.get("content") or () if isinstance(message, dict) else ():
            if isinstance(block, dict) and isinstance(block.get("toolUse"), dict):
                names.append(block["toolUse"].get("name") or "")
            elif isinstance(block, dict) and "toolResult" in block:
                names.append("")
    return names


def _declare_used_tools(sent: dict) -> None:
    names = _tool_names(sent.get("messages") or [])
    if not names or sent.get("toolConfig"):
        return
    declared = [name for name in dict.fromkeys(names) if name] or ["tool"]
    sent["toolConfig"] = {"tools": [{"toolSpec": {"name": name, "description": name,
                                                  "inputSchema": {"json": {"type": "object"}}}}
                                    for name in declared]}


def _strip_final_reasoning(messages: list) -> None:
    assistants = [m for m in messages if isinstance(m, dict) and m.get("role") == "assistant"]
    if assistants and isinstance(assistants[-1].get("content"), list):
        assistants[-1]["content"] = [b for b in assistants[-1]["content"]
                                     if not (isinstance(b, dict) and "reasoningContent" in b)]
