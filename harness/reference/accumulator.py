"""Joining streamed tool-call fragments into whole calls, by their upstream ``index``."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class _Head:
    """Who a call is: what its opening fragment said."""

    id: str | None
    name: str | None
    # A provider's opaque value on the call (Google's thought signature in ``extra_content``), kept as sent.
    extra_content: Mapping[str, Any] | None = None


class ToolCallAccumulator:
    """Collects the ``tool_calls`` fragments of one streamed response.

    A fragment belongs to the call its upstream ``index`` names. Its position in
    the chunk's ``tool_calls`` list is not its identity: a chunk usually holds a
    single fragment, so that position is nearly always 0.

    Provider quirks accepted: ``id`` and ``name`` only on a call's first fragment
    (later ones omit them or send null); every call sent at ``index`` 0, told
    apart by a new ``id``; ``index`` missing; numbering that starts at 1;
    ``arguments`` sent as a JSON object. A call's ``extra_content``, on whichever
    fragment brings it, stays with that call. Fragments must already be
    well-formed (the stream parser checks their types).
    """

    def __init__(self) -> None:
        # upstream index -> argument pieces of the call open at that index
        self.accs: defaultdict[int, list[str]] = defaultdict(list)
        # upstream index -> id and name of the call open at that index
        self._heads: dict[int, _Head] = {}
        # calls whose index a later call took over (new id at the same index)
        self._closed: list[tuple[int, _Head, list[str]]] = []
        self._last_index: int | None = None

    def add(self, fragments: Iterable[Mapping[str, Any]]) -> None:
        """Take the ``tool_calls`` list of one chunk's delta."""
        # i, the fragment's place in this chunk's list, must never pick the call.
        for i, frag in enumerate(fragments):
            index = self._index_of(frag)
            self._track_head(index, frag)
            self._keep_extra(index, frag)
            arguments = _arguments_text(frag)
            if arguments is not None:
                self.accs[index].append(arguments)
            self._last_index = index

    def calls(self) -> list[dict[str, Any]]:
        """The calls as ``{"id", "name", "arguments"}``, in upstream index order.

        Calls that shared an index keep their arrival order; ``arguments`` is the
        concatenated raw text, ``""`` when none arrived.
        """
        open_calls = [(index, head, self.accs.get(index, [])) for index, head in self._heads.items()]
        ordered = sorted(self._closed + open_calls, key=lambda call: call[0])
        return [_call(head, pieces) for _, head, pieces in ordered]

    def _index_of(self, frag: Mapping[str, Any]) -> int:
        index = frag.get("index")
        if index is not None:
            return index
        # Without an index the fragment continues the latest call (a new id
        # there opens the next call); the very first one opens call 0.
        return 0 if self._last_index is None else self._last_index

    def _keep_extra(self, index: int, frag: Mapping[str, Any]) -> None:
        head = self._heads.get(index)
        if head is not None and frag.get("extra_content") is not None:
            self._heads[index] = replace(head, extra_content=frag["extra_content"])

    def _track_head(self, index: int, frag: Mapping[str, Any]) -> None:
        head = self._heads.get(index)
        new_id = frag.get("id")
        if head is not None and (new_id is None or new_id == head.id):
            return
        if head is not None:
            # Another id at a taken index: the endpoint numbers every call 0
            # (or sends no index), so the call held there is complete.
            self._closed.append((index, head, self.accs.pop(index, [])))
        function = frag.get("function") or {}
        self._heads[index] = _Head(id=new_id, name=function.get("name"))


def _call(head: _Head, pieces: list[str]) -> dict[str, Any]:
    call: dict[str, Any] = {"id": head.id, "name": head.name, "arguments": "".join(pieces)}
    if head.extra_content is not None:
        call["extra_content"] = head.extra_content
    return call


def _arguments_text(frag: Mapping[str, Any]) -> str | None:
    arguments = (frag.get("function") or {}).get("arguments")
    if isinstance(arguments, Mapping):
        # Some endpoints send the already-parsed object; store what a string
        # stream of it would have carried.
        return json.dumps(arguments)
    return arguments
