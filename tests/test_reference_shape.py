"""The reference's hand-checked chunk shape refuses and words exactly what its JSON Schema did.

The parser once checked each chunk with this JSON Schema through
``jsonschema``; it now checks the same shape by hand, for speed. The schema
stays here as the oracle: on every chunk-like value the hand check must find
the first problem the schema validator finds, in the same words, or none when
it finds none.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st
from jsonschema import Draft202012Validator, validators

from harness.reference.shape import Shape, checker, problem
from harness.reference.stream import _CHUNK

_TEXT = {"type": ["string", "null"]}
_INDEX = {"type": ["integer", "null"]}
_FRAGMENT = {
    "type": "object",
    "properties": {
        "index": _INDEX,
        "id": _TEXT,
        "function": {
            "type": ["object", "null"],
            "properties": {"name": _TEXT, "arguments": {"type": ["string", "object", "null"]}},
        },
    },
}
_DELTA = {
    "type": ["object", "null"],
    "properties": {
        "content": _TEXT,
        "reasoning_content": _TEXT,
        "tool_calls": {"type": ["array", "null"], "items": _FRAGMENT},
    },
}
SCHEMA = {
    "type": "object",
    "properties": {
        "usage": {"type": ["object", "null"]},
        "choices": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"index": _INDEX, "finish_reason": _TEXT, "delta": _DELTA},
            },
        },
    },
}
# The parser's schema counted only integer literals (never 1.0 or a bool) as integers.
_STRICT = Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool)
)
VALIDATOR = validators.extend(Draft202012Validator, type_checker=_STRICT)(SCHEMA)
# What the parser runs on every chunk: the same answer as problem(), prepared once.
CHECK_CHUNK = checker(_CHUNK)


def schema_problem(value) -> str | None:
    error = next(VALIDATOR.iter_errors(value), None)
    return None if error is None else f"{error.json_path}: {error.message}"


_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from([1.0, 1.5]), st.text(max_size=3))
_any = st.recursive(
    _leaf, lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2), inner, max_size=2),
    max_leaves=4,
)


def _maybe(shape):
    return st.one_of(shape, _any)


def _object(**fields):
    return st.fixed_dictionaries({}, optional={key: _maybe(value) for key, value in fields.items()})


_fragment = _object(index=_leaf, id=_leaf, function=_object(name=_leaf, arguments=_any), type=_leaf)
_delta = _object(content=_leaf, reasoning_content=_leaf, role=_leaf, tool_calls=st.lists(_maybe(_fragment), max_size=3))
_choice = _object(index=_leaf, finish_reason=_leaf, delta=_delta, logprobs=_leaf)
# Chunk-like values: the real fields with every type a decoded value can have, in any order.
chunks = _object(error=_any, usage=_any, choices=st.lists(_maybe(_choice), max_size=3), id=_leaf)


@settings(max_examples=600)
@given(chunks)
def test_the_hand_check_names_the_schemas_first_problem(chunk):
    expected = schema_problem(chunk)
    assert problem(chunk, _CHUNK) == expected
    assert CHECK_CHUNK(chunk) == expected, f"the prepared check of {chunk!r}: expected {expected!r}"


WORDED = {
    "$: [1, 2] is not of type 'object'": [1, 2],
    "$.usage: 12 is not of type 'object', 'null'": {"choices": [], "usage": 12},
    "$.choices: None is not of type 'array'": {"choices": None},
    "$.choices[1].index: True is not of type 'integer', 'null'": {"choices": [{}, {"index": True}]},
    "$.choices[0].delta.tool_calls[0].index: 1.0 is not of type 'integer', 'null'": {
        "choices": [{"delta": {"tool_calls": [{"index": 1.0}]}}]
    },
    "$.choices[0].delta.tool_calls[0].function.arguments: [1] is not of type 'string', 'object', 'null'": {
        "choices": [{"delta": {"tool_calls": [{"function": {"arguments": [1]}}]}}]
    },
    # usage is checked before choices, whatever order the chunk has them in.
    "$.usage: 'x' is not of type 'object', 'null'": {"choices": 5, "usage": "x"},
}


@pytest.mark.parametrize(("message", "chunk"), WORDED.items(), ids=range(len(WORDED)))
def test_problems_are_worded_as_the_schema_worded_them(message, chunk):
    assert problem(chunk, _CHUNK) == message == schema_problem(chunk) == CHECK_CHUNK(chunk)


def test_a_valid_chunk_with_fields_the_parser_does_not_read_has_no_problem():
    chunk = json.loads(
        '{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "usage": null,'
        ' "choices": [{"index": 0, "logprobs": null, "finish_reason": null, "delta": {"role": "assistant",'
        ' "content": "hi", "tool_calls": [{"index": 0, "id": "call_a", "type": "function",'
        ' "function": {"name": "f", "arguments": {"a": 1}}}]}}]}'
    )
    assert problem(chunk, _CHUNK) is None
    assert CHECK_CHUNK(chunk) is None


def test_an_items_shape_applies_only_to_arrays_and_fields_only_to_objects():
    shape = Shape(("array", "object", "null"), fields={"a": Shape(("string",))}, items=Shape(("integer",)))
    assert problem([1, 2], shape) is None
    assert problem({"a": "x", "b": 1}, shape) is None
    assert problem(["x"], shape) == "$[0]: 'x' is not of type 'integer'"
    assert problem({"a": 1}, shape) == "$.a: 1 is not of type 'string'"
    assert problem([1, "x", None], Shape(("array",))) is None  # an array shape without items leaves them free
    check = checker(shape)
    for value in ([1, 2], {"a": "x", "b": 1}, ["x"], {"a": 1}, [1, [None]], {"a": None}, "x", None):
        assert check(value) == problem(value, shape), f"the prepared check of {value!r}"
    assert checker(Shape(("array",)))([1, "x", None]) is None
