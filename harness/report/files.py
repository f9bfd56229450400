"""Every report file of a run, written into one directory."""

from __future__ import annotations

from pathlib import Path

from harness.report.digest import Digest
from harness.report.html import render_html
from harness.report.junit import write_junit
from harness.report.markdown import render_markdown
from harness.report.model import Report, results, wall_seconds
from harness.report.sarif import write_sarif
from harness.report.stryker_json import write_json

JUNIT_SUITE = "harness.mutants"
REPORT_FILES = {
    "json": "mutation-report.json",
    "html": "mutation-report.html",
    "markdown": "summary.md",
    "junit": "junit.xml",
    "sarif": "mutation.sarif",
}


def write_reports(report: Report, d: Digest, report_dir: Path) -> dict[str, Path]:
    """Write the JSON, HTML, Markdown, JUnit and SARIF files; return their paths by format."""
    report_dir.mkdir(parents=True, exist_ok=True)
    paths = {kind: report_dir / name for kind, name in REPORT_FILES.items()}
    write_json(report, paths["json"])
    title = "nightly mutation report" if d.has_mutmut else "known-bug mutation report"
    paths["html"].write_text(render_html(report, title), encoding="utf-8")
    paths["markdown"].write_text(render_markdown(report, d), encoding="utf-8")
    write_junit(results(report), paths["junit"], JUNIT_SUITE, seconds=wall_seconds(report))
    write_sarif(results(report), paths["sarif"], "harness nightly" if d.has_mutmut else "harness mutate",
                tested=bool(results(report)))
    return paths
