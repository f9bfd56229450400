"""``harness check --expectations`` end to end: a shipped library adapter whose known failures a file expects.

The adapter is langchain-openai's; the failures are the ones ``docs/conformance.md``
lists for it, in the module the runs select (``test_stream_end.py``, whose cases all
run in a few seconds). The file is written from that page, not from a run, so a run
that loses a failure or gains one shows here.
"""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import exit_codes
from harness.cli.expectations_file import FAIL, PENDING, Expectation, read_expectations, write_expectations

REPO = Path(__file__).resolve().parents[1]
ADAPTER = "harness.libraries.langchain_openai:adapter"
MODULE = "test_stream_end.py"
PASSING = f"{MODULE}::test_usage_chunk_is_kept"  # every case of it passes for langchain-openai
STALE = f"{MODULE}::test_renamed_away"


def _known_failures() -> list[str]:
    """The contract ids of MODULE that docs/conformance.md lists as failing for langchain-openai."""
    text = (REPO / "docs" / "conformance.md").read_text(encoding="utf-8")
    section = text.split("### langchain-openai\n", 1)[1].split("\n### ", 1)[0]
    nodeids = re.findall(rf"^\| \w+ \| `({re.escape(MODULE)}::[^`]+)` \|", section, re.M)
    return list(dict.fromkeys(nodeid.partition("[")[0] for nodeid in nodeids))


KNOWN = _known_failures()


def _check(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    return subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "--adapter", ADAPTER,
         "-k", MODULE.removesuffix(".py"), *args],
        capture_output=True, text=True, env=env, timeout=300,
    )


def _file(tmp_path: Path, entries: dict[str, Expectation]) -> Path:
    path = tmp_path / "expectations.toml"
    write_expectations(path, [], entries)
    return path


def _ids(run: subprocess.CompletedProcess, word: str) -> set[str]:
    """The contract ids of the per-contract lines that start with ``word`` (XFAIL, PENDING)."""
    return {line.split()[2].partition("[")[0] for line in run.stdout.splitlines() if line.strip().startswith(word)}


def test_the_page_lists_known_failures_of_the_module():
    assert len(KNOWN) >= 2 and PASSING not in KNOWN, KNOWN  # the runs below need two to play with


def test_a_run_whose_failures_are_all_expected_passes_and_shows_xpass_pending_and_stale(tmp_path):
    entries = {cid: Expectation(FAIL, "listed in docs/conformance.md") for cid in KNOWN}
    entries[KNOWN[-1]] = Expectation(PENDING)  # a new contract this adapter has not passed yet
    entries[PASSING] = Expectation(FAIL, "fixed upstream since")
    entries[STALE] = Expectation(FAIL, "a contract renamed away")
    path = _file(tmp_path, entries)
    junit = tmp_path / "junit.xml"
    run = _check("--expectations", str(path), "--junitxml", str(junit))
    out = run.stdout + run.stderr
    assert run.returncode == exit_codes.OK, out
    assert _ids(run, "XFAIL") == set(KNOWN[:-1]), out
    assert _ids(run, "PENDING") == {KNOWN[-1]}, out
    assert f"XPASS       {PASSING}: expected to fail (fixed upstream since), but passed;" in run.stdout, out
    assert f"STALE       {STALE}: no such contract;" in run.stdout, out
    assert "UNEXPECTED" not in run.stdout, out
    properties = {(p.get("name"), p.get("value")) for p in ET.parse(junit).getroot().iter("property")}
    assert ("xpass", PASSING) in properties and ("stale expectation", STALE) in properties, properties

    strict = _check("--expectations", str(path), "--strict-expectations")
    assert strict.returncode == exit_codes.CONTRACTS_FAILED, strict.stdout + strict.stderr
    failing = [line for line in strict.stdout.splitlines() if line.startswith("  FAILED [") and PASSING in line]
    assert failing and all("XPASS (strict): expected to fail (fixed upstream since), but passed" in line
                           for line in failing), strict.stdout


def test_a_failure_the_file_leaves_out_fails_the_run_and_update_records_it(tmp_path):
    left_out = KNOWN[0]
    kept = {cid: Expectation(FAIL, "listed in docs/conformance.md") for cid in KNOWN[1:]}
    path = _file(tmp_path, {**kept, PASSING: Expectation(FAIL, "fixed upstream since"),
                            STALE: Expectation(FAIL, "a contract renamed away")})
    run = _check("--expectations", str(path))
    assert run.returncode == exit_codes.CONTRACTS_FAILED, run.stdout + run.stderr
    unexpected = [line.split()[1].rstrip(":") for line in run.stdout.splitlines()
                  if line.strip().startswith("UNEXPECTED")]
    assert unexpected == [left_out], run.stdout

    update = _check("--expectations", str(path), "--update-expectations")
    assert update.returncode == exit_codes.OK, update.stdout + update.stderr
    assert f"wrote {path}: 1 entries added, 2 removed" in update.stdout, update.stdout
    written = read_expectations(path).entries
    assert written.keys() == set(KNOWN), written
    assert all(written[cid] == kept[cid] for cid in KNOWN[1:]), "the reasons the file gave are kept"
    assert re.fullmatch(r"recorded by --update-expectations on \d{4}-\d\d-\d\d", written[left_out].reason), written

    again = _check("--expectations", str(path), "--strict-expectations")
    assert again.returncode == exit_codes.OK, again.stdout + again.stderr


@pytest.mark.parametrize("update", [False, True])
def test_a_run_that_tested_nothing_stays_nothing_tested_and_writes_nothing(tmp_path, update):
    # The stale entry is one an update would remove, had the run tested anything.
    path = _file(tmp_path, {KNOWN[0]: Expectation(FAIL, "listed in docs/conformance.md"),
                            STALE: Expectation(FAIL, "a contract renamed away")})
    before = path.read_text(encoding="utf-8")
    run = _check("--expectations", str(path), "-k", "no_contract_has_this_name",
                 *(["--update-expectations"] if update else []))
    assert run.returncode == exit_codes.NOTHING_TESTED, run.stdout + run.stderr
    assert path.read_text(encoding="utf-8") == before
    if update:
        assert f"{path} left as it was: nothing was tested" in run.stdout, run.stdout


def test_a_stale_entry_alone_fails_only_a_strict_run(tmp_path):
    path = _file(tmp_path, {STALE: Expectation(FAIL, "a contract renamed away")})
    for strict, code in ((False, exit_codes.OK), (True, exit_codes.CONTRACTS_FAILED)):
        run = _check("--expectations", str(path), "-k", "test_usage_chunk_is_kept",
                     *(["--strict-expectations"] if strict else []))
        assert run.returncode == code, run.stdout + run.stderr
        assert f"STALE       {STALE}: no such contract" in run.stdout, run.stdout
