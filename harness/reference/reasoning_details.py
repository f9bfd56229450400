"""Joining streamed ``reasoning_details`` entries by their ``index``.

Gateways that carry a model's reasoning on chat completions in typed entries
(OpenRouter: ``reasoning.text`` with a ``signature``, ``reasoning.summary``,
``reasoning.encrypted`` with ``data``) stream each entry in pieces that share
its ``index``. The entries go back on the next request exactly as the provider
meant them, so joining is the only thing done to them: the text a piece adds
(``text``, ``summary``, ``data``) is appended to its entry; any other field is
the entry's own value (``type``, ``id``, ``format``, ``signature``), repeated
or sent once, so a later piece's value stands and a null never erases one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

# Fields whose pieces are parts of one text.
APPENDED = ("text", "summary", "data")


class ReasoningDetails:
    """The ``reasoning_details`` pieces of one streamed response, joined into whole entries."""

    def __init__(self) -> None:
        # index -> the entry; an entry without an index is one of its own (keyed by its arrival)
        self._entries: dict[object, dict[str, Any]] = {}

    def add(self, pieces: Iterable[Mapping[str, Any]]) -> None:
        """Take the ``reasoning_details`` list of one chunk's delta."""
        for piece in pieces:
            index = piece.get("index")
            entry = self._entries.setdefault(object() if index is None else index, {})
            for name, value in piece.items():
                if name in APPENDED and isinstance(value, str) and isinstance(entry.get(name), str):
                    entry[name] += value
                elif value is not None or name not in entry:  # pragma: no mutate (out of scope: `value is not None or name not in entry` -> `value is not None and name not in entry`: differs only for a field that changes its value mid-entry, which no gateway sends, or is null on every piece, null or left out alike to the endpoint)
                    entry[name] = value

    def entries(self) -> list[dict[str, Any]]:
        """The whole entries, in the order their first pieces arrived."""
        return [dict(entry) for entry in self._entries.values()]
