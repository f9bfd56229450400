"""The reviewed list of equivalent mutmut mutants: survivors no contract can or should kill.

``equivalent.toml`` (next to this module) holds one ``[[equivalent]]`` per
mutant, keyed by what survives a renumbering of mutmut's mutants::

    [[equivalent]]
    file = "harness/reference/sse.py"
    function = "decode"                 # or "Class.method"
    original = 'return text.strip()'    # the original line(s), stripped
    mutated = 'return text.strip(None)' # the mutant's line(s), stripped
    reason = "one line: why no behaviour changes"

A matching survivor is reported as Ignored, with the reason, and leaves the score.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from harness.nightly.locate import parse_hunk

EQUIVALENT_LIST = Path(__file__).with_name("equivalent.toml")
_FIELDS = ("file", "function", "original", "mutated", "reason")


class EquivalentsError(Exception):
    """The equivalents list cannot be read or an entry is malformed."""


@dataclass(frozen=True)
class Key:
    file: str
    function: str
    original: str
    mutated: str


def _lines(lines: list[str]) -> str:
    return "\n".join(line.strip() for line in lines)


def key_of(file: str, function: str, diff: str) -> Key:
    """The stable key of a mutmut mutant: where it is and what it changes, not its number."""
    hunk = parse_hunk(diff)
    return Key(file, function, _lines(hunk.removed), _lines(hunk.added))


def load_equivalents(path: Path = EQUIVALENT_LIST) -> dict[Key, str]:
    """Key -> reason for every entry; a missing file is an empty list."""
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise EquivalentsError(f"{path}: not valid TOML: {exc}") from exc
    reasons: dict[Key, str] = {}
    for n, entry in enumerate(data.get("equivalent", []), 1):
        # ``mutated`` may be empty: a mutant can leave nothing of the lines it changed.
        bad = [f for f in _FIELDS if not isinstance(entry.get(f), str) or (f != "mutated" and not entry[f].strip())]
        unknown = sorted(set(entry) - set(_FIELDS))
        if bad or unknown:
            raise EquivalentsError(
                f"{path}: equivalent #{n}: " + (f"needs non-empty {bad}" if bad else f"unknown field(s) {unknown}")
            )
        original, mutated = (_lines(entry[f].splitlines()) for f in ("original", "mutated"))
        key = Key(entry["file"], entry["function"], original, mutated)
        if key in reasons:
            raise EquivalentsError(f"{path}: equivalent #{n} repeats an earlier entry ({entry['function']})")
        reasons[key] = entry["reason"].strip()
    return reasons
