"""Checking a TOML table the harness reads against its JSON Schema in ``harness/schemas/``.

The schemas say what each table may hold; this module turns a violation into
one line that names the file (and line, where it is known), the table and the
field, in the words a person editing the TOML file uses ("a table", "a list",
"unknown field"), not the schema's. Checks a schema cannot express (a path
must exist, a text must occur in a file) stay with the loaders.
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator, ValidationError, validators

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
NON_BLANK = r"\S"  # the pattern of a string that must hold more than white space

# TOML tells 90 from 90.0; JSON Schema's "integer" accepts both, so a threshold
# of 90.5 or 90.0 would pass. Here an integer is what TOML calls one.
_TOML_TYPES = Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
)
_Validator = validators.extend(Draft202012Validator, type_checker=_TOML_TYPES)

# Where a table sits in its file: given the path of the table inside the data
# and the field the problem is about, the text that starts the message.
Place = Callable[[tuple, "str | None"], str]


@cache
def load_schema(name: str) -> dict:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


@cache
def _validator(name: str) -> Draft202012Validator:
    schema = load_schema(name)
    _Validator.check_schema(schema)
    return _Validator(schema)


def problems(name: str, data: object, place: Place, noun: str = "field") -> list[str]:
    """Every way ``data`` breaks schema ``name``, one line each, in the order the fields appear."""
    # Entries in file order (#2 before #10), names apart from indexes so the two never compare.
    errors = sorted(_validator(name).iter_errors(data),
                    key=lambda e: [(isinstance(p, str), p) for p in e.absolute_path])
    return [line for error in errors for line in _describe(error, place, noun, load_schema(name))]


def check(name: str, data: object, place: Place, error: type[Exception], noun: str = "field") -> None:
    """Raise ``error`` listing every problem (all at once: a file with three typos needs one run, not three)."""
    found = problems(name, data, place, noun)
    if len(found) == 1:
        raise error(found[0])
    if found:
        raise error(f"{len(found)} problems:\n" + "\n".join(f"  {line}" for line in found))


def _describe(error: ValidationError, place: Place, noun: str, root: dict) -> list[str]:
    path = tuple(error.absolute_path)
    if error.validator in ("additionalProperties", "required"):
        # The problem is about a key of the object at ``path``, not the object itself.
        known = sorted(error.schema.get("properties", {}))
        if error.validator == "required":
            # One error per missing property; its message starts with that property's repr.
            field = next(r for r in error.validator_value if error.message.startswith(repr(r)))
            if any(_closest(key, known) == field for key in set(error.instance) - set(known)):
                return []  # a misspelt key: its "unknown field ... did you mean" line says it all
            sub = error.schema["properties"].get(field, {})
            return [f"{place(path, field)}{noun} {field!r} must be {expected(sub, root)} (it is missing)"]
        extra = sorted(set(error.instance) - set(known))
        return [f"{place(path, key)}unknown {noun} {key!r}{_did_you_mean(key, known)}; known: {', '.join(known)}"
                for key in extra]
    # The last name in the path is the field; any indexes after it are items of that field.
    names = [i for i, part in enumerate(path) if isinstance(part, str)]
    if not names:
        return [f"{place(path, None)}must be {expected(error.schema, root)}, got {error.instance!r}"]
    at = names[-1]
    field = path[at]
    items = "".join(f" item #{i + 1}" for i in path[at + 1:])
    got = f"got {error.instance!r}"
    return [f"{place(path[:at], field)}{noun} {field!r}{items} must be {expected(error.schema, root)}, {got}"]


def _closest(key: str, known: Sequence[str]) -> str | None:
    return next(iter(difflib.get_close_matches(key, known, n=1)), None)


def _did_you_mean(key: str, known: Sequence[str]) -> str:
    close = _closest(key, known)
    return f" (did you mean {close!r}?)" if close else ""


def expected(schema: dict, root: dict) -> str:
    """What a value of ``schema`` must be, as a noun phrase: "a non-empty string", "one of a, b"."""
    if schema.get("$ref", "").startswith("#/"):  # the shipped schemas refer only within themselves
        schema = _resolve(schema["$ref"], root)
    if "enum" in schema:
        return "one of " + ", ".join(map(str, schema["enum"]))
    kind = schema.get("type")
    if kind == "string":
        pattern = schema.get("pattern")
        if pattern and pattern != NON_BLANK:
            return schema.get("description") or f"a string matching {pattern}"
        return "a non-empty string" if pattern == NON_BLANK or schema.get("minLength") else "a string"
    if kind == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        return f"an integer from {low} to {high}" if low is not None and high is not None else "an integer"
    if kind == "array":
        items = expected(schema.get("items", {}), root)
        of = " of " + re.sub(r"^an? ", "", items) + "s" if items.startswith(("a ", "an ")) else ""
        return ("a non-empty list" if schema.get("minItems") else "a list") + of
    if kind == "object":
        return "a table"
    return schema.get("description", "valid")


def _resolve(ref: str, root: dict) -> dict:
    node = root
    for part in ref[2:].split("/"):
        node = node[part]
    return node


MAX_FILE_BYTES = 8 * 1024 * 1024  # far past any catalogue, expectations or pyproject file a person writes
MAX_DEPTH = 32  # tables and arrays inside each other; the deepest file the harness reads needs 4


def read_text(path: Path, error: type[Exception], what: str = "the file", limit: int = MAX_FILE_BYTES) -> str:
    """The text of a file the harness reads; unreadable, over ``limit`` bytes or not UTF-8 is ``error`` naming it."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read {what}: {exc.strerror}") from None
    if len(raw) > limit:
        raise error(f"{path}: {what} is larger than {limit:,} bytes; it was not read")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise error(f"{path}:{line}: not UTF-8 (byte {exc.start} is 0x{raw[exc.start]:02x}); "
                    "TOML files are UTF-8: save it so") from None


def parse_text(path: Path, text: str, error: type[Exception], json_pairs=None) -> object:
    """``text`` parsed as TOML, or as JSON with ``json_pairs`` given (its ``object_pairs_hook``); bounded in depth.

    A syntax error, or nesting past :data:`MAX_DEPTH`, is ``error`` naming the file and the place.
    """
    kind = "TOML" if json_pairs is None else "JSON"
    try:
        data = tomllib.loads(text) if json_pairs is None else json.loads(text, object_pairs_hook=json_pairs)
    except RecursionError:
        raise error(f"{path}: nested deeper than {MAX_DEPTH} levels; not read") from None
    except (tomllib.TOMLDecodeError, ValueError) as exc:  # json.JSONDecodeError is a ValueError
        raise error(f"{path}: not valid {kind}: {exc}") from None
    too_deep = _deeper_than(data, MAX_DEPTH)
    if too_deep is not None:
        raise error(f"{path}: {too_deep or 'top level'}: nested deeper than {MAX_DEPTH} levels; not read")
    return data


def _deeper_than(data: object, limit: int) -> str | None:
    """The path of a value nested past ``limit`` levels (a dotted key path), or None; walked without recursion."""
    stack = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, child in children:
            if isinstance(child, (dict, list)):
                place = f"{where}.{key}" if where else str(key)
                if depth + 1 > limit:
                    return place
                stack.append((child, place, depth + 1))
    return None


def header_line(text: str, header: str) -> int | None:
    """The line of a table header such as ``[runner]`` or ``[tool.harness.nightly]``."""
    return next((n for n, line in enumerate(text.splitlines(), 1) if line.strip() == header), None)


def key_line(text: str, key: str, start: int = 0) -> int | None:
    """The line that sets ``key`` in the table whose header is on line ``start`` (0: the top level)."""
    pattern = re.compile(rf"""^\s*(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*=""")
    lines = text.splitlines()
    for n in range(max(start, 1), len(lines) + 1):
        line = lines[n - 1]
        if n > start and line.lstrip().startswith("["):
            return None  # the next table: the key is not set on a line of its own in this one
        if pattern.match(line):
            return n
    return None
