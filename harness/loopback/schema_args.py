"""Tool-call arguments generated from a tool's JSON Schema, varied by a call number.

The fake model of the loopback provider fills in every call it makes from the
``parameters`` schema the agent declared for that tool, so the agent's own
tool code receives arguments it accepts. Values differ from call to call (the
call number is folded into every string and number), so arguments that end up
on the wrong call, or merged, are told apart. Strings carry non-ASCII text, so
a delivery that cuts inside UTF-8 sequences has something to cut.

Supported: ``type`` (string, integer, number, boolean, array, object, null,
or a list of types), ``enum``, ``const``, ``default``, ``properties`` with
``required``, ``items``, ``minimum``/``maximum``, ``minLength``/``maxLength``,
``minItems``, ``anyOf``/``oneOf`` (the first branch), local ``$ref``
(``#/$defs/...``). Depth and sizes are bounded.
"""

from __future__ import annotations

import json

_WORDS = ("Zürich", "東京", "Lisboa", "Ōsaka", "Kraków", "São Paulo", "Reykjavík", "Montréal")
_MAX_DEPTH = 6


def arguments_for(schema: dict | None, call: int) -> str:
    """The JSON text of arguments for call number ``call`` of a tool with ``parameters`` ``schema``."""
    value = _value(schema or {"type": "object"}, call, schema or {}, 0, "")
    if not isinstance(value, dict):
        value = {}
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _value(schema: object, call: int, root: dict, depth: int, name: str):
    if not isinstance(schema, dict) or depth > _MAX_DEPTH:
        return None
    if "$ref" in schema:
        return _value(_resolve(schema["$ref"], root), call, root, depth + 1, name)
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][call % len(schema["enum"])]
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            return _value(schema[key][0], call, root, depth + 1, name)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind is None:
        kind = "object" if "properties" in schema else "string"
    if kind == "object":
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        return {key: _value(sub, call, root, depth + 1, key) for key, sub in properties.items()}
    if kind == "array":
        count = max(1, min(int(schema.get("minItems") or 1), 3))
        return [_value(schema.get("items") or {}, call + i, root, depth + 1, name) for i in range(count)]
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0))
        high = schema.get("maximum", schema.get("exclusiveMaximum", low + 100))
        value = low + (call + 1) % max(1, int(high - low) or 1)
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            value = schema["exclusiveMinimum"] + 1
        return int(value) if kind == "integer" else value + 0.5 if value + 0.5 <= high else value
    if kind == "boolean":
        return call % 2 == 0
    if kind == "null":
        return None
    text = f"{_WORDS[call % len(_WORDS)]} {call + 1}" if not name else f"{name}-{call + 1} {_WORDS[call % len(_WORDS)]}"
    low, high = int(schema.get("minLength") or 0), schema.get("maxLength")
    if high is not None:
        text = text[: max(int(high), low)]
    return text + "x" * max(0, low - len(text))


def _resolve(ref: object, root: dict) -> object:
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return {}
    node: object = root
    for part in ref[2:].split("/"):
        node = node.get(part) if isinstance(node, dict) else None
    return node or {}
