"""Under GitHub Actions: each mutant a person must act on as an ``::error`` on its patched line, and the summary.

Nothing is printed or written elsewhere (``harness.report.annotations.enabled``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from harness.report import annotations as ci_annotations
from harness.report.model import Report, as_result, is_known_bug, mutants, needs_attention


def _file(file: str, root: Path | None) -> str:
    """The mutant's file relative to the workspace; as the report names it when its project is elsewhere.

    The bundled reference runs from the installed package, outside the
    checkout, but at the same path relative to the project root.
    """
    if root is None:
        return file
    relative = ci_annotations.relative(str(root / file))
    return file if Path(relative).is_absolute() else relative


def annotations(report: Report, root: Path | None = None) -> list[str]:
    """One ``::error`` per mutant that needs attention (``model.needs_attention``), at its start line.

    Known bugs first (each one not killed breaks the gate); past GitHub's cap, one notice counts the rest.
    """
    located = sorted(((f, m) for f, m in mutants(report) if needs_attention(m)), key=lambda fm: not is_known_bug(fm[1]))
    problems = [replace(as_result(file, m), location=(_file(file, root), m["location"]["start"]["line"]))
                for file, m in located]
    return ci_annotations.annotations(problems, "mutants that need attention")


def publish(report: Report, markdown: str, root: Path | None = None) -> None:
    """Print the annotations and append ``markdown`` to the job's summary page, when under GitHub Actions."""
    if not ci_annotations.enabled():
        return
    for line in annotations(report, root):
        print(line)
    ci_annotations.add_step_summary(markdown)
