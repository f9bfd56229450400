"""Shapes of a stream: the same turn written as another event layout its wire allows, one mechanism for every format.

A format's codec writes each turn in its provider's canonical layout: every
identity field present, every value where the provider usually puts it.
Providers, relays and gateways send the same turn in other layouts: an
optional field left out or repeated, a value carried in an opening or closing
event instead of deltas, usage on another chunk, a finish in its own event.
A :class:`Shape` is one such layout, stated as a rewrite of a body's events;
each format declares its shapes as data (``harness.testing.*_shapes``) in its
strategies row (``harness.testing.formats``), and :func:`shaped` applies one
to a body through the format's framing (``harness.wire.framing``).

A shape works on the body's events as values: a JSON event as what it parses
to, any other data (chat's ``[DONE]``) as its text. Events keep their SSE
``event:`` names; an event a shape adds to a named body is named by its
``type``, as the formats that name events name them.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass

from harness.formats import FormatSpec


@dataclass(frozen=True)
class Shape:
    """One layout of a stream: ``vary`` rewrites a body's event values (a fresh copy) into that layout.

    ``sender`` says who sends it. ``relay``: False for a layout inside the
    format (its provider or servers of the format send it), which every client
    must decode; True for one outside it that relays and gateways send, which
    a client may refuse on purpose instead (the ``robust`` level).
    """

    name: str
    sender: str
    vary: Callable[[list], list]
    relay: bool = False

    def __repr__(self) -> str:
        return f"Shape({self.name!r})"


def relay(name: str, sender: str, vary: Callable[[list], list]) -> Shape:
    """A layout outside the format that relays and gateways send (a client may refuse it on purpose)."""
    return Shape(name, sender, vary, relay=True)


def _value(data: str) -> object:
    try:
        return json.loads(data)
    except ValueError:
        return data


def _data(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def shaped(spec: FormatSpec, body: bytes, shape: Shape) -> bytes | None:
    """``body`` (written by ``spec``'s codec) rewritten in ``shape``; None when the shape leaves it as it is."""
    events = spec.framing.read(body)
    named = any(name is not None for name, _ in events)
    values = [_value(data) for _, data in events]
    varied = shape.vary(copy.deepcopy(values))
    if varied == values:
        return None
    return spec.framing.write([(_name(value, named), _data(value)) for value in varied])


def _name(value: object, named: bool) -> str | None:
    return value.get("type") if named and isinstance(value, dict) else None
