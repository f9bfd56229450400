"""Values cut to a readable size for messages and reports, with the full length stated.

A value is never formatted whole and then cut: an adapter may hand the harness
hundreds of megabytes, and a message that built its full ``repr`` or JSON text
first would cost that much again, several times over once pytest and
Hypothesis copy it. :func:`clip_repr` and :func:`clip_json` stream the text
piece by piece, keep only the part shown and count the rest, so a message
costs its own size whatever the value holds, and states the same full length
a whole ``repr`` would have had.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Iterator

LIMIT = 300  # characters of one value shown in a message
_CHUNK = 65_536  # characters of a long string escaped at a time

_Pieces = Callable[[object], Iterator[str]]  # a value's text, piece by piece


def clip(text: str, limit: int = LIMIT) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def _cut(pieces: Iterator[str], limit: int) -> str:
    """The first ``limit`` characters of the pieces' text, with the whole text's length when it is longer."""
    kept: list[str] = []
    size = 0
    for piece in pieces:
        if size <= limit:
            kept.append(piece[: limit + 1 - size])
        size += len(piece)
    text = "".join(kept)
    return text if size <= limit else f"{text[:limit]}... ({size} characters)"


def _string_repr(value: str | bytes) -> Iterator[str]:
    """``repr(value)`` of a str or bytes, a chunk at a time."""
    prefix = "b" if isinstance(value, bytes) else ""
    single, double = ("'", '"') if isinstance(value, str) else (b"'", b'"')
    # repr quotes with ' unless the value holds ' and no ": then with ", and escapes neither.
    quote = '"' if single in value and double not in value else "'"
    yield f"{prefix}{quote}"
    for start in range(0, len(value), _CHUNK):
        chunk = value[start:start + _CHUNK]
        # A chunk's own repr may pick other quotes than the whole value's; appending both quote characters
        # makes it pick ' and escape it as the whole value's does.
        yield repr(chunk)[len(prefix) + 1:-1] if quote == '"' else repr(chunk + single + double)[len(prefix) + 1:-4]
    yield quote


def _generated_repr(value: object) -> bool:
    """Whether ``value`` is a dataclass instance whose ``repr`` is the one :mod:`dataclasses` wrote."""
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return False
    # The dataclass-written __repr__ is wrapped against recursion; a hand-written one is a plain function.
    return hasattr(type(value).__repr__, "__wrapped__") and type(value).__dataclass_params__.repr


def _flat(value: object) -> bool:
    """A value whose text is short: many of them are formatted in one go, not piece by piece."""
    if type(value) is int:
        return value.bit_length() <= _FLAT_INT_BITS
    return type(value) in _SCALARS or (type(value) in (str, bytes) and len(value) <= _FLAT_TEXT)


def _int_text(value: int) -> str:
    """An int's digits; one past the digits Python converts (4,300 by default) by its size instead."""
    try:
        return repr(value)
    except ValueError:
        return f"<an integer of about {int(value.bit_length() * math.log10(2)) + 1:,} digits>"


_SCALARS = (int, float, bool, type(None))
_FLAT_INT_BITS = 1024  # an int up to ~300 digits is formatted with its neighbours
_FLAT_TEXT = 256  # characters of a string formatted with its neighbours
_BLOCK = 1024  # items of a list or dict formatted in one go when all are flat


def _flat_pair(item: tuple) -> bool:
    return _flat(item[0]) and _flat(item[1])


def _items(items: list, flat: Callable[[object], bool], whole: Callable[[list], str], each: _Pieces) -> Iterator[str]:
    """``items`` separated by ``", "``: a block of flat ones as ``whole(block)`` (its brackets cut off)."""
    for start in range(0, len(items), _BLOCK):
        block = items[start:start + _BLOCK]
        if start:
            yield ", "
        if all(flat(item) for item in block):
            yield whole(block)[1:-1]
            continue
        for n, item in enumerate(block):
            if n:
                yield ", "
            yield from each(item)


def _repr_pieces(value: object) -> Iterator[str]:
    """``repr(value)`` in pieces, for the plain values adapters exchange and the harness's own dataclasses."""
    kind = type(value)
    if kind in (str, bytes) and len(value) > _CHUNK:
        yield from _string_repr(value)
    elif kind is dict and value:
        yield "{"
        yield from _items(list(value.items()), _flat_pair, lambda block: repr(dict(block)), _repr_pair)
        yield "}"
    elif kind in _BRACKETS and value:
        open_, close = _BRACKETS[kind]
        yield open_
        yield from _items(list(value), _flat, repr, _repr_pieces)
        yield ",)" if kind is tuple and len(value) == 1 else close
    elif _generated_repr(value):
        fields = [f for f in dataclasses.fields(value) if f.repr]
        yield f"{kind.__qualname__}("
        for n, field in enumerate(fields):
            yield f"{', ' if n else ''}{field.name}="
            yield from _repr_pieces(getattr(value, field.name))
        yield ")"
    elif kind is int:
        yield _int_text(value)
    else:
        yield repr(value)


_BRACKETS = {list: ("[", "]"), tuple: ("(", ")"), set: ("{", "}"), frozenset: ("frozenset({", "})")}


def _repr_pair(item: tuple) -> Iterator[str]:
    yield from _repr_pieces(item[0])
    yield ": "
    yield from _repr_pieces(item[1])


def _json_pair(item: tuple) -> Iterator[str]:
    yield _json(item[0])
    yield ": "
    yield from _json_pieces(item[1])


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, default=repr)


def _json_pieces(value: object) -> Iterator[str]:
    """``json.dumps(value, ensure_ascii=False, default=repr)`` in pieces."""
    kind = type(value)
    if kind is str and len(value) > _CHUNK:
        # JSON escapes each character on its own, so chunks escape as the whole string does.
        yield '"'
        for start in range(0, len(value), _CHUNK):
            yield _json(value[start:start + _CHUNK])[1:-1]
        yield '"'
    elif kind in (list, tuple) and value:
        yield "["
        yield from _items(list(value), _flat, _json, _json_pieces)
        yield "]"
    elif kind is dict and value and all(type(key) is str for key in value):
        yield "{"
        yield from _items(list(value.items()), _flat_pair, lambda block: _json(dict(block)), _json_pair)
        yield "}"
    elif kind is int:
        yield _int_text(value)
    else:
        yield _json(value)


def clip_repr(value: object, limit: int = LIMIT) -> str:
    """``repr(value)`` cut to ``limit``, never built whole; a huge str or bytes states its own length."""
    if isinstance(value, (str, bytes)) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value)} {'characters' if isinstance(value, str) else 'bytes'})"
    return _cut(_repr_pieces(value), limit)


def clip_json(value: object, limit: int = LIMIT) -> str:
    """``value`` as JSON text (anything else as its repr) cut to ``limit``, never built whole."""
    return _cut(_json_pieces(value), limit)


def shown(value: object, limit: int = 1500) -> str:
    """``value`` for an assertion message: bytes decoded, anything else as its repr, cut to ``limit``."""
    if isinstance(value, bytes):
        if len(value) > 4 * limit:  # decoding it all would cost its size again; 4 bytes at most per character
            return f"{value[: 4 * limit].decode('utf-8', 'replace')[:limit]}... ({len(value)} bytes)"
        return clip(value.decode("utf-8", "replace"), limit)
    return clip_repr(value, limit)


def shown_call(args: tuple, kwargs: dict, limit: int = LIMIT) -> str:
    """A call's arguments as ``a, b, k=v``, each value cut to ``limit``."""
    return ", ".join([*(clip_repr(a, limit) for a in args), *(f"{k}={clip_repr(v, limit)}" for k, v in kwargs.items())])
