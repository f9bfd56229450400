"""The installed plugins are polite about imports, and the run's state is one object.

A pytest session that runs no contract loads ``harness`` and ``harness_loopback``
through their entry points, as an installed package does, and is not made to
import Hypothesis, jsonschema, the bridge or the guard by them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from harness.plugin.session import RunState

# Each is heavy, or pulls in something that is: none has any business in a session without contracts.
HEAVY = (
    "hypothesis",
    "jsonschema",
    "harness.bridge",
    "harness.rules.policy",
    "harness.under_test.guard",
    "harness.plugin.session",
    "harness.testing",
    "harness.loopback.server",
    "httpx",
)
# Non-stdlib modules the two entry points may add to such a session. Measured: 10, all harness's own
# (before the split: 656, with Hypothesis, jsonschema, httpx, vcr, aiohttp among them).
BOUND = 15

_RECORD = """
import json, sys

def test_record():
    with open({out!r}, "w") as f:
        json.dump(sorted(sys.modules), f)
"""


def _modules(tmp_path, name: str, plugins: list[str]) -> set[str]:
    """Every module a session with only ``plugins`` loaded has imported when its one test runs."""
    here = tmp_path / name
    here.mkdir()
    out = here / "modules.json"
    (here / "test_record.py").write_text(textwrap.dedent(_RECORD.format(out=str(out))))
    # Autoload off, each plugin named: what else happens to be installed does not count. Hypothesis's
    # own plugin is loaded in both, as in any project that uses Hypothesis.
    env = {k: v for k, v in os.environ.items() if k not in ("HARNESS_ADAPTER", "CI")}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    args = ["-p", "hypothesispytest", *(arg for plugin in plugins for arg in ("-p", plugin))]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args, "test_record.py"],
        cwd=here, capture_output=True, text=True, env=env, timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return set(json.loads(out.read_text()))


def _not_stdlib(modules: set[str]) -> set[str]:
    return {m for m in modules if m.split(".")[0] not in sys.stdlib_module_names}


def test_a_session_without_contracts_imports_nothing_heavy_through_the_entry_points(tmp_path):
    without = _modules(tmp_path, "without", [])
    with_plugins = _modules(tmp_path, "with", ["harness", "harness_loopback"])
    assert "harness.plugin" in with_plugins and "harness.plugin.loopback_fixture" in with_plugins, "not loaded"
    heavy = sorted(m for m in with_plugins if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert not heavy, f"the plugins imported {heavy}"
    added = sorted(_not_stdlib(with_plugins) - _not_stdlib(without))
    print(f"non-stdlib modules: {len(_not_stdlib(without))} without the plugins, {len(_not_stdlib(with_plugins))} "
          f"with; added: {added}")
    assert len(added) <= BOUND, f"the plugins added {len(added)} modules (bound {BOUND}): {added}"


def test_an_option_of_ours_serves_the_fixtures_to_a_project_s_own_test(tmp_path):
    (tmp_path / "test_own.py").write_text(
        "def test_parses(stream, adapter):\n"
        "    assert adapter.name == 'reference'\n"
        "    assert stream.parse_stream(b'data: [DONE]\\n\\n')['content'] == ''\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("HARNESS_ADAPTER", "CI")}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--adapter", "harness.reference:adapter",
         "test_own.py"],
        cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_forgetting_the_adapter_loads_it_again_behind_new_guards(pytestconfig, monkeypatch):
    monkeypatch.delenv("HARNESS_ADAPTER", raising=False)
    run = RunState(pytestconfig)  # of its own, not the session's stash
    first = run.adapter()
    guard = run.guarded(first, "stream")
    assert run.adapter() is first and run.guarded(first, "stream") is guard, "loaded once, guarded once"
    run.forget_adapter()
    assert run.loaded is None and not run.guards
    again = run.adapter()
    assert again is not first
    assert run.guarded(again, "stream") is not guard


def test_a_bad_adapter_spec_is_a_usage_error(pytestconfig, monkeypatch):
    monkeypatch.setenv("HARNESS_ADAPTER", "no.such.module:adapter")
    with pytest.raises(pytest.UsageError, match="cannot import 'no.such.module'"):
        RunState(pytestconfig).adapter()
