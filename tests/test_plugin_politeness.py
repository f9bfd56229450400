"""The installed plugin leaves a pytest session that runs no contract as it found it."""

import os
import subprocess
import sys
import textwrap

# Hypothesis loads its own "ci" profile when it sees CI set; these sessions must show only what the harness does.
BASE_ENV = {k: v for k, v in os.environ.items() if k not in ("HARNESS_ADAPTER", "CI")}


def test_a_project_that_runs_no_contract_keeps_its_settings_and_never_loads_an_adapter(tmp_path):
    marker = tmp_path / "adapter-was-imported"
    (tmp_path / "spy_adapter.py").write_text(f"open({str(marker)!r}, 'w').close()\nadapter = object()\n")
    (tmp_path / "conftest.py").write_text(textwrap.dedent("""
        from hypothesis import settings
        settings.register_profile("mine", max_examples=7, deadline=1234)
        settings.load_profile("mine")
    """))
    (tmp_path / "test_own.py").write_text(textwrap.dedent("""
        from hypothesis import given, settings, strategies as st

        RUNS = []

        @given(st.integers())
        def test_runs_under_my_profile(n):
            RUNS.append(n)

        def test_profile_is_mine():
            assert settings.get_current_profile_name() == "mine"
            assert settings.default.max_examples == 7
            assert settings.default.deadline is not None

        def test_count():
            assert len(RUNS) == 7, RUNS
    """))
    for adapter in ("spy_adapter:adapter", "no.such.module:adapter"):
        env = {**BASE_ENV, "HARNESS_ADAPTER": adapter, "PYTHONPATH": str(tmp_path)}
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "test_own.py"],
            cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert "3 passed" in run.stdout and "harness:" not in run.stdout, run.stdout
    assert not marker.exists(), "the plugin imported HARNESS_ADAPTER in a session without contracts"


def test_contracts_in_the_same_session_run_under_the_harness_profile(tmp_path):
    (tmp_path / "conftest.py").write_text(textwrap.dedent("""
        from hypothesis import settings
        settings.register_profile("tiny", max_examples=1)
        settings.load_profile("tiny")
    """))
    (tmp_path / "test_own.py").write_text(
        "from hypothesis import settings\n\ndef test_mine():\n    assert settings.default.max_examples == 1\n"
    )
    # --pyargs: the contracts of the harness this interpreter imports, installed or not.
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--pyargs", "test_own",
         "harness.contracts.test_reasoning_top_level", "--harness-profile", "ci", "--hypothesis-show-statistics"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={**BASE_ENV, "PYTHONPATH": str(tmp_path)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    # The contract's generated test ran the ci profile's 50 examples, not the project's 1.
    assert "50 passing, 0 failing" in run.stdout, run.stdout
    assert "harness: adapter under test: reference" in run.stdout


def test_a_project_without_a_profile_keeps_hypothesis_defaults(tmp_path):
    (tmp_path / "test_plain.py").write_text(textwrap.dedent("""
        from datetime import timedelta
        from hypothesis import settings

        def test_defaults():
            assert settings.get_current_profile_name() == "default"
            assert settings.default.deadline == timedelta(milliseconds=200)
            assert settings.default.database is not None
    """))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_plain.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env=BASE_ENV,
    )
    assert run.returncode == 0, run.stdout + run.stderr
