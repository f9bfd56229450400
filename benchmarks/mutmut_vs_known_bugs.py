"""Per-mutant cost of plain mutmut and of the known-bug runner, on the same reference and contracts.

Both run here, one after the other, with one job each, and both sides count
their setup (each spread over the mutants that run tested):

- the known-bug runner: every catalogued bug, each in a fork of a warm worker,
  patched in memory, with its named contracts (what ``harness gate`` does);
  cost = wall time from starting its worker through the baseline run to the
  last bug / number of known bugs;
- plain mutmut: ``mutmut run`` in an isolated copy (as
  ``benchmarks/nightly_vs_mutmut.py`` runs it, every contract its suite),
  asked for a deterministic slice of its mutants of ``harness/reference/``
  (``--mutmut-shard 1/N``, the nightly's shard rule picks the names, untimed);
  cost = wall time of the whole ``mutmut run`` (its copy, mutant generation,
  stats and clean run included) / mutants it tested.

A smaller slice spreads mutmut's setup over fewer mutants, as a smaller
catalogue would the known-bug runner's; the known-bug runner's setup and its
cost without it are printed too, so the slice's weight can be judged.

    python benchmarks/mutmut_vs_known_bugs.py [--repeat 3] [--mutmut-shard 1/8]

Prints every run, then the medians and their ratio (mutmut / known bug), setup included on both sides.
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness.cli.mutate import BUNDLED_CATALOGUE
from harness.mutation.catalogue import load_catalogue
from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.known_bug_run import KnownBugRun
from harness.mutation.shard import Shard
from harness.mutation.workspace import Project
from harness.nightly.mutmut_run import generate_mutants
from harness.processes import Children
from nightly_vs_mutmut import plain_mutmut  # the script beside this one (benchmarks/ is first on the path)


def known_bug_cost(project: Project) -> tuple[float, float, int]:
    """Seconds per known bug with the setup (worker start, baseline) counted, the setup, and the bugs run."""
    mutants = load_catalogue(BUNDLED_CATALOGUE).select(None)
    started = time.perf_counter()
    with Children() as children, KnownBugRun(project, ContractsExecutor(children), jobs=1) as run:
        baseline = run.baseline()
        setup = time.perf_counter() - started
        run.run(mutants, baseline, lambda result: None)
    return (time.perf_counter() - started) / len(mutants), setup, len(mutants)


def mutmut_cost(project: Project, shard: str) -> tuple[float, int]:
    """Seconds per mutant of a plain ``mutmut run`` of the shard's mutants, its setup included; mutants tested."""
    with Children() as children:
        names = [m.name for m in generate_mutants(project, children, Shard.parse(shard)).mutants]
    wall, _, statuses = plain_mutmut(1, names)
    tested = [n for n in names if statuses.get(n, "not checked") != "not checked"]
    if not tested:
        raise SystemExit(f"mutmut tested none of the {len(names)} mutants asked for")
    return wall / len(tested), len(tested)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--mutmut-shard", default="1/8", metavar="K/N", help="the slice of mutmut's mutants to run")
    args = parser.parse_args()
    project = Project.bundled()
    known, setups, generic = [], [], []
    for n in range(1, args.repeat + 1):
        cost, setup, count = known_bug_cost(project)
        known.append(cost)
        setups.append(setup)
        print(f"run {n}: known-bug runner {cost:.2f} s per mutant, setup included ({count} known bugs; "
              f"setup {setup:.1f}s, {cost - setup / count:.2f} s per mutant without it)", flush=True)
        cost, count = mutmut_cost(project, args.mutmut_shard)
        generic.append(cost)
        print(f"run {n}: plain mutmut {cost:.2f} s per mutant, setup included ({count} mutants, shard {args.mutmut_shard})",
              flush=True)
    known_median, mutmut_median = statistics.median(known), statistics.median(generic)
    print(f"median per mutant, setup included on both sides: known-bug runner {known_median:.2f} s, "
          f"plain mutmut {mutmut_median:.2f} s, ratio mutmut/known {mutmut_median / known_median:.2f} "
          f"(known-bug runner's setup: median {statistics.median(setups):.1f}s)")


if __name__ == "__main__":
    main()
