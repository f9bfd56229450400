"""The expectations file of ``harness check --expectations``: read, checked against its schema, and rewritten.

TOML or JSON, by the file's suffix; checked against
``harness/schemas/expectations.json`` as every table the harness reads is, so
a bad file is a usage error naming the file, the line, the contract and the
field. A TOML file is rewritten with tomlkit, which keeps its comments and
layout; a JSON file keeps its order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import tomlkit

from harness.config.table_schema import expected, load_schema, parse_text, problems, read_text

SCHEMA = "expectations.json"
SUFFIXES = (".toml", ".json")
MAX_BYTES = 1024 * 1024  # ~15,000 entries, ten times every contract there is; a bigger file took minutes to check
FAIL = "fail"
PENDING = "pending"


class ExpectationsError(Exception):
    """The file cannot be used: unreadable, not TOML or JSON, or against its schema."""


@dataclass(frozen=True)
class Expectation:
    status: str  # FAIL or PENDING
    reason: str = ""
    finding: str = ""  # a docs/findings/ name or a URL

    def why(self) -> str:
        """The reason and the finding, as the console shows them."""
        finding = self.finding
        if finding and not finding.startswith(("http://", "https://")):
            finding = f"docs/findings/{finding}.md"
        return "; ".join(part for part in (self.reason, finding) if part)


@dataclass(frozen=True)
class Expectations:
    path: Path
    entries: dict[str, Expectation]  # by contract id, in the file's order

    def changed(self, removed: Iterable[str], added: Mapping[str, Expectation]) -> Expectations:
        gone = set(removed)
        kept = {cid: e for cid, e in self.entries.items() if cid not in gone}
        return Expectations(self.path, kept | {cid: e for cid, e in added.items() if cid not in kept})


def _suffix(path: Path) -> str:
    if path.suffix not in SUFFIXES:
        got = repr(path.suffix) if path.suffix else "no suffix"
        raise ExpectationsError(f"{path}: an expectations file ends in .toml or .json, got {got}")
    return path.suffix


def _refuse_repeats(pairs: list[tuple[str, object]]) -> dict:
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"key {key!r} is given twice")
        seen[key] = value
    return seen


def _parse(path: Path, text: str) -> object:
    return parse_text(path, text, ExpectationsError, None if _suffix(path) == ".toml" else _refuse_repeats)


# A line that starts another entry (or table) of either format: the end of the one before it.
_NEXT_ENTRY = re.compile(r"""^\s*(\[|\}|["'][^"']*::)""")


def _placer(path: Path, text: str):
    """Where a problem is: the file, the line of the field (else of its contract) and the contract."""
    lines = text.splitlines()

    def line_of(word: str, first: int = 1, entry: bool = False) -> int | None:
        # The word as a key: quoted, or bare between the characters that end a TOML key.
        pattern = re.compile(rf"""(["']){re.escape(word)}\1|(?<![\w.:/-]){re.escape(word)}(?![\w.:\[-])""")
        for n in range(first, len(lines) + 1):
            if entry and n > first and _NEXT_ENTRY.match(lines[n - 1]):
                return None  # not in this entry
            if pattern.search(lines[n - 1]):
                return n
        return None

    def place(table: tuple, field: str | None) -> str:
        # ("contracts", id): a field of an entry; ("contracts",) with the id as field: the entry itself.
        cid = table[1] if len(table) == 2 else (field if table == ("contracts",) else None)
        start = line_of(cid) if cid else None
        if start is not None:
            line = (line_of(field, start, entry=True) if field and field != cid else None) or start
        else:
            line = line_of(field) if field else None
        label = f"contract {cid!r}" if cid else "top level"
        return f"{path}:{line}: {label}: " if line else f"{path}: {label}: "

    return place


def _bad_ids(data: object, place) -> list[str]:
    """A line for each key of ``contracts`` that is not a contract id."""
    contracts = data.get("contracts") if isinstance(data, dict) else None
    if not isinstance(contracts, dict):
        return []
    schema = load_schema(SCHEMA)
    rule = schema["$defs"]["id"]
    return [f"{place(('contracts', cid), None)}not {expected(rule, schema)}"
            for cid in contracts if not re.fullmatch(rule["pattern"], cid)]


def read_expectations(path: Path) -> Expectations:
    """The file at ``path``, checked; every problem listed at once."""
    _suffix(path)
    text = read_text(path, ExpectationsError, "the expectations file", MAX_BYTES)
    data = _parse(path, text)
    place = _placer(path, text)
    # One line per problem: a reason checked by two parts of the schema is one problem.
    found = list(dict.fromkeys([*_bad_ids(data, place), *problems(SCHEMA, data, place)]))
    if len(found) == 1:
        raise ExpectationsError(found[0])
    if found:
        raise ExpectationsError(f"{len(found)} problems:\n" + "\n".join(f"  {line}" for line in found))
    entries = {
        cid: Expectation(entry["status"], entry.get("reason", ""), entry.get("finding", ""))
        for cid, entry in data.get("contracts", {}).items()
    }
    return Expectations(path, entries)


def empty_expectations(path: Path) -> Expectations:
    """A file ``--update-expectations`` is to create."""
    _suffix(path)
    return Expectations(path, {})


def _table(expectation: Expectation) -> dict[str, str]:
    fields = (("status", expectation.status), ("reason", expectation.reason), ("finding", expectation.finding))
    return {key: value for key, value in fields if value}


def write_expectations(path: Path, removed: Iterable[str], added: Mapping[str, Expectation]) -> None:
    """Drop the ``removed`` entries from the file and append the ``added`` ones; everything else stays as written."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    gone = list(removed)
    if _suffix(path) == ".toml":
        document = tomlkit.parse(text)
        if "contracts" not in document:
            document["contracts"] = tomlkit.table(is_super_table=True)
        contracts = document["contracts"]
        for cid in gone:
            contracts.pop(cid, None)
        for cid, expectation in added.items():
            table = tomlkit.table()
            table.update(_table(expectation))
            contracts[cid] = table
        path.write_text(tomlkit.dumps(document), encoding="utf-8")
        return
    data = json.loads(text) if text.strip() else {}
    contracts = data.setdefault("contracts", {})
    for cid in gone:
        contracts.pop(cid, None)
    contracts.update({cid: _table(expectation) for cid, expectation in added.items()})
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
