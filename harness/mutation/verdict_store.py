"""The verdict store: one JSON file of earlier baselines and known-bug verdicts, each under the key of what it
depends on (:mod:`tree_digest`), that a later run reuses while the key is unchanged.

It is written whole to a temporary file beside it and moved into place, so a reader sees the old store or the
new one, never half of one. A store that is missing, unreadable, not JSON, of another layout or written by
another harness version is not used: the run is a full one and says why in one line.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import harness
from harness.outcomes.mutants import NOT_APPLICABLE, PASSED, Verdict

LAYOUT = 1  # the file's layout; a store of another is not read
GREEN = (PASSED, NOT_APPLICABLE)  # a stored baseline entry is of a green baseline
DEFAULT_PATH = Path(".harness") / "verdicts.json"  # relative to where the command runs
MUTMUT_REUSED = ("killed", "survived")  # the mutmut statuses a nightly stores: the others may come from the machine


@dataclass
class VerdictStore:
    """The parts of earlier runs by part name (a format's share of the gate, a catalogue under an adapter)."""

    path: Path
    parts: dict[str, dict] = field(default_factory=dict)
    note: str = ""  # why nothing was reused from the file ("" when it was read)

    @classmethod
    def load(cls, path: Path) -> VerdictStore:
        if not path.exists():
            return cls(path, note=f"verdict store {path}: none yet, a full run")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            return cls(path, note=f"verdict store {path}: unreadable ({exc}), a full run")
        if not isinstance(data, dict) or data.get("layout") != LAYOUT or not isinstance(data.get("parts"), dict):
            return cls(path, note=f"verdict store {path}: not a verdict store of layout {LAYOUT}, a full run")
        wrong = next((f"{name}: {why}" for name, part in data["parts"].items() for why in [_wrong(part)] if why), "")
        if wrong:
            return cls(path, note=f"verdict store {path}: damaged ({wrong}), a full run")
        if data.get("harness") != harness.__version__:
            return cls(path, note=f"verdict store {path}: written by harness {data.get('harness')}, this is "
                                  f"{harness.__version__}: a full run")
        return cls(path, dict(data["parts"]))

    def part(self, name: str) -> dict:
        """The stored state of part ``name`` (empty when there is none)."""
        return self.parts.get(name, {})

    def save(self) -> str:
        """Write the store atomically; a line saying it could not (the run's verdicts stand either way), or ""."""
        data = {"layout": LAYOUT, "harness": harness.__version__, "parts": self.parts}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(prefix=self.path.name, suffix=".tmp", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    json.dump(data, out, separators=(",", ":"))
                os.replace(temporary, self.path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError as exc:
            return f"verdict store {self.path}: not written ({exc}); the next run is a full one"
        return ""


def _wrong(part: object) -> str:
    """What makes ``part`` not a part this module writes ("" when it is one)."""
    if not isinstance(part, dict):
        return "not an object"
    collection = part.get("collection")
    if not (isinstance(collection, dict) and isinstance(collection.get("key"), str)
            and _strings(collection.get("items")) and _strings(collection.get("others"))
            and _strings(collection.get("properties", []))):
        return "collection"
    statements = part.get("statements")
    if not (isinstance(statements, dict) and all(_numbers(s) for s in statements.values())):
        return "statements"
    contracts = part.get("contracts")
    if not isinstance(contracts, dict):
        return "contracts"
    for name, c in contracts.items():
        if not (isinstance(c, dict) and isinstance(c.get("key"), str) and isinstance(c.get("entry"), dict)
                and c["entry"].get("outcome") in GREEN and isinstance(c["entry"].get("duration", 0.0), (int, float))
                and isinstance(c.get("lines"), dict)
                and all(f in statements and _numbers(ns) for f, ns in c["lines"].items())):
            return f"contract {name}"
    if not isinstance(part.get("startup"), (int, float)):
        return "startup"
    mutants = part.get("mutants")
    if not isinstance(mutants, dict):
        return "mutants"
    for name, m in mutants.items():
        if not (isinstance(m, dict) and isinstance(m.get("key"), str) and _result(m.get("result"))
                and isinstance(m.get("ran"), dict) and all(isinstance(k, str) for k in m["ran"].values())):
            return f"known bug {name}"
    return _wrong_nightly(part)


_RECORD_FIELDS = {"name": str, "file": str, "function": str, "status": str, "diff": str, "kill_message": str,
                  "how": str, "format": str}


def _wrong_nightly(part: dict) -> str:
    """What makes the nightly's share of ``part`` (mutmut's mutants, the exploration) not one it writes."""
    mutmut = part.get("mutmut", {})
    if not isinstance(mutmut, dict):
        return "mutmut"
    for name, m in mutmut.items():
        if not (isinstance(m, dict) and isinstance(m.get("key"), str) and _record(m.get("record"))):
            return f"mutmut mutant {name}"
    exploration = part.get("exploration")
    if exploration is not None and not (
            isinstance(exploration, dict) and isinstance(exploration.get("key"), str)
            and isinstance(exploration.get("wall"), (int, float)) and isinstance(exploration.get("ran"), dict)
            and all(isinstance(n, int) and not isinstance(n, bool) for n in exploration["ran"].values())):
        return "exploration"
    return ""


_RESULT_FIELDS = {"verdict": str, "reason": str, "message": str, "kind": str, "engine": str,
                  "duration": (int, float)}


def _result(result: object) -> bool:
    return (isinstance(result, dict) and all(isinstance(result.get(k), t) for k, t in _RESULT_FIELDS.items())
            and result["verdict"] in {v.value for v in Verdict}
            and all(_strings(result.get(k)) for k in ("covered_by", "killed_by", "tests"))
            and all(result.get(k) is None or (_numbers(result[k]) and len(result[k]) == 2) for k in ("start", "end")))


def _record(record: object) -> bool:
    return (isinstance(record, dict) and all(isinstance(record.get(k), t) for k, t in _RECORD_FIELDS.items())
            and record["status"] in MUTMUT_REUSED and (record.get("duration") is None or isinstance(record["duration"], (int, float)))
            and _strings(record.get("covered_by")) and _strings(record.get("killed_by")))


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _numbers(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
