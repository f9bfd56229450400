"""mutmut for real on a tiny slice: one small reference file, the two contracts that use it.

Both halves of a two-shard run, merged, hold every mutant mutmut makes for
the slice exactly once, each with a verdict, a location and the contracts
involved; the shadow guard ran on each half (it raises otherwise). This is
the whole pipeline the nightly runs, minus its size.
"""

from __future__ import annotations

import ast

from harness.mutation.shard import Shard
from harness.mutation.workspace import Project
from harness.nightly.locate import offset
from harness.nightly.mutmut_run import run_mutmut
from harness.outcomes.mutants import Position
from harness.processes import Children
from harness.report.merge import merge_reports
from harness.report.model import mutants as all_mutants
from harness.report.stryker_json import build_report

SLICE = ("harness/reference/distill.py",)
CONTRACTS = ("harness/contracts/test_vector_text.py", "harness/contracts/test_distillation_order.py")


def test_two_real_shards_merge_into_every_mutant_of_the_slice() -> None:
    runs = {
        spec: run_mutmut(Project.bundled(), Children(), 1, Shard.parse(spec), only=SLICE, contracts=CONTRACTS, say=lambda _: None)
        for spec in ("1/2", "2/2")
    }
    reports = [build_report([], run, run={"shard": spec}) for spec, run in runs.items()]
    merged = all_mutants(merge_reports(reports))
    ids = [m["id"] for _, m in merged]
    total = runs["1/2"].total
    assert total >= 4 and len(ids) == len(set(ids)) == total
    assert {run.total for run in runs.values()} == {total}
    assert all(0 < len(run.mutants) < total for run in runs.values())
    source = runs["1/2"].sources[SLICE[0]] or runs["2/2"].sources[SLICE[0]]
    for file, mutant in merged:
        assert file == SLICE[0]
        assert mutant["status"] in {"Killed", "Survived", "Timeout"}, mutant
        assert mutant["coveredBy"] and all(t.startswith("test_") for t in mutant["coveredBy"])
        start, end = (Position(**mutant["location"][k]) for k in ("start", "end"))
        # The location and replacement rebuild a real, different, valid module: mutmut's mutant.
        mutated = source[: offset(source, start)] + mutant["replacement"] + source[offset(source, end) :]
        assert mutated != source and start.line > 1
        ast.parse(mutated)
    killed = [m for _, m in merged if m["status"] == "Killed"]
    assert killed and all(m["killedBy"] and set(m["killedBy"]) <= set(m["coveredBy"]) for m in killed)

