"""What keeps a request body from being a request at all: not JSON, not a JSON object, or not the format's shape.

Every strict route asks this before its history rules, and answers a fault
with its provider's own status and error body (the format's ``unreadable``);
the fault is recorded as a violation like any other rule broken, so the probe
fails an agent that sends one. The rules are the registry's: ``body-not-json``
for the first two, the format's shape rule for the third.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from harness.clip import clip_json

BODY_NOT_JSON = "body-not-json"
# What kind of fault, for the formats whose providers word them differently.
SYNTAX, NOT_OBJECT, SHAPE = "syntax", "not-object", "shape"


@dataclass(frozen=True)
class BodyFault:
    rule: str  # body-not-json, or the format's shape rule
    kind: str  # SYNTAX, NOT_OBJECT or SHAPE
    detail: str  # what is wrong, for people
    reason: str = ""  # the JSON parser's words, for a syntax fault


def read_body(raw: bytes, shape: Callable[[dict], str | None], shape_rule: str) -> dict | BodyFault:
    """The request ``raw`` holds, or its fault; ``shape`` names what is wrong with a JSON object, if anything."""
    try:
        value = json.loads(raw or b"")  # an empty body is not JSON either
    except ValueError as exc:  # a JSONDecodeError, or a UnicodeDecodeError of bytes that are not text
        return BodyFault(BODY_NOT_JSON, SYNTAX, f"the request body is not JSON ({exc})", str(exc))
    if not isinstance(value, dict):
        return BodyFault(BODY_NOT_JSON, NOT_OBJECT, f"the request body is {clip_json(value, 60)}, "
                         "not a JSON object")
    wrong = shape(value)
    return value if wrong is None else BodyFault(shape_rule, SHAPE, wrong)
