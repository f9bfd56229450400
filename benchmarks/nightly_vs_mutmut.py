"""`harness nightly` against plain `mutmut run` on the same reference and contracts, side by side, with verdicts.

Both sides include their own setup: the nightly's whole run (mutmut's
generation with an empty generation cache, so it is paid as mutmut pays it;
every format's baseline, exploration within ``--explore-budget``, known bugs,
mutmut's mutants through the warm engine, reports) and its mutmut phase alone;
plain mutmut's whole `mutmut run` (its copy, generation, stats run, clean run
and every mutant) in an isolated copy of the installed package, configured
with the contracts as its test suite under the gate's profile. CPU is the
side's own process and every child it waited for; each repeat runs the two
sides in turn, the first side alternating, and the load average is printed
before and after. The plain copy has the reference's exemption pragmas stripped, as
the nightly's has, so both make the same mutants under the same names and
the verdicts compare one to one (a user's own run would honour the pragmas
and skip their lines' mutants). Plain mutmut runs the contracts against the
default (chat) reference only, while the nightly runs each format's contracts
against its own reference: the mutants only another format's contracts reach
are listed as differences (``no tests`` on mutmut's side).

Each nightly is followed by a second one with nothing changed, in the same
folder (its verdict store and generation cache kept, the same seed): what an
incremental nightly costs when nothing changed, as a ratio of the first.
``--shard K/N`` runs the nightly's shard (every format's baseline and
exploration in full, that share of the known bugs and mutmut's mutants) and
plain mutmut on the same share of mutmut's mutants (its setup, the stats and
clean runs over every contract, paid whole), for a machine that cannot
afford the whole.

    python benchmarks/nightly_vs_mutmut.py [--jobs 2] [--repeat 1] [--seed 12345] [--explore-budget SECONDS]
                                          [--shard K/N]

Prints wall and CPU seconds per side (medians over the repeats), the ratios,
and every mutant whose verdict differs, with both reasons.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.adapter import DEFAULT_SPEC, ENV_VAR
from harness.mutation.workspace import Project, Workspace
from harness.nightly.equivalents import load_exemptions, strip
from harness.nightly.explore_budget import DEFAULT_BUDGET

CONFIG = """\
[tool.mutmut]
source_paths = ["harness"]
only_mutate = ["harness/reference/*"]
pytest_add_cli_args_test_selection = ["harness/contracts"]
pytest_add_cli_args = ["-p", "no:cacheprovider", "--harness-profile", "ci"]
"""
# mutmut's status names by exit code, as mutmut.stats reads them.
STATUSES = "from mutmut.stats import status_by_exit_code as s; import json; print(json.dumps(s))"


def timed(args: list[str], cwd: Path, env: dict) -> tuple[float, float, str]:
    """(wall, CPU of the process and its children, output) of one command run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 8):  # 8: below the nightly's break threshold, still a full run
        raise SystemExit(f"{args[:3]} ended with {done.returncode}:\n{done.stdout[-3000:]}")
    return wall, cpu, done.stdout


def nightly(jobs: int, seed: int, budget: float, shard: str | None) -> tuple[float, float, float, float, float,
                                                                            dict[str, str]]:
    """(wall, CPU, the mutmut phase's wall, the second run's wall and CPU, mutant name -> status) of one
    `harness nightly` and of a second one with nothing changed, in the same folder."""
    with tempfile.TemporaryDirectory(prefix="bench-nightly-") as tmp:
        args = [sys.executable, "-m", "harness", "nightly", "--jobs", str(jobs), "--hypothesis-seed", str(seed),
                "--explore-budget", str(budget), "--report-dir", tmp, *(["--shard", shard] if shard else [])]
        # An empty cache folder and no verdict store: the first run pays the generation, as plain mutmut pays its
        # own, and every baseline. The second finds both where the first left them (the default store, in tmp).
        env = {**os.environ, "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
        wall, cpu, out = timed(args, Path(tmp), env)
        # One mutmut phase per format (each format's contracts against its own reference): their sum.
        phase = float(sum(int(n) for n in re.findall(r": mutmut mutants done in (\d+)s", out)))
        report = json.loads((Path(tmp) / "mutation-report.json").read_text(encoding="utf-8"))
        print(_phases(out, "first"), flush=True)
        again_wall, again_cpu, again_out = timed(args, Path(tmp), env)
        print(_phases(again_out, "again"), flush=True)
        again = json.loads((Path(tmp) / "mutation-report.json").read_text(encoding="utf-8"))
    statuses = _statuses(report)
    if _statuses(again) != statuses:
        changed = sorted(n for n in statuses if _statuses(again).get(n) != statuses[n])
        raise SystemExit(f"the second nightly's verdicts differ from the first's on {changed[:20]}:\n"
                         f"{again_out[-3000:]}")
    return wall, cpu, phase, again_wall, again_cpu, statuses


PHASES = re.compile(r"^(mutmut mutants: \d+ of|\S+: (baseline green|exploration:|known bugs:|mutmut mutants done|"
                    r"mutmut mutants its|\d+ of \d+ known-bug)|mutmut: \d+ of)")


def _phases(out: str, which: str) -> str:
    """The nightly's console lines that say what each phase cost and reused."""
    return "\n".join(f"    {which}: {line}" for line in out.splitlines() if PHASES.match(line))


def _statuses(report: dict) -> dict[str, str]:
    reasons = {m["id"]: m["statusReason"].split("\n")[0] for f in report["files"].values() for m in f["mutants"]
               if "__mutmut_" in m["id"]}
    return {name: _mutmut_word(reason) for name, reason in reasons.items()}


def _mutmut_word(reason: str) -> str:
    """The mutmut status a nightly reason names (``mutmut: killed``, or an exemption's ``(mutmut: survived; ...``)."""
    return re.search(r"mutmut: ([a-z ]+)", reason).group(1)


def plain_mutmut(jobs: int, names: list[str] | None = None) -> tuple[float, float, dict[str, str]]:
    """(wall, CPU, mutant name -> status) of one plain `mutmut run`, of every mutant or only of ``names``."""
    project = Project.bundled()
    exemptions = load_exemptions()
    with Workspace(project, "bench-mutmut") as ws:
        ws.write("pyproject.toml", CONFIG)
        for file in sorted({e.file for e in exemptions}):
            ws.write(file, strip(project.read(file) or "", [e for e in exemptions if e.file == file]))
        (ws.root / "mutants").mkdir()
        # mutmut's copy first on the path, so the contracts import the mutated reference, not the installed one.
        env = {**os.environ, ENV_VAR: DEFAULT_SPEC, "PYTHONPATH": str(ws.root / "mutants")}
        wall, cpu, _ = timed([sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs), *(names or [])],
                            ws.root, env)
        codes = json.loads(subprocess.run([sys.executable, "-c", STATUSES], capture_output=True, text=True).stdout)
        statuses = {}
        for meta in (ws.root / "mutants").rglob("*.py.meta"):
            for name, code in json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"].items():
                statuses[name] = codes.get(str(code), "not checked") if code is not None else "not checked"
    return wall, cpu, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--explore-budget", type=float, default=DEFAULT_BUDGET)
    parser.add_argument("--shard", metavar="K/N", help="the nightly's shard, and plain mutmut on its mutants")
    args = parser.parse_args()
    runs_n, runs_m = [], []
    load = os.getloadavg()[0]

    def run_nightly(n: int) -> None:
        runs_n.append(nightly(args.jobs, args.seed, args.explore_budget, args.shard))
        print(f"  nightly #{n + 1}: {runs_n[-1][0]:.0f}s wall, {runs_n[-1][1]:.0f}s CPU (its mutmut phase "
              f"{runs_n[-1][2]:.0f}s); again with nothing changed: {runs_n[-1][3]:.0f}s wall, {runs_n[-1][4]:.0f}s CPU "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)

    def run_mutmut(n: int) -> None:
        # A shard's mutants by name, as the nightly's report lists them (so the nightly runs first); else all.
        names = sorted(runs_n[-1][5]) if args.shard else None
        runs_m.append(plain_mutmut(args.jobs, names))
        print(f"  plain mutmut #{n + 1}: {runs_m[-1][0]:.0f}s wall, {runs_m[-1][1]:.0f}s CPU "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)

    for n in range(args.repeat):
        for side in ((run_nightly, run_mutmut) if n % 2 == 0 or args.shard else (run_mutmut, run_nightly)):
            side(n)
    wall_n, cpu_n, phase_n, wall_2, cpu_2 = (statistics.median(r[i] for r in runs_n) for i in range(5))
    wall_m, cpu_m = (statistics.median(r[i] for r in runs_m) for i in range(2))
    ours, theirs = runs_n[-1][5], runs_m[-1][2]
    print(f"\nboth sides with their setup, {args.jobs} jobs, exploration budget {args.explore_budget:g}s"
          + (f", shard {args.shard}" if args.shard else "") + f", medians of "
          f"{args.repeat}; load average {load:.1f} before, {os.getloadavg()[0]:.1f} after:")
    print(f"  harness nightly (whole run)   {wall_n:7.0f}s wall {cpu_n:7.0f}s CPU")
    print(f"  harness nightly (mutmut phase){phase_n:7.0f}s wall")
    print(f"  harness nightly, again        {wall_2:7.0f}s wall {cpu_2:7.0f}s CPU (nothing changed: the verdict store)")
    print(f"  plain mutmut run              {wall_m:7.0f}s wall {cpu_m:7.0f}s CPU")
    print(f"  ratio second nightly/first: wall {wall_2 / wall_n:.2f}x, CPU {cpu_2 / cpu_n:.2f}x")
    print(f"  ratio nightly/mutmut: wall {wall_n / wall_m:.2f}x, CPU {cpu_n / cpu_m:.2f}x; "
          f"mutmut phase/mutmut wall {phase_n / wall_m:.2f}x")
    print(f"  mutants: nightly {len(ours)}, plain mutmut {len(theirs)} (pragmas stripped in both)")
    differ = sorted(n for n in set(ours) & set(theirs) if ours[n] != theirs[n])
    print(f"  verdicts differ on {len(differ)} of {len(set(ours) & set(theirs))} shared mutants")
    for name in differ:
        print(f"    {name}: nightly {ours[name]}, mutmut {theirs[name]}")
    for name in sorted(set(ours) ^ set(theirs)):
        print(f"    {name}: only in {'the nightly' if name in ours else 'plain mutmut'}")


if __name__ == "__main__":
    main()
