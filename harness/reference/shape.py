"""The shape a decoded JSON value must have, checked by hand, and the first place it differs.

A :class:`Shape` names the JSON types a value may have (by their JSON Schema
names), the shapes of the fields read from it when it is an object and the
shape of its items when it is an array; fields not named are free.
:func:`problem` walks a value the way a JSON Schema validator walks ``type``,
``properties`` and ``items`` (a value's own type first, then its fields in the
order given, then its items in order) and names the first difference in the
same words (``$.choices[0].delta.content: 5 is not of type 'string', 'null'``).

It is a few exact type tests and dictionary look-ups per value, cheap enough
for every chunk of every stream, which a general schema validator is not.
:func:`checker` makes it cheaper still for the one shape a parser checks on
every chunk: a yes/no walk prepared once from the table (no paths built, no
names looked up), with :func:`problem` asked for the wording only when a value
fails it.
``json.loads`` makes exactly ``dict``, ``list``, ``str``, ``int``, ``float``,
``bool`` and ``None``, so an exact type test never takes ``true`` or ``1.0``
for an integer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# The JSON Schema name of each type json.loads makes that a shape may allow (never float or bool).
_JSON_TYPES = {dict: "object", list: "array", str: "string", int: "integer", type(None): "null"}


@dataclass(frozen=True)
class Shape:
    """JSON types a value may have; the shapes of its fields if an object, of its items if an array.

    Types are JSON Schema's names (``"object"``, ``"array"``, ``"string"``,
    ``"integer"``, ``"null"``). Fields the shape does not name are free, and so
    are the items of an array shape without ``items``. (A dataclass, not an
    ``__init__`` of ours: the tables are built at import, where mutmut's
    mutants of a function never run.)
    """

    types: tuple[str, ...]
    fields: dict[str, Shape] = field(default_factory=dict)
    items: Shape | None = None


def problem(value: Any, shape: Shape, path: str = "$") -> str | None:  # pragma: no mutate (out of scope: `"$"` -> *: error wording)
    """Where and why ``value`` does not have ``shape``, as ``path: reason``; None when it has it."""
    kind = type(value)
    if _JSON_TYPES.get(kind) not in shape.types:
        names = ", ".join(repr(name) for name in shape.types)  # pragma: no mutate (out of scope: `", ".join(repr(name) for name in shape.types)` -> `None`, `", "` -> `"XX, XX"`, `name` -> `None`: error wording)
        return f"{path}: {value!r} is not of type {names}"
    if kind is dict:
        for key, inner in shape.fields.items():
            if key in value:
                found = problem(value[key], inner, f"{path}.{key}")  # pragma: no mutate (out of scope: `f"{path}.{key}"` -> *: error wording)
                if found is not None:
                    return found
    elif kind is list and shape.items is not None:
        for i, item in enumerate(value):
            found = problem(item, shape.items, f"{path}[{i}]")  # pragma: no mutate (out of scope: `f"{path}[{i}]"` -> *: error wording)
            if found is not None:
                return found
    return None


def checker(shape: Shape) -> Callable[[Any], str | None]:
    """``problem(value, shape)`` as one prepared function: the same answer, a quick walk when there is none."""
    kinds = _kinds(shape)
    fits = _fitter(shape)

    def check(value: Any) -> str | None:
        if type(value) in kinds and (fits is None or fits(value)):
            return None
        return problem(value, shape)

    return check


class _Absent:
    """The type of a field's absence, which every field shape allows (a field not sent is free)."""


_ABSENT = _Absent()


def _kinds(shape: Shape) -> frozenset[type]:
    return frozenset(kind for kind, name in _JSON_TYPES.items() if name in shape.types)


def _fitter(shape: Shape) -> Callable[[Any], bool] | None:
    """Whether a value whose own type ``shape`` allows has its fields and items right; None when it has none to check."""
    if not shape.fields and shape.items is None:
        return None
    # A yes/no answer does not depend on the order of the tests, so a field with
    # nothing inside to check is one type test, absence included, and only the rest walk further.
    inner_fits = {key: _fitter(inner) for key, inner in shape.fields.items()}
    leaves = tuple((key, _kinds(inner) | {_Absent}) for key, inner in shape.fields.items() if inner_fits[key] is None)
    nested = tuple((key, _kinds(inner), inner_fits[key]) for key, inner in shape.fields.items() if inner_fits[key])
    item_kinds = None if shape.items is None else _kinds(shape.items)
    item_fits = None if shape.items is None else _fitter(shape.items)

    def fits(value: Any) -> bool:
        kind = type(value)
        if kind is dict:
            get = value.get
            for key, kinds in leaves:
                if type(get(key, _ABSENT)) not in kinds:
                    return False
            for key, kinds, deeper in nested:
                inner = get(key, _ABSENT)
                if inner is not _ABSENT and (type(inner) not in kinds or not deeper(inner)):
                    return False
        elif kind is list and item_kinds is not None:
            for item in value:
                if type(item) not in item_kinds or (item_fits is not None and not item_fits(item)):
                    return False
        return True

    return fits
