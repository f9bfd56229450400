"""Write every mutation report into one directory."""

from __future__ import annotations

from pathlib import Path

from harness.mutation.outcome import MutantResult
from harness.mutation.report_json import write_json
from harness.mutation.report_junit import write_junit
from harness.mutation.report_markdown import write_markdown
from harness.nightly.score import Thresholds


def write_reports(
    results: list[MutantResult], report_dir: Path, thresholds: Thresholds | None = None, wall: float | None = None
) -> dict[str, Path]:
    """Write the JSON, JUnit and Markdown reports; return their paths by format.

    ``thresholds``: from :func:`harness.nightly.score.load_thresholds`, the one
    place they are read; ``wall``: the run's wall time in seconds.
    """
    report_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": report_dir / "mutation-report.json",
        "junit": report_dir / "junit.xml",
        "markdown": report_dir / "summary.md",
    }
    write_json(results, paths["json"], thresholds=thresholds)
    write_junit(results, paths["junit"], wall=wall)
    write_markdown(results, paths["markdown"])
    return paths
