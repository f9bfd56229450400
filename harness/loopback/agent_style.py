"""How an agent keeps its conversation, read from its requests: the habits the probe must not judge as wire rules.

Agents differ in ways no provider refuses: some replay a tool round as
structured ``tool_calls`` and ``tool`` messages, others as text ("Calling
tools: ..." then "Observation: ..."); some end a turn on the model's plain
text, others only through a final-answer tool of their own; many wrap the
user's prompt in a template. The wire checks hold an agent to what it sends
in its own style; these helpers tell which style a request shows.
"""

from __future__ import annotations

import json


def content_text(content) -> str:
    """A message's content as text: a string as is, a list of parts as its text parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return "" if content is None else json.dumps(content, ensure_ascii=False)


def structured_ids(messages: list[dict]) -> set:
    """The call ids the messages carry as structure: assistant ``tool_calls`` and ``tool`` messages' answers."""
    ids = {m.get("tool_call_id") for m in messages if m.get("role") == "tool"}
    for message in messages:
        if message.get("role") == "assistant":
            ids |= {c.get("id") for c in message.get("tool_calls") or () if isinstance(c, dict)}
    return ids - {None}


def replayed_as_text(messages: list[dict], calls: list[dict]) -> bool:
    """Whether ``messages`` replay the streamed ``calls`` as text: none of them as structure, every name in words."""
    if not calls or structured_ids(messages) & {c["id"] for c in calls}:
        return False
    text = "\n".join(content_text(m.get("content")) for m in messages)
    return all(c["name"] in text for c in calls)
