"""Tool call ids on chat completions, judged per model row: Mistral's models take one shape only.

Every id of a request (an assistant message's ``tool_calls[].id`` and a tool
message's ``tool_call_id``) must match the row's ``call_ids`` pattern
(:mod:`harness.rules.models`); rows without one take any id.
"""

from __future__ import annotations

import re

from harness.rules.models import MISTRAL_CALL_ID, ModelRow


def call_ids(messages: list) -> list[object]:
    """Every tool call id ``messages`` carry, calls' and results', in order."""
    found: list[object] = []
    for message in messages if isinstance(messages, list) else ():
        if not isinstance(message, dict):
            continue
        for call in message.get("tool_calls") or () if message.get("role") == "assistant" else ():
            found.append(call.get("id") if isinstance(call, dict) else call)
        if message.get("role") == "tool":
            found.append(message.get("tool_call_id"))
    return found


def refusals(body: dict, row: ModelRow) -> list[str]:
    """The provider's refusal of each id ``body`` carries that ``row``'s models do not take, in its words."""
    if row.call_ids is None:
        return []
    pattern = re.compile(row.call_ids)
    return [MISTRAL_CALL_ID.format(id=cid) for cid in dict.fromkeys(map(str, call_ids(body.get("messages"))))
            if not pattern.fullmatch(cid)]
