"""mutmut's mutants of the reference: made by mutmut's generator, in an isolated copy, never in the user's tree.

The copy is the installed package (``Project.bundled()``) plus the
``pyproject.toml`` mutmut reads its configuration from. In the copy every
exemption pragma is stripped, so mutmut makes every mutant of an exempted
line; the report exempts only the mutants each pragma names
(``harness.nightly.equivalents``). The mutants are run by the warm engine
(:mod:`harness.nightly.generic_run`), not by mutmut's runner.
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

from harness.mutation.shard import Shard
from harness.mutation.workspace import Project, Workspace
from harness.nightly import mutmut_driver
from harness.nightly.equivalents import ExemptionError, load_exemptions, mutant_requests, strip, unmade
from harness.nightly.generation_cache import GenerationCache
from harness.nightly.locate import Change, locate
from harness.processes import Children, exit_text, run_child, run_owned

REFERENCE_FILES = ("harness/reference/*",)

_CONFIG = """\
[tool.mutmut]
source_paths = ["harness"]
only_mutate = {only}
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
    """mutmut stopped before it listed any mutant."""


@dataclass(frozen=True)
class GeneratedMutant:
    name: str  # mutmut's mutant name, e.g. harness.reference.sse.x_decode__mutmut_3
    file: str  # relative to the project root
    function: str  # ``Class.method`` or ``function``
    diff: str  # mutmut's diff of the function against its mutant
    change: Change | None  # where it sits in the original file; None: its diff could not be placed


@dataclass(frozen=True)
class Generated:
    mutants: list[GeneratedMutant]  # this shard's share
    total: int  # mutants mutmut makes over every shard
    sources: dict[str, str]  # the original text of each file with a mutant
    exemptions: tuple  # the reference's reviewed pragmas (harness.nightly.equivalents.Exemption)
    kept: int = 0  # files whose mutants came from the cache, not from mutmut's generator


@dataclass(frozen=True)
class MutmutMutant:
    name: str
    file: str
    function: str
    status: str  # in mutmut's status names: killed, survived, no tests, timeout, suspicious
    diff: str
    duration: float | None  # seconds
    covered_by: tuple[str, ...]  # contract ids that ran the mutated lines unpatched
    killed_by: tuple[str, ...]  # the contract that killed it
    kill_message: str = ""
    how: str = ""  # how the verdict was reached: the engine's verdict, the examples, the retry
    format: str = ""  # the wire format whose contracts settled it (harness.nightly.formats_run); "": none ran it


@dataclass(frozen=True)
class MutmutRun:
    mutants: list[MutmutMutant]
    total: int  # mutants mutmut makes over every shard
    sources: dict[str, str]  # the original text of each file with a mutant
    exemptions: tuple = ()  # the reference's reviewed pragmas (harness.nightly.equivalents.Exemption)


def _shares(files: list[str], root: Path, n: int) -> list[list[str]]:
    """``files`` in ``n`` shares of about equal size (mutmut's work grows with a file's length)."""
    shares: list[list[str]] = [[] for _ in range(max(1, n))]
    sizes = [0] * len(shares)
    for file in sorted(files, key=lambda f: -(root / f).stat().st_size):
        smallest = sizes.index(min(sizes))
        shares[smallest].append(file)
        sizes[smallest] += (root / file).stat().st_size
    return [s for s in shares if s]


def generate_mutants(project: Project, children: Children, shard: Shard | None, jobs: int = 1,
                     only: tuple[str, ...] = REFERENCE_FILES, cache: GenerationCache | None = None) -> Generated:
    """This shard's share of every mutant mutmut makes in the files matching ``only``, made by ``jobs`` drivers;
    with ``cache``, a file whose mutants it holds is not made again (and what is made is kept there).

    Raises :class:`MutmutFailed` if mutmut could not list them.
    """
    files = [f for f in project.files if f.endswith(".py") and any(fnmatch(f, p) for p in only)]
    with Workspace(project, "mutmut") as ws:
        ws.write("pyproject.toml", _CONFIG.format(only=json.dumps(list(only))))
        exemptions = load_exemptions(ws.root)
        for file in sorted({e.file for e in exemptions}):
            # Exempt per mutant, not per line: mutmut makes every mutant, the report classifies each.
            ws.write(file, strip(project.read(file) or "", [e for e in exemptions if e.file == file]))
        texts = {file: (ws.root / file).read_text(encoding="utf-8") for file in files}
        kept = {file: cache.load(file, texts[file]) for file in files} if cache else {}
        parts = [records for records in kept.values() if records is not None]
        files = [file for file in files if kept.get(file) is None]
        made: list[list[dict]] = []

        def make(n: int, share: list[str]) -> list[dict]:
            spec, out = ws.root / f"generate-{n}.json", ws.root / f"mutants-{n}.json"
            spec.write_text(json.dumps({"files": share, "out": str(out)}), encoding="utf-8")
            _, tail, _, _ = run_child(children, [sys.executable, mutmut_driver.__file__, str(spec)], ws.root,
                                      dict(os.environ), None)
            if not out.exists():
                raise MutmutFailed(f"mutmut's generator stopped before listing any mutant; the end of its output:"
                                   f"\n{tail}")
            return json.loads(out.read_text(encoding="utf-8"))

        if files:
            with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                made = list(pool.map(make, *zip(*enumerate(_shares(files, ws.root, jobs)))))
            parts += made
            if cache:
                for file in files:
                    cache.save(file, texts[file], [r for part in made for r in part if r["file"] == file])
    records = sorted((r for part in parts for r in part), key=lambda r: r["name"])
    chosen = shard.select(records) if shard else records
    sources = {file: project.read(file) or "" for file in sorted({r["file"] for r in chosen})}
    mutants = []
    for record in chosen:
        file = record["file"]
        stripped = strip(sources[file], [e for e in exemptions if e.file == file])
        try:
            change = locate(record["diff"], stripped, record["function"])
        except (LookupError, SyntaxError):
            change = None
        mutants.append(GeneratedMutant(record["name"], file, record["function"], record["diff"], change))
    return Generated(mutants, len(records), sources, tuple(exemptions), kept=sum(r is not None for r in kept.values()))
