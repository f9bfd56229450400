"""JSON texts to values, exactly as ``json.loads`` reads them, at orjson's speed where the two agree.

orjson reads a strict subset of what ``json.loads`` reads (no ``NaN``, no
lone surrogate escapes, no float that overflows, no nesting past 1024) to
the same value, but for one thing: an integer beyond 64 bits becomes a
float. Every integer of at most 18 digits fits in 64 bits, so texts cut
from a source without 19 digits in a row go to orjson first; a text orjson
refuses, or any text of a source that has such a run, is read by
``json.loads``, whose value or error is then the answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

# Every ASCII digit to "0", so a run of digits is a run of "0"s (one C pass, no regular expression).
_DIGITS_AS_ZERO = bytes.maketrans(b"0123456789", b"0" * 10)
_LONG_RUN = b"0" * 19


def reader(source: bytes) -> Callable[[str], Any]:
    """A ``json.loads`` for texts decoded from parts of ``source``: the same value, or the same error."""
    if _LONG_RUN in source.translate(_DIGITS_AS_ZERO):
        return json.loads
    return _loads


def _loads(text: str) -> Any:
    try:
        return orjson.loads(text)  # pragma: no mutate (equivalent: `text` -> `None`: orjson refuses None with its JSONDecodeError, so json.loads reads the text: the same value or error)
    except orjson.JSONDecodeError:
        return json.loads(text)
