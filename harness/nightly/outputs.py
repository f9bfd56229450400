"""Write the nightly report files into one directory."""

from __future__ import annotations

from pathlib import Path

from harness.nightly.digest import Digest, digest
from harness.nightly.junit import write_junit
from harness.nightly.report import write_json
from harness.nightly.score import Thresholds
from harness.nightly.summary import render_summary
from harness.report_html import render_html

REPORT_FILES = {
    "json": "mutation-report.json",
    "html": "mutation-report.html",
    "markdown": "summary.md",
    "junit": "junit.xml",
}


def write_outputs(report: dict, thresholds: Thresholds, report_dir: Path) -> tuple[dict[str, Path], Digest]:
    """Write the JSON, HTML, Markdown and JUnit reports; return their paths by format, and the digest."""
    report_dir.mkdir(parents=True, exist_ok=True)
    report["thresholds"] = {"high": thresholds.high, "low": thresholds.low}
    summary = digest(report, thresholds)
    paths = {kind: report_dir / name for kind, name in REPORT_FILES.items()}
    write_json(report, paths["json"])
    paths["html"].write_text(render_html(report, "nightly mutation report"), encoding="utf-8")
    paths["markdown"].write_text(render_summary(report, summary), encoding="utf-8")
    write_junit(report, paths["junit"])
    return paths, summary
