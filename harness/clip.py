"""Values cut to a readable size for messages and reports, with the full length stated."""

from __future__ import annotations

LIMIT = 300  # characters of one value shown in a message


def clip(text: str, limit: int = LIMIT) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def clip_repr(value: object, limit: int = LIMIT) -> str:
    """``repr(value)`` cut to ``limit``; a huge str or bytes is cut before repr, so memory stays bounded."""
    if isinstance(value, (str, bytes)) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value)} {'characters' if isinstance(value, str) else 'bytes'})"
    return clip(repr(value), limit)


def shown(value: object, limit: int = 1500) -> str:
    """``value`` for an assertion message: bytes decoded, anything else as its repr, cut to ``limit``."""
    if isinstance(value, bytes):
        return clip(value.decode("utf-8", "replace"), limit)
    return clip_repr(value, limit)


def shown_call(args: tuple, kwargs: dict, limit: int = LIMIT) -> str:
    """A call's arguments as ``a, b, k=v``, each value cut to ``limit``."""
    return ", ".join([*(clip_repr(a, limit) for a in args), *(f"{k}={clip_repr(v, limit)}" for k, v in kwargs.items())])
