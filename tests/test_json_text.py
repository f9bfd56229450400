"""The chat reference parser's JSON reader answers exactly as ``json.loads``: the same value or the same error.

It reads with orjson where orjson agrees with ``json.loads`` and falls back to
``json.loads`` elsewhere; these tests hold it to ``json.loads`` on the texts
where the two libraries differ (integers beyond 64 bits, ``NaN``, lone
surrogates, overflowing floats, deep nesting) and on arbitrary JSON-like text.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings, strategies as st

from harness.reference.json_text import reader


def outcome(loads, text: str):
    """The value (repr, so NaN equals NaN and an int never equals its float) or the error's type."""
    try:
        return "value", repr(loads(text))
    except (ValueError, RecursionError) as exc:
        return "error", type(exc).__name__


# Where orjson alone reads otherwise than json.loads.
DIFFERENT = [
    '{"usage": {"prompt_tokens": 18446744073709551616}}',  # beyond 64 bits: orjson makes it a float
    '{"index": -9223372036854775809}',
    "[NaN, Infinity, -Infinity]",
    '"\\ud800"',  # a lone surrogate escape
    "1.7976931348623159e308",  # overflows to inf in json.loads
    "[" * 1100 + "]" * 1100,  # deeper than orjson's limit, within json.loads's
    "[" * 100_000 + "]" * 100_000,  # deeper than either: RecursionError from json.loads
]


@pytest.mark.parametrize("text", DIFFERENT, ids=range(len(DIFFERENT)))
def test_where_orjson_differs_the_answer_is_json_loads(text):
    loads = reader(text.encode())
    assert outcome(loads, text) == outcome(json.loads, text), f"reading {text[:60]!r}"


def test_a_long_integer_anywhere_in_the_source_keeps_every_text_exact():
    source = b'data: {"a": 1}\n\ndata: {"b": 123456789012345678901234567890}\n\n'
    loads = reader(source)
    assert loads('{"b": 123456789012345678901234567890}') == {"b": 123456789012345678901234567890}


_numbers = st.one_of(
    st.integers(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True, allow_infinity=True),
)
_values = st.recursive(
    st.one_of(st.none(), st.booleans(), _numbers, st.text(max_size=4)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=400, derandomize=True)
@given(_values, st.integers(0, 40), st.text(max_size=3))
@example(float("nan"), 0, "")
@example(2**64, 0, "")
def test_any_json_text_or_a_cut_or_spliced_one_reads_as_json_loads_reads_it(value, cut, splice):
    text = json.dumps(value)
    for variant in (text, text[:cut] + splice + text[cut:], text[:cut], f" {text}\n"):
        loads = reader(variant.encode("utf-8", "surrogatepass"))
        assert outcome(loads, variant) == outcome(json.loads, variant), f"reading {variant!r}"

