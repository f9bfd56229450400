"""mutmut's mutants through the warm engine on a slice: one small reference file, the two contracts that use it.

The names and diffs the nightly's generator writes are mutmut's own (its
``mutate_file_contents`` and ``get_diff_for_mutant`` asked in the same copy);
both halves of a two-shard run, merged, hold every mutant of the slice exactly
once, each run against only the contracts that ran its lines, with a verdict,
a location that rebuilds mutmut's mutant, and the contracts involved. This is
the whole pipeline the nightly runs, minus its size.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys

from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.known_bug_run import KnownBugRun
from harness.mutation.shard import Shard
from harness.mutation.workspace import Project, Workspace
from harness.nightly import mutmut_driver
from harness.nightly.generic_run import plan_generic, run_generic
from harness.nightly.locate import offset
from harness.nightly.mutmut_run import generate_mutants
from harness.outcomes.mutants import Position
from harness.processes import Children
from harness.report.merge import merge_reports
from harness.report.model import mutants as all_mutants
from harness.report.stryker_json import build_report

SLICE = ("harness/reference/distill.py",)
CONTRACTS = ["test_vector_text.py", "test_distillation_order.py"]
# A file with methods too: mutmut names and diffs a method's mutants apart from a function's.
COMPARED = ("harness/reference/distill.py", "harness/reference/accumulator.py")

_MUTMUTS_OWN = """
import json, sys
from pathlib import Path
from mutmut.mutation.diff_apply import get_diff_for_mutant
from mutmut.mutation.file_mutation import mutate_file_contents
from mutmut.utils.file_utils import walk_mutatable_files
from mutmut.utils.format_utils import get_mutant_name
sys.path.insert(0, sys.argv[1])
import mutmut_driver
own = {}
for path in walk_mutatable_files():
    mutated = mutate_file_contents(str(path), path.read_text(encoding="utf-8"))
    for name in mutated.mutant_names:
        full = get_mutant_name(path, name)
        own[full] = get_diff_for_mutant(full, source=mutated.code, path=path)
ours = {r["name"]: r["diff"] for r in mutmut_driver.generate()}
print(json.dumps({"own": own, "ours": ours}))
"""


def test_the_generator_names_and_diffs_every_mutant_as_mutmut_does() -> None:
    config = '[tool.mutmut]\nsource_paths = ["harness"]\nonly_mutate = %s\n' % json.dumps(list(COMPARED))
    with Workspace(Project.bundled(), "mutmut-compare") as ws:
        ws.write("pyproject.toml", config)
        out = subprocess.run([sys.executable, "-c", _MUTMUTS_OWN, str(mutmut_driver.__file__).rsplit("/", 1)[0]],
                             cwd=ws.root, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    found = json.loads(out.stdout)
    own, ours = found["own"], found["ours"]
    assert len(own) > 50 and any("ǁ" in name for name in own), "the slice holds functions and methods"
    assert sorted(ours) == sorted(own)
    different = [name for name in own if ours[name] != own[name]]
    assert not different, f"{len(different)} diffs differ from mutmut's, e.g. {different[0]}:\n" \
                          f"{ours[different[0]]}\nmutmut's:\n{own[different[0]]}"


def test_two_real_shards_merge_into_every_mutant_of_the_slice() -> None:
    runs = {}
    with Children() as children:
        with KnownBugRun(Project.bundled(), ContractsExecutor(children), jobs=1, baseline_contracts=CONTRACTS) as run:
            baseline = run.baseline(reach=True)
            for spec in ("1/2", "2/2"):
                generated = generate_mutants(Project.bundled(), children, Shard.parse(spec), only=SLICE)
                runs[spec] = run_generic(run, baseline, plan_generic(generated, baseline), 1, lambda _: None)
    reports = [build_report([], result, run={"shard": spec}) for spec, result in runs.items()]
    merged = all_mutants(merge_reports(reports))
    ids = [m["id"] for _, m in merged]
    total = runs["1/2"].total
    assert total >= 4 and len(ids) == len(set(ids)) == total
    assert {result.total for result in runs.values()} == {total}
    assert all(0 < len(result.mutants) < total for result in runs.values())
    source = runs["1/2"].sources[SLICE[0]] or runs["2/2"].sources[SLICE[0]]
    for file, mutant in merged:
        assert file == SLICE[0]
        assert mutant["status"] in {"Killed", "Survived", "Timeout"}, mutant
        assert mutant["coveredBy"] and all(t.split("::")[0] in CONTRACTS for t in mutant["coveredBy"]), mutant
        start, end = (Position(**mutant["location"][k]) for k in ("start", "end"))
        # The location and replacement rebuild a real, different, valid module: mutmut's mutant.
        mutated = source[: offset(source, start)] + mutant["replacement"] + source[offset(source, end) :]
        assert mutated != source and start.line > 1
        ast.parse(mutated)
    killed = [m for _, m in merged if m["status"] == "Killed"]
    assert killed and all(m["killedBy"] and set(m["killedBy"]) <= set(m["coveredBy"]) for m in killed)
    assert all("the gate's 50 examples" in m["statusReason"] for _, m in merged), "each says how it was reached"


def test_the_exploration_runs_only_the_properties_of_its_contracts() -> None:
    from harness.config.hypothesis_profiles import registered_name

    with Children() as children:
        with KnownBugRun(Project.bundled(), ContractsExecutor(children), jobs=1, baseline_contracts=CONTRACTS) as run:
            explored = run.explore(registered_name("nightly"), 7)
            properties = [t for t in run.executor.properties() if t.split("::")[0] in CONTRACTS]
            collected = run.executor.collected()
    assert properties and len(properties) < len(collected), "the slice holds properties and other contracts"
    assert sorted(explored.tests) == sorted(properties)
    assert all(e["outcome"] == "passed" for e in explored.tests.values()), explored.tests
