"""Write every mutation report into one directory."""

from __future__ import annotations

from pathlib import Path

from harness.mutation.outcome import MutantResult
from harness.mutation.report_json import write_json
from harness.mutation.report_junit import write_junit
from harness.mutation.report_markdown import write_markdown


def write_reports(results: list[MutantResult], report_dir: Path) -> dict[str, Path]:
    """Write the JSON, JUnit and Markdown reports; return their paths by format."""
    report_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": report_dir / "mutation-report.json",
        "junit": report_dir / "junit.xml",
        "markdown": report_dir / "summary.md",
    }
    write_json(results, paths["json"])
    write_junit(results, paths["junit"])
    write_markdown(results, paths["markdown"])
    return paths
