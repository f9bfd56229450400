"""mutmut over the reference, in an isolated copy, with the contracts as its test suite.

The copy is the installed package (``Project.bundled()``) plus the
``pyproject.toml`` mutmut reads its configuration from. mutmut writes its
``mutants/`` directory inside that copy, never in the user's tree; the copy
goes first on ``PYTHONPATH`` so the contracts import the mutated reference,
and the shadow guard checks that they did.

In the copy every exemption pragma is stripped, so mutmut makes and runs
every mutant of an exempted line; the report exempts only the mutants each
pragma names (``harness.nightly.equivalents``).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness.adapter import DEFAULT_SPEC, ENV_VAR
from harness.mutation.in_memory_executor import HYPOTHESIS_CACHE
from harness.mutation.shard import Shard
from harness.mutation.workspace import Project, Workspace
from harness.nightly import mutmut_driver
from harness.nightly.equivalents import ExemptionError, load_exemptions, mutant_requests, strip, unmade
from harness.nightly.kill_recorder import PROBE_ENV
from harness.nightly.shadow_guard import check_imports, read_imports
from harness.processes import Children, exit_text, run_child, run_owned

REFERENCE_FILES = ("harness/reference/*",)
CONTRACTS = "harness/contracts"
PROGRESS_EVERY = 30.0  # seconds between progress lines

_CONFIG = """\
[tool.mutmut]
source_paths = ["harness"]
only_mutate = {only}
pytest_add_cli_args_test_selection = {contracts}
pytest_add_cli_args = ["-p", "no:cacheprovider", "--harness-profile", "ci", "--adapter-timeout", "0", "-p", "harness.nightly.kill_recorder"]
"""


def check_exemptions(exemptions: list, root: Path | None = None) -> None:
    """Refuse (:class:`ExemptionError`) a pragma naming a mutant that mutmut, asked itself, does not make on its line.

    Runs the driver in a scratch directory holding only mutmut's configuration
    (mutmut reads it from the working directory), never in the user's tree.
    """
    import subprocess
    import tempfile

    requests = mutant_requests(exemptions, root)
    with tempfile.TemporaryDirectory(prefix="harness-mutmut-count-") as tmp:
        scratch = Path(tmp)
        (scratch / "pyproject.toml").write_text('[tool.mutmut]\nsource_paths = ["src"]\n', encoding="utf-8")
        (scratch / "src").mkdir()
        (scratch / "requests.json").write_text(json.dumps(requests), encoding="utf-8")
        run, _, err, timed_out = run_owned(
            [sys.executable, mutmut_driver.__file__, "--count", "requests.json", "lines.json"],
            600, cwd=scratch, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        if timed_out or run.returncode != 0:
            raise MutmutFailed(f"mutmut could not list the exempted lines' mutants ({exit_text(run.returncode)}):\n"
                               f"{err[-2000:]}")
        errors = unmade(exemptions, json.loads((scratch / "lines.json").read_text(encoding="utf-8")))
    if errors:
        raise ExemptionError("\n".join(errors))


class MutmutFailed(Exception):
    """mutmut stopped before it reported any verdict."""


@dataclass(frozen=True)
class MutmutMutant:
    name: str  # mutmut's mutant name, e.g. harness.reference.sse.x_decode__mutmut_3
    file: str  # relative to the project root
    function: str  # ``Class.method`` or ``function``
    status: str  # mutmut's status name: killed, survived, no tests, ...
    diff: str  # mutmut's diff of the function against its mutant
    duration: float | None  # seconds
    covered_by: tuple[str, ...]  # contract ids that ran the mutated function
    killed_by: tuple[str, ...]  # the contract that failed first under the mutant
    kill_message: str = ""


@dataclass(frozen=True)
class MutmutRun:
    mutants: list[MutmutMutant]
    total: int  # mutants mutmut makes over every shard
    sources: dict[str, str]  # the original text of each file with a mutant
    exemptions: tuple = ()  # the reference's reviewed pragmas (harness.nightly.equivalents.Exemption)


def contract_id(nodeid: str) -> str:
    """``harness/contracts/test_x.py::t`` -> ``test_x.py::t``, the ids the known-bug reports use."""
    return nodeid.removeprefix(CONTRACTS + "/")


def _mutant(record: dict) -> MutmutMutant:
    kill = record.get("kill") or {}
    return MutmutMutant(
        name=record["name"],
        file=record["file"],
        function=record["function"],
        status=record["status"],
        diff=record["diff"],
        duration=record["duration"],
        covered_by=tuple(contract_id(t) for t in record["covered_by"]),
        killed_by=(contract_id(kill["test"]),) if kill else (),
        kill_message=kill.get("message", ""),
    )


class _Watcher:
    """Prints how far mutmut got, from the meta files it rewrites after every mutant."""

    def __init__(self, root: Path, selected: Path, say: Callable[[str], None]) -> None:
        self.root, self.selected, self.say = root, selected, say
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._last = ""

    def _line(self) -> str:
        from mutmut.stats import status_by_exit_code

        if not self.selected.exists():
            return ""
        wanted = set(json.loads(self.selected.read_text(encoding="utf-8")))
        counts: Counter[str] = Counter()
        for meta in (self.root / "mutants").rglob("*.meta"):
            try:
                codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
            except (OSError, ValueError, KeyError):
                continue  # mutmut is rewriting it
            counts.update(status_by_exit_code[c] for n, c in codes.items() if n in wanted and c is not None)
        done = sum(counts.values())
        detail = ", ".join(f"{n} {s}" for s, n in counts.most_common())
        return f"mutmut: {done}/{len(wanted)} mutants tested" + (f" ({detail})" if detail else "")

    def _loop(self) -> None:
        while not self._stop.wait(PROGRESS_EVERY):
            line = self._line()
            if line and line != self._last:
                self._last = line
                self.say(line)

    def __enter__(self) -> _Watcher:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()


def run_mutmut(
    project: Project,
    children: Children,
    jobs: int,
    shard: Shard | None,
    only: tuple[str, ...] = REFERENCE_FILES,
    contracts: tuple[str, ...] = (CONTRACTS,),
    say: Callable[[str], None] = print,
) -> MutmutRun:
    """Run mutmut on this shard's mutants of the files matching ``only``; raise if it could not.

    ``contracts`` (paths under the copy's root) are mutmut's test suite: all of them unless a
    caller wants a small slice.
    """
    with Workspace(project, "mutmut") as ws:
        config = _CONFIG.format(only=json.dumps(list(only)), contracts=json.dumps(list(contracts)))
        ws.write("pyproject.toml", config)
        exemptions = load_exemptions(ws.root)
        for file in sorted({e.file for e in exemptions}):
            # Exempt per mutant, not per line: mutmut makes every mutant, the report classifies each.
            ws.write(file, strip(project.read(file) or "", [e for e in exemptions if e.file == file]))
        mutated_root = ws.root / "mutants"
        probe = ws.root / ".harness-nightly"
        # Made before mutmut starts, so the PYTHONPATH entry below names a directory
        # from the interpreter's first import on.
        mutated_root.mkdir()
        probe.mkdir()
        spec = {
            "jobs": jobs,
            "shard": str(shard) if shard else None,  # the driver takes its share by the same rule
            "probe": str(probe),
            "selected": str(probe / "selected.json"),
            "out": str(probe / "results.json"),
        }
        spec_path = probe / "spec.json"
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        env = {
            **os.environ,
            ENV_VAR: DEFAULT_SPEC,
            PROBE_ENV: str(probe),
            "PYTHONPATH": str(mutated_root),
            "HYPOTHESIS_STORAGE_DIRECTORY": str(HYPOTHESIS_CACHE),
        }
        started = time.perf_counter()
        with _Watcher(ws.root, Path(spec["selected"]), say):
            args = [sys.executable, mutmut_driver.__file__, str(spec_path)]
            _, tail, _, _ = run_child(children, args, ws.root, env, None)
        out = Path(spec["out"])
        data = json.loads(out.read_text(encoding="utf-8")) if out.exists() else None
        imports = read_imports(probe / "imports.json")
        # mutmut may have stopped *because* it tested the wrong code: that is said first.
        if (data and data["mutants"]) or imports is not None:
            check_imports(imports, mutated_root)
        if data is None:
            raise MutmutFailed(f"mutmut stopped before reporting any verdict; the end of its output:\n{tail}")
        mutants = [_mutant(r) for r in data["mutants"]]
        say(f"mutmut: {len(mutants)} of {data['total']} mutants in {time.perf_counter() - started:.0f}s")
        sources = {file: project.read(file) or "" for file in sorted({m.file for m in mutants})}
    return MutmutRun(mutants=mutants, total=data["total"], sources=sources, exemptions=tuple(exemptions))
