"""A real gateway under ``harness conform``: LiteLLM's proxy between conform and the loopback.

The recorded results (``examples/conform-litellm/recorded.json``, written by
``run.py --record``) are what ``docs/conformance.md`` shows; each failure in
them is a finding (``docs/findings/gateways.toml``) with a standalone
reproduction. The live test (marker ``gateway``: it needs the ``gateway`` extra's
``litellm`` command, in an environment of its own, named by
``HARNESS_LITELLM``; ``.ci/run`` makes one) starts the proxy and requires the
run to equal the record: a new failure fails it, a known one does not, and a
known one that went away fails it too (the record and the page would lie).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "conform-litellm" / "run.py"
FINDINGS = ROOT / "docs" / "findings"
COMMAND_VARIABLE = "HARNESS_LITELLM"


def _example():
    spec = importlib.util.spec_from_file_location("conform_litellm_run", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _gateway_findings() -> list[dict]:
    return tomllib.loads((FINDINGS / "gateways.toml").read_text(encoding="utf-8"))["finding"]


def test_every_recorded_gateway_failure_is_a_finding_with_a_reproduction():
    recorded = json.loads(_example().RECORDED.read_text(encoding="utf-8"))
    findings = _gateway_findings()
    failed = [f"{name}: {check}" for name, checks in recorded["formats"].items()
              for check, result in checks.items() if result["status"] == "failed"]
    assert failed, "the record holds no failure: the findings below explain nothing"
    claimed = {check for finding in findings for check in finding["checks"]}
    assert not sorted(set(failed) - claimed), f"recorded failures no finding explains: {sorted(set(failed) - claimed)}"
    assert not sorted(claimed - set(failed)), f"findings name checks the record has not failed: {sorted(claimed - set(failed))}"
    for finding in findings:
        assert (FINDINGS / f"{finding['slug']}.md").is_file(), f"{finding['slug']}: no write-up"
        assert (FINDINGS / f"{finding['slug']}.py").is_file(), f"{finding['slug']}: no reproduction"


def test_a_changed_status_a_new_check_and_another_version_are_each_a_difference():
    example = _example()
    recorded = {"version": "1", "formats": {"chat": {"a::x": {"level": "wire", "status": "failed"},
                                                     "a::y": {"level": "wire", "status": "passed"}}}}
    same = json.loads(json.dumps(recorded))
    assert example.differences(same, recorded) == []
    changed = json.loads(json.dumps(recorded))
    changed["version"] = "2"
    changed["formats"]["chat"]["a::y"]["status"] = "failed"
    changed["formats"]["chat"]["a::z"] = {"level": "wire", "status": "passed"}
    del changed["formats"]["chat"]["a::x"]
    assert example.differences(changed, recorded) == [
        "litellm 2 ran; the results recorded are of 1", "chat: a::x: not run, recorded failed",
        "chat: a::y: failed, recorded passed", "chat: a::z: passed, recorded not recorded"]


@pytest.mark.gateway
def test_the_proxy_between_conform_and_the_loopback_does_what_was_recorded(tmp_path):
    command = os.environ.get(COMMAND_VARIABLE)
    assert command, (f"${COMMAND_VARIABLE} names no litellm command: install the gateway extra in an environment "
                     "of its own (.ci/run shows how) and name its bin/litellm")
    example = _example()
    got = example.recorded_form(example.run(command, tmp_path), example.proxy_version(command))
    changed = example.differences(got, json.loads(example.RECORDED.read_text(encoding="utf-8")))
    log = (tmp_path / "proxy.log").read_text(encoding="utf-8", errors="replace")[-2000:]
    assert not changed, ("the proxy did otherwise than recorded (a new failure needs a finding; a known one gone, "
                         "a new record):\n" + "\n".join(changed) + f"\nproxy log tail:\n{log}")


def _conformance():
    spec = importlib.util.spec_from_file_location("conformance_page", ROOT / "docs" / "conformance.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_conformance_page_links_every_gateway_failure_and_names_an_unexplained_one():
    page = _conformance()
    record = json.loads(_example().RECORDED.read_text(encoding="utf-8"))
    findings = _gateway_findings()
    lines, unexplained = page.gateway_section([record], findings)
    failed = sum(r["status"] == "failed" for checks in record["formats"].values() for r in checks.values())
    linked = [line for line in lines if "](findings/" in line]
    assert unexplained == [] and len(linked) == failed, (unexplained, len(linked), failed)
    dropped = findings[0]
    _, unexplained = page.gateway_section([record], findings[1:])
    gateway = f"{record['gateway']} {record['version']}"
    assert sorted(unexplained) == sorted(f"{gateway}: {check}" for check in dropped["checks"]), unexplained
