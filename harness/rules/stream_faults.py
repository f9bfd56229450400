"""What an emitted stream breaks: one fault per rule a format's stream rules find, at the event it is about.

A format's stream rules (``rules/<format>_stream.py``, the ``stream_rules``
field of its row in :mod:`harness.formats`) read a body's events as values,
in order (a JSON event as what it parses to, any other data as its text),
and return every :class:`StreamFault`; ``harness conform`` reports each rule
as a check. The rules state the provider's own layout: the layouts relays
send outside it (``harness.testing.*_shapes``, marked ``relay``) each break
one, the layouts inside it break none (``tests/test_conform_stream_rules.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class StreamFault:
    rule: str  # a name of harness.rules.registry.RULES
    event: int | None  # the event's position in the body (0 first); None: the stream as a whole
    detail: str


@dataclass(frozen=True)
class StreamRules:
    """A format's stream rules: their names (each a check, passed when it finds nothing) and the judge of a body."""

    names: tuple[str, ...]
    judge: Callable[[list], list[StreamFault]]  # a body's event values -> every fault

    def __call__(self, values: list) -> list[StreamFault]:
        return self.judge(values)


def event_values(events: Sequence[tuple[str | None, str]]) -> list[object]:
    """Each event's data as a value: what its JSON parses to, else its text."""
    out: list[object] = []
    for _, data in events:
        try:
            out.append(json.loads(data))
        except ValueError:
            out.append(data)
    return out


def not_objects(rule: str, values: list, allowed: Callable[[int, object], bool] = lambda n, v: False
                ) -> list[StreamFault]:
    """A fault for every event that is not a JSON object (unless ``allowed``: a format's own sentinel)."""
    return [StreamFault(rule, n, f"the event's data is {_shown(v)}, not a JSON object")
            for n, v in enumerate(values) if not isinstance(v, dict) and not allowed(n, v)]


def _shown(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return repr(text[:80] + ("..." if len(text) > 80 else ""))
