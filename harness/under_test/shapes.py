"""Every value an adapter method returns is checked against its neutral shape before any rule is judged.

The shapes are JSON Schemas shipped in ``harness/schemas/returns.json``, one
definition per method; ``docs/adapter-protocol.md`` refers to the same file.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator

from harness.adapter import DEFAULT_FORMAT
from harness.clip import clip, clip_repr

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas" / "returns.json"


class ShapeError(AssertionError):
    """A method returned a value of the wrong shape: a failure of the contract that called it."""


@cache
def _validator(method: str) -> Draft202012Validator:
    schema = json.loads(SCHEMAS.read_text())
    return Draft202012Validator({**schema, "$ref": f"#/$defs/{method}"})


@cache
def _definitions() -> frozenset[str]:
    return frozenset(json.loads(SCHEMAS.read_text())["$defs"])


def check_shape(method: str, value: object, format: str = DEFAULT_FORMAT) -> None:
    """Raise :class:`ShapeError` naming the method, the field and what came back, unless ``value`` fits.

    Another format's shapes are its own definitions (``anthropic_parse_stream``); a method of that format
    whose shape is not written yet is not checked here, never checked against the chat shape.
    """
    if format != DEFAULT_FORMAT:
        method = f"{format}_{method}"
        if method not in _definitions():
            return
    error = next(iter(sorted(_validator(method).iter_errors(value), key=lambda e: len(e.absolute_path))), None)
    if error is None:
        return
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "(the value itself)"
    raise ShapeError(
        f"{method} returned a wrong shape at {field}: {clip(error.message)}; "
        f"it returned {clip_repr(value)} (shapes: harness/schemas/returns.json)"
    )
