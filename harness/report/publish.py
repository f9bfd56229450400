"""A finished run's report, everywhere it goes: the files, the terminal, and GitHub Actions."""

from __future__ import annotations

from pathlib import Path

from harness.outcomes.score import Thresholds
from harness.report import github
from harness.report.console import render_console
from harness.report.digest import Digest, digest
from harness.report.files import write_reports
from harness.report.markdown import render_markdown
from harness.report.model import Report


def publish(
    report: Report, thresholds: Thresholds, report_dir: Path | None, *, annotate: bool = True, root: Path | None = None
) -> Digest:
    """Write the files (with ``report_dir``), print the summary, annotate under GitHub Actions; the digest.

    ``annotate``: off for a merge, whose shards annotated their own mutants.
    ``root``: the project the mutants' files are relative to.
    """
    d = digest(report, thresholds)
    paths = write_reports(report, d, report_dir) if report_dir is not None else None
    print(render_console(d, paths))
    if annotate:
        github.publish(report, render_markdown(report, d), root)
    return d
