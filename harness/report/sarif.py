"""SARIF 2.1.0 for every command: each result a person must act on, at a line, for code scanning.

``harness check`` and ``harness probe`` write it with ``--sarif PATH``; a
mutation run writes ``mutation.sarif`` beside its other reports. A failing
contract sits at the adapter line that raised, a surviving mutant at its
patched line. GitHub's code scanning rejects a result without a location, so
a result that has none (an adapter that returned a wrong value, an agent
program judged black-box) sits at the run's *fallback*: the adapter's or the
agent's source file. Each rule is described once in the driver (its id, what
it holds, its level); a result names it by ``ruleId`` and ``ruleIndex``.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from harness import __version__
from harness.outcomes.results import ERROR, Result
from harness.report import annotations as ci_annotations

VERSION = "2.1.0"
SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
TOOL = "agent-contract-harness"
SRCROOT = "%SRCROOT%"  # uris relative to the checkout; code scanning resolves it to the repository root

Location = tuple[str, int]


def rule_id(result: Result) -> str:
    """A contract's function (``module.py::test_name``, without its parameters), a probe's ``scenario::rule``, a mutant's verdict."""
    if not result.level:
        return "mutant/" + re.sub(r"[^a-z0-9]+", "-", (result.kind or result.status).lower()).strip("-")
    return result.name.partition("[")[0]


def _artifact(file: str) -> dict[str, Any]:
    path = ci_annotations.relative(file)
    if Path(path).is_absolute():
        return {"uri": Path(path).as_uri()}
    return {"uri": PurePosixPath(Path(path)).as_posix(), "uriBaseId": SRCROOT}


def _location(where: Location) -> dict[str, Any]:
    file, line = where
    return {"physicalLocation": {"artifactLocation": _artifact(file), "region": {"startLine": max(1, int(line))}}}


def _rule(result: Result) -> dict[str, Any]:
    # A contract's rule is what it holds; a mutant's rule is its verdict (its title describes that one mutant).
    described = (result.title if result.level else result.kind) or rule_id(result)
    properties = {k: v for k, v in (("level", result.level), ("capability", result.capability)) if v}
    rule: dict[str, Any] = {"id": rule_id(result), "shortDescription": {"text": described}}
    return rule | ({"properties": properties} if properties else {})


def program_source(command: str) -> Location | None:
    """The program ``command`` runs, at line 1: its first argument that is a file (``node bridge.js``), else itself."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    found = next((w for w in [*words[1:], *words[:1]] if Path(w).is_file()), None)
    return (found, 1) if found else None


def sarif_log(results: Sequence[Result], command: str, fallback: Location | None = None,
              tested: bool = True) -> dict[str, Any]:
    """The SARIF log of one run of ``command``: one result per problem, in the caller's order (most important first).

    ``tested``: whether the run tested anything; a run that tested nothing is never a successful execution.
    """
    problems = [r for r in results if r.is_problem]
    rules: dict[str, int] = {}
    driver_rules: list[dict[str, Any]] = []
    out = []
    for result in problems:
        rid = rule_id(result)
        if rid not in rules:
            rules[rid] = len(driver_rules)
            driver_rules.append(_rule(result))
        where = result.location or fallback
        entry: dict[str, Any] = {
            "ruleId": rid,
            "ruleIndex": rules[rid],
            "level": "error",
            "message": {"text": "\n".join(result.lines()) or f"{result.status}: {result.name}"},
            "properties": {"name": result.name, "status": result.status, **({"kind": result.kind} if result.kind else {})},
        }
        if where is not None:
            entry["locations"] = [_location(where)]
        out.append(entry)
    run = {
        "tool": {"driver": {"name": TOOL, "version": __version__, "rules": driver_rules}},
        "invocations": [{"commandLine": command, "executionSuccessful": tested and not any(r.status == ERROR for r in problems)}],
        "originalUriBaseIds": {SRCROOT: {"uri": ci_annotations.workspace().as_uri() + "/"}},
        "results": out,
    }
    return {"$schema": SCHEMA, "version": VERSION, "runs": [run]}


def write_sarif(results: Sequence[Result], path: str | Path, command: str, fallback: Location | None = None,
                tested: bool = True) -> None:
    """Write :func:`sarif_log` to ``path`` (its directory made if missing)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(sarif_log(results, command, fallback, tested), indent=2) + "\n", encoding="utf-8")
