"""Anthropic adapters whose histories differ from the reference only in shapes Anthropic accepts.

``split_question``: the reference, but each round's results and the next
question go in two user messages, and an empty tool result is written as
``content: []``. No document or 400 asks for one message or for ``""``.
"""

from __future__ import annotations

from harness.reference import AnthropicReferenceAdapter


def _split(message: dict) -> list[dict]:
    content = message.get("content")
    if message.get("role") != "user" or not isinstance(content, list):
        return [message]
    results = [{**b, "content": b["content"] or []} if b.get("type") == "tool_result" else b for b in content
               if b.get("type") == "tool_result"]
    rest = [b for b in content if b.get("type") != "tool_result"]
    if not results or not rest:
        return [{**message, "content": results or rest}]
    return [{"role": "user", "content": results}, {"role": "user", "content": rest}]


class SplitQuestion(AnthropicReferenceAdapter):
    name = "split-question"

    def render_history(self, events: list[dict], base_url: str | None = None) -> list:
        return [part for message in super().render_history(events, base_url) for part in _split(message)]


split_question = SplitQuestion()
