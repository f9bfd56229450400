"""The text a wire message's ``content`` carries, in every form the chat-completions format allows.

The format accepts ``content`` as a string or as a non-empty array of content
parts; for the text of an assistant, tool or system message those are text
parts ``{"type": "text", "text": ...}``, and the message's text is theirs
joined in order. ``"Done."`` and ``[{"type": "text", "text": "Do"}, {"type":
"text", "text": "ne."}]`` are the same message, so a wire rule about the text
compares what :func:`content_text` gives, never the form.
"""

from __future__ import annotations


def content_text(content: object) -> str | None:
    """The text ``content`` carries; ``None`` for null and for anything that is not a form of text.

    An empty array is not a form of text: OpenAI refuses it ("expected an array
    with minimum length 1").
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list) and content and all(_is_text_part(part) for part in content):
        return "".join(part["text"] for part in content)
    return None


def _is_text_part(part: object) -> bool:
    return isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)
