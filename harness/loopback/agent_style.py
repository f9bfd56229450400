"""How an agent keeps its conversation, read from its requests: the habits the probe must not judge as wire rules.

Agents differ in ways no provider refuses: some replay a tool round as
structured ``tool_calls`` and ``tool`` messages, others as text ("Calling
tools: ..." then "Observation: ..."); some end a turn on the model's plain
text, others only through a final-answer tool of their own; many wrap the
user's prompt in a template. The wire checks hold an agent to what it sends
in its own style; these helpers tell which style a request shows.

Structure is judged first: a request that carries any call as structure (an
assistant's ``tool_calls``, well formed or not, or a ``tool`` message) is in
the structured style, so a garbled call (an empty id and name, several calls
merged into one) is the wire checks' to report, never a style.
"""

from __future__ import annotations

from harness.rules.text import content_text


def carries_calls(messages: list[dict]) -> bool:
    """Whether any message carries calls as structure: an assistant's ``tool_calls`` or a ``tool`` message."""
    return any(m.get("role") == "tool" or (m.get("role") == "assistant" and m.get("tool_calls")) for m in messages)


def replayed_as_text(messages: list[dict], calls: list[dict]) -> bool:
    """Whether ``messages`` replay the streamed ``calls`` as text: no call as structure, every name in the
    assistant's words (a name in the system prompt or the user's question is no replay)."""
    if not calls or carries_calls(messages):
        return False
    said = "\n".join(content_text(m.get("content")) or "" for m in messages if m.get("role") == "assistant")
    return all(c["name"] in said for c in calls)
