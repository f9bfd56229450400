"""``harness conform`` against the loopback (must pass in every format) and against a broken emitter (must fail).

The loopback plays a strict provider of each format (chat's ``openai``
profile; the other formats' strict profiles); the broken emitter
(:mod:`harness.testing.broken_emitter`) is the same provider with one known
emitter bug planted, and every plant of every format must be reported by a
failed check of the plant's level.
"""

from __future__ import annotations

import json
import socket
import xml.etree.ElementTree as ET

import pytest

from harness import exit_codes
from harness.cli import main
from harness.conform import Target, conform
from harness.conform.target import join
from harness.formats import SPECS
from harness.loopback.server import LoopbackProvider
from harness.outcomes.results import FAILED
from harness.testing.broken_emitter import STRICT_CHAT, BrokenEmitter, plants

KEY = "sk-conform-secret-4f9a"


@pytest.fixture(autouse=True)
def _credential(monkeypatch):
    monkeypatch.setenv("HARNESS_CONFORM_API_KEY", KEY)


@pytest.mark.parametrize("name", list(SPECS))
def test_the_loopback_passes_every_check_and_no_report_shows_the_key(name, tmp_path, capsys):
    reports = {kind: tmp_path / f"report.{kind}" for kind in ("xml", "md", "sarif")}
    with LoopbackProvider(profile=STRICT_CHAT) as provider:
        code = main(["conform", "--base-url", provider.route_url(name), "--format", name, "--model", "m",
                     "--junitxml", str(reports["xml"]), "--markdown", str(reports["md"]),
                     "--sarif", str(reports["sarif"])])
        requests = len(provider.record)
    out = capsys.readouterr()
    assert code == exit_codes.OK, f"harness conform --format {name} against the loopback exited {code}:\n{out.out}"
    cases = ET.parse(reports["xml"]).getroot().iter("testcase")
    assert not [c.get("name") for c in cases if c.find("failure") is not None], out.out
    assert requests > len(SPECS[name].rules), f"{requests} requests: the conversations and strictness sent too few"
    shown = out.out + out.err + "".join(p.read_text(encoding="utf-8") for p in reports.values())
    assert KEY not in shown, "the credential was printed or written to a report"
    assert json.loads(reports["sarif"].read_text())["runs"][0]["invocations"][0]["executionSuccessful"] is True


def _failed(checks) -> list[tuple[str, str]]:
    return sorted({(c.rule, c.level) for c in checks if c.status == FAILED})


@pytest.mark.parametrize("plant", plants(), ids=lambda plant: plant.id)
def test_every_planted_emitter_bug_is_reported_at_its_level(plant):
    spec = SPECS[plant.format]
    with BrokenEmitter(plant) as emitter:
        checks, log = conform(Target(emitter.client_url(), spec, "m"), upstream=emitter.upstream_turns)
        rewritten = emitter.rewritten
    assert plant.rewrite is None or rewritten, f"{plant.id}: the plant changed no stream: it planted nothing"
    failed = _failed(checks)
    assert any(level == plant.level for _, level in failed), (
        f"{plant.id} is a {plant.level}-level bug; conform failed only {failed or 'nothing'} over {len(log)} requests")
    assert not plant.caught_by or {rule for rule, _ in failed} & set(plant.caught_by), (
        f"{plant.id} must be reported by {' or '.join(plant.caught_by)}; conform failed {failed}")
    if plant.rewrite is not None:  # a broken stream leaves the provider as strict as it was
        strictness = [c.name for c in checks if c.status == FAILED and c.scenario == "strictness"]
        assert not strictness, f"{plant.id} broke only streams, yet strictness checks failed: {strictness}"


@pytest.mark.parametrize("name", list(SPECS))
def test_a_relay_that_keeps_every_value_passes_the_checks_of_what_crossed(name):
    plant = next(p for p in plants() if p.format == name and p.rewrite is not None and not p.caught_by
                 and p.name != "stream cut before its end")  # a layout outside the format, every value kept
    with BrokenEmitter(plant) as emitter:
        checks, _ = conform(Target(emitter.client_url(), SPECS[name], "m"), strict=False,
                            upstream=emitter.upstream_turns)
    crossing = [c for c in checks if c.scenario == "crossing"]
    assert crossing and all(c.status == "passed" for c in crossing), [
        (c.name, c.status, [f.describe() for f in c.findings][:2]) for c in crossing]


def test_a_server_that_never_answers_fails_the_conversation_as_hung():
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # connections wait in the backlog; nothing is ever read or answered
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
        checks, log = conform(Target(url, SPECS["chat"], "m", timeout=0.5), strict=False)
    answered = [c for c in checks if c.rule == "emitter-answered"]
    assert answered and all(c.status == FAILED for c in answered), [(c.name, c.status) for c in checks]
    assert "hung" in answered[0].findings[0].detail, answered[0].findings[0].detail
    assert not [c for c in checks if c.status == "passed"], "a check passed against a server that never answered"


def test_an_unreachable_target_is_nothing_tested_never_a_pass(capsys):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, never listening: every connection is refused
        code = main(["conform", "--base-url", f"http://127.0.0.1:{port}/v1", "--model", "m", "--no-strictness"])
    assert code == exit_codes.CONTRACTS_FAILED, capsys.readouterr().out


def test_a_failure_the_expectations_file_expects_is_reported_as_expected(tmp_path, capsys):
    plant = next(p for p in plants() if p.format == "chat" and p.name == "no role")
    expectations = tmp_path / "conform-expectations.toml"
    with BrokenEmitter(plant) as emitter:
        args = ["conform", "--base-url", emitter.client_url(), "--model", "m", "--no-strictness",
                "--expectations", str(expectations)]
        assert main([*args, "--update-expectations"]) == exit_codes.OK
        written = expectations.read_text(encoding="utf-8")
        assert "chat-stream-role" in written, written
        assert main(args) == exit_codes.OK, capsys.readouterr().out


@pytest.mark.parametrize(("base", "path", "url"), [
    ("http://h:1/v1", "/v1/responses", "http://h:1/v1/responses"),
    ("http://h:1/v1/", "/chat/completions", "http://h:1/v1/chat/completions"),
    ("http://h:1", "/v1/messages", "http://h:1/v1/messages"),
    ("https://gw/api", "/v1beta/models/m:streamGenerateContent?alt=sse",
     "https://gw/api/v1beta/models/m:streamGenerateContent?alt=sse"),
])
def test_the_endpoint_joins_the_base_url_saying_their_shared_part_once(base, path, url):
    assert join(base, path) == url
