"""The rules a decoded turn keeps in every format, over neutral turns (``harness.adapter``): each sub-rule its own checker.

A stream decodes to the turn that was streamed: its blocks in the order of
their identity and of their types; each block's text; each opaque value
(signature, redacted data) byte-identical; each call's id, name and
arguments (as a JSON value: a client may re-serialize them, and ``""``, what a
call without arguments streams, is the empty object; text that is not JSON
as it is); the stop reason; the usage. Each checker returns what differs
(empty: the sub-rule holds), so a contract asserts each one separately and a
broken part never hides another. A checker reads only its own part: texts are
compared kind by kind, in order, whatever the block order is; calls by their
id, whatever their position.
"""

from __future__ import annotations

from harness.rules.pairing import same_arguments

TEXTS = {"text": "text", "reasoning": "text"}  # the block types that carry text, and its key
OPAQUE = {"reasoning": "signature", "redacted_reasoning": "data"}  # opaque values, byte for byte


def _blocks(turn: dict) -> list:
    blocks = turn.get("blocks") if isinstance(turn, dict) else None
    return blocks if isinstance(blocks, list) else []


def _of_type(turn: dict, kind: str, key: str) -> list:
    return [block.get(key) for block in _blocks(turn) if isinstance(block, dict) and block.get("type") == kind]


def _pairs(got: list, want: list) -> list[tuple]:
    """``(position, got, expected)`` wherever two lists differ, a missing item read as ``None``."""
    return [(k, got[k] if k < len(got) else None, want[k] if k < len(want) else None)
            for k in range(max(len(got), len(want)))
            if k >= len(got) or k >= len(want) or got[k] != want[k]]


def block_types(got: dict, want: dict) -> list[tuple]:
    """The block types in order: ``(position, got, expected)`` where they differ."""
    return _pairs([b.get("type") if isinstance(b, dict) else b for b in _blocks(got)],
                  [b["type"] for b in _blocks(want)])


def texts(got: dict, want: dict, kind: str) -> list[tuple]:
    """The texts of the ``kind`` blocks (``text`` or ``reasoning``), in order: ``(k-th such block, got, expected)``."""
    return _pairs(_of_type(got, kind, TEXTS[kind]), _of_type(want, kind, TEXTS[kind]))


def opaque_values(got: dict, want: dict, kind: str) -> list[tuple]:
    """The opaque values of the ``kind`` blocks, byte for byte, in order: ``(k-th such block, got, expected)``."""
    return _pairs(_of_type(got, kind, OPAQUE[kind]), _of_type(want, kind, OPAQUE[kind]))


def _calls(turn: dict) -> list[dict]:
    return [b for b in _blocks(turn) if isinstance(b, dict) and b.get("type") == "tool_call"]


def call_ids(got: dict, want: dict) -> dict[str, list]:
    """Calls by their id: ``missing`` (streamed, not decoded), ``extra`` (never streamed) and ``repeated``."""
    got_ids = [c.get("id") for c in _calls(got)]
    want_ids = [c["id"] for c in _calls(want)]
    found = {
        "missing": [i for i in want_ids if i not in got_ids],
        "extra": [i for i in got_ids if i not in want_ids],
        "repeated": sorted({str(i) for i in got_ids if got_ids.count(i) > 1}),
    }
    return {what: ids for what, ids in found.items() if ids}


def _no_arguments_as_object(arguments: object) -> object:
    return "{}" if arguments == "" else arguments


def _same_field(key: str, got: object, want: str) -> bool:
    if key != "arguments":
        return got == want
    return same_arguments(_no_arguments_as_object(got), _no_arguments_as_object(want))


def call_fields(got: dict, want: dict, key: str) -> list[tuple]:
    """A call field (``name``, or ``arguments`` as a JSON value) of each call found by id: ``(id, got, expected)`` where it differs."""
    by_id = {c.get("id"): c for c in _calls(got)}
    return [(c["id"], by_id[c["id"]].get(key), c[key]) for c in _calls(want)
            if c["id"] in by_id and not _same_field(key, by_id[c["id"]].get(key), c[key])]


def stop_reason(got: dict, want: dict) -> list[tuple]:
    """``[(got, expected)]`` when the stop reason differs."""
    return [] if got.get("stop_reason") == want.get("stop_reason") else [(got.get("stop_reason"), want.get("stop_reason"))]


def no_usage(value: object) -> bool:
    """``value`` says no tokens were counted: ``None``, or a usage whose every count, at any depth, is zero.

    No provider sends an all-zero usage, so a client that holds "no usage" as
    zeros tells apart every usage the wire can tell apart.
    """
    return value is None or isinstance(value, dict) and _counts_nothing(value)


def _counts_nothing(value: object) -> bool:
    if isinstance(value, dict):
        return all(_counts_nothing(v) for v in value.values())
    if isinstance(value, list):
        return all(_counts_nothing(v) for v in value)
    return value is None or value == 0 or isinstance(value, str)  # a string is a label (a modality), not a count


def usage(got: dict, want: dict) -> list[tuple]:
    """``[(got, expected)]`` when the usage differs (every key, with its value; none sent: ``None`` or all zeros)."""
    same = got.get("usage") == want.get("usage") or (want.get("usage") is None and no_usage(got.get("usage")))
    return [] if same else [(got.get("usage"), want.get("usage"))]


def block_values(got: dict, want: dict, kind: str, key: str) -> list[tuple]:
    """A key of the ``kind`` blocks in order (an item id, a summary list, an optional signature), absent read as
    ``None``: ``(k-th such block, got, expected)``, so a value added, dropped, moved to another block or changed shows."""
    return _pairs(_of_type(got, kind, key), _of_type(want, kind, key))
