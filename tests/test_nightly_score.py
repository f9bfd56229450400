"""The nightly score: mutmut statuses in report terms, Stryker's score, thresholds and exit precedence."""

from __future__ import annotations

from pathlib import Path

import pytest
from mutmut.stats import status_by_exit_code

from harness import exit_codes
from harness.mutation.known_bug_run import Baseline
from harness.nightly.mutmut_run import Generated
from harness.outcomes.mutants import RunOutcome
from harness.exit_codes import BELOW_THRESHOLD as EXIT_BELOW_THRESHOLD, MUTMUT as EXIT_MUTMUT, first as _first
from harness.outcomes.score import (
    MUTMUT_STATUS,
    ThresholdError,
    Thresholds,
    load_thresholds,
    report_status,
    score,
)


def test_every_mutmut_status_has_a_report_status() -> None:
    assert set(status_by_exit_code.values()) <= set(MUTMUT_STATUS)


@pytest.mark.parametrize(
    ("mutmut_status", "expected"),
    [
        ("no tests", "NoCoverage"),
        ("survived", "Survived"),
        ("timeout", "Timeout"),
        ("suspicious", "RuntimeError"),
        ("segfault", "RuntimeError"),
        ("skipped", "Ignored"),
        ("killed", "Killed"),
        ("not checked", "Pending"),
        ("something new", "RuntimeError"),  # unknown: an error, never a pass
    ],
)
def test_status_mapping(mutmut_status: str, expected: str) -> None:
    assert report_status(mutmut_status) == expected


def _mutants(**counts: int) -> list[dict]:
    return [{"status": status} for status, n in counts.items() for _ in range(n)]


def test_score_is_detected_over_detected_plus_undetected() -> None:
    result = score(_mutants(Killed=6, Timeout=3, Survived=2, NoCoverage=1, Ignored=5, RuntimeError=4, Pending=2))
    assert (result.detected, result.undetected, result.total) == (9, 3, 23)
    assert result.percent == pytest.approx(75.0)
    assert result.text() == "75.0%"


def test_no_score_without_valid_mutants() -> None:
    result = score(_mutants(Ignored=2, RuntimeError=1))
    assert result.percent is None
    assert result.text() == "n/a"
    assert not Thresholds(break_at=90).below_break(result)


def test_thresholds_judge_the_score() -> None:
    thresholds = Thresholds(high=95, low=90, break_at=90)
    assert thresholds.below_break(score(_mutants(Killed=89, Survived=11)))
    assert not thresholds.below_break(score(_mutants(Killed=9, Survived=1)))
    assert [thresholds.band(score(_mutants(Killed=k, Survived=100 - k))) for k in (96, 92, 50)] == [
        "high",
        "medium",
        "low",
    ]
    assert not Thresholds().below_break(score(_mutants(Survived=1)))  # no break threshold: never fails


def test_thresholds_from_pyproject(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    assert load_thresholds(pyproject) == Thresholds()
    pyproject.write_text("[tool.harness.nightly]\nhigh = 97\nlow = 85\nbreak = 90\n")
    assert load_thresholds(pyproject) == Thresholds(high=97, low=85, break_at=90)
    pyproject.write_text("[project]\nname = 'x'\n")
    assert load_thresholds(pyproject) == Thresholds()


def test_the_repository_sets_a_break_threshold() -> None:
    thresholds = load_thresholds(Path(__file__).parents[1] / "pyproject.toml")
    assert thresholds.break_at is not None


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("high = 120", ":3: [tool.harness.nightly]: field 'high' must be an integer from 0 to 100, got 120"),
        ("break = '90'", ":3: [tool.harness.nightly]: field 'break' must be an integer from 0 to 100, got '90'"),
        ("break = 90.0", ":3: [tool.harness.nightly]: field 'break' must be an integer from 0 to 100, got 90.0"),
        ("high = 50\nlow = 60", ":4: [tool.harness.nightly]: low (60) must not exceed high (50)"),
        ("brake = 90", ":3: [tool.harness.nightly]: unknown field 'brake' (did you mean 'break'?); known: break, high, low"),
    ],
)
def test_malformed_thresholds_name_the_file_line_table_and_field(tmp_path: Path, table: str, message: str) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(f"[project]\n[tool.harness.nightly]\n{table}\n")
    with pytest.raises(ThresholdError) as excinfo:
        load_thresholds(pyproject)
    assert str(excinfo.value) == f"{pyproject}{message}"


def test_exit_precedence() -> None:
    assert _first([]) == 0
    assert _first([0, EXIT_BELOW_THRESHOLD]) == EXIT_BELOW_THRESHOLD
    assert _first([EXIT_BELOW_THRESHOLD, 3, 4]) == 3
    assert _first([4, 5, EXIT_MUTMUT]) == EXIT_MUTMUT
    assert _first([EXIT_MUTMUT, 6]) == 6


def test_an_interrupt_during_the_exploration_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal

    from harness.cli import nightly as command

    class GreenRun:
        """A format's run whose baseline is green at once: the exploration comes next."""

        def __init__(self, *args, **kwargs) -> None:
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            pass

        def baseline(self, reach: bool = False) -> Baseline:
            return Baseline(RunOutcome(tests={"test_p.py::p": {"outcome": "passed", "message": "", "duration": 1}}))

    def exploration_interrupted(*args) -> tuple[bool, str]:
        os.kill(os.getpid(), signal.SIGTERM)
        return True, "1 run, 0 red"

    def must_not_run(*args):
        raise AssertionError("the run went on after the interrupt")

    monkeypatch.setattr(command, "KnownBugRun", GreenRun)
    monkeypatch.setattr(command, "_generate", lambda *args: Generated([], 0, {}, ()))
    monkeypatch.setattr(command, "_explore", exploration_interrupted)
    monkeypatch.setattr(command, "_known_bugs", must_not_run)
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        assert command.run_nightly(None, None, 1, 1) == exit_codes.INTERRUPTED
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
