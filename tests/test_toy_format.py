"""A sixth format from one row plus its own modules: the toy NDJSON format (tests/toy_format) runs everywhere.

Nothing in ``harness`` names the toy. Its three rows plug in by entry points
(``tests/toy_format/toy_format-0.dist-info``), which every process finds once
``tests/toy_format`` is on its import path: the cross-format contracts run
against its reference (its kernel's tool loop included), the gate runs its known bugs, the nightly baselines
it and the loopback serves its route, framed as NDJSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TOY = Path(__file__).resolve().parent / "toy_format"
NAME = "toy-ndjson"
ADAPTER = "toy_format.reference:adapter"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(TOY), os.environ.get("PYTHONPATH")]))}


def _run(*args: str, cwd: Path | None = None, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], env=_env(), cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def test_every_row_of_the_toy_plugs_in():
    run = _run("-c", "import json\n"
               "from harness.adapter import FORMATS\n"
               "from harness.formats import SPECS\n"
               "from harness.loopback.wires import WIRES\n"
               "from harness.testing.formats import STRATEGIES\n"
               "print(json.dumps([list(FORMATS), list(SPECS), list(WIRES), list(STRATEGIES)]))")
    assert run.returncode == 0, run.stderr
    for table, names in zip(("FORMATS", "SPECS", "WIRES", "STRATEGIES"), json.loads(run.stdout)):
        assert NAME in names, f"{table} lacks the toy format: {names}"


def test_check_runs_the_cross_format_contracts_against_the_toy_reference(tmp_path):
    junit = tmp_path / "junit.xml"
    run = _run("-m", "harness", "check", "--hypothesis-profile", "ci", "--adapter", ADAPTER, "--junitxml", str(junit))
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert f"format: {NAME}" in run.stdout.splitlines()[0], run.stdout[:500]
    assert "PASSED  [wire] test_stream_turns.py::test_a_stream_decodes_to_its_turn" in run.stdout, run.stdout[-3000:]
    assert "PASSED  [wire] test_tool_rounds.py::test_every_call_is_answered_after_its_round" in run.stdout, (
        run.stdout[-3000:])


def test_the_gate_runs_the_toy_known_bugs_and_kills_them(tmp_path):
    run = _run("-m", "harness", "gate", "--format", NAME, "--jobs", "1", "--report-dir", str(tmp_path))
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert f"{NAME}: 3/3 killed" in summary, summary
    report = json.loads((tmp_path / "mutation-report.json").read_text(encoding="utf-8"))
    ids = {m["id"] for f in report["files"].values() for m in f["mutants"]}
    assert {"toy-blocks-by-arrival", "toy-cut-stream-returned", "toy-kernel-first-result-only"} <= ids, ids


_LOOPBACK = r'''
import json, urllib.request
from harness.loopback.delivery import Delivery
from harness.loopback.server import LoopbackProvider
from toy_format.reference import parse_stream

def post(url, data):
    request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()

with LoopbackProvider(delivery=Delivery("inside-events")) as provider:
    url = provider.route_url("toy-ndjson") + "/turn"
    status, kind, body = post(url, json.dumps({"messages": [{"text": "hi"}], "stream": True}).encode())
    bad_status, _, bad_body = post(url, b"{not json")
    exchanges = provider.record.exchanges
    print(json.dumps({"status": status, "type": kind, "turn": parse_stream(body), "lines": len(body.splitlines()),
                      "pieces": exchanges[0].pieces, "bad": bad_status, "error": json.loads(bad_body),
                      "violations": [v.rule for v in provider.record.violations]}))
'''


def test_the_loopback_serves_the_toy_route_in_its_framing_and_refuses_a_body_that_is_not_json():
    run = _run("-c", _LOOPBACK, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout)
    assert got["status"] == 200 and got["type"].startswith("application/x-ndjson"), got
    assert got["turn"]["blocks"] == [{"type": "text", "text": "héllo after 1 messages"}], got
    assert got["pieces"] > got["lines"], f"inside-events should cut each NDJSON line in two: {got}"
    assert got["bad"] == 400 and "not JSON" in got["error"]["error"]["message"], got
    assert got["violations"] == ["body-not-json"], got


@pytest.fixture(autouse=True)
def _toy_is_tracked():
    # The gate copies what git tracks of the toy's project, as for any format shipped outside the package.
    tracked = subprocess.run(["git", "ls-files", "toy_format"], cwd=TOY, capture_output=True, text=True)
    if tracked.returncode != 0 or "toy_format/reference.py" not in tracked.stdout:
        pytest.fail("tests/toy_format is not tracked by git: the gate copies only what git tracks")


def test_the_nightly_explores_baselines_and_runs_the_toy_known_bugs(tmp_path):
    run = _run("-m", "harness", "nightly", "--format", NAME, "--jobs", "1", "--hypothesis-seed", "7",
               "--report-dir", str(tmp_path))
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    out = run.stdout
    assert f"{NAME}: exploration (nightly profile, seed 7)" in out, out[-3000:]
    assert f"{NAME}: baseline green" in out and f"{NAME}: known bugs: 3" in out, out[-3000:]
    report = json.loads((tmp_path / "mutation-report.json").read_text(encoding="utf-8"))
    statuses = {m["id"]: m["status"] for f in report["files"].values() for m in f["mutants"]}
    assert statuses == {"toy-blocks-by-arrival": "Killed", "toy-cut-stream-returned": "Killed",
                        "toy-kernel-first-result-only": "Killed"}, statuses
