"""GitHub Actions workflow commands: failures as annotations on a file and line, summaries for the job page.

The one annotation writer of every command. Used only when
``GITHUB_ACTIONS=true``; elsewhere nothing is printed or written.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from harness.outcomes.results import Result
from harness.report.junit import xml_safe

# GitHub keeps the first 10 annotations of a level per step and drops the rest without a word.
SHOWN_ANNOTATIONS = 10
SHOWN_LINES = 12  # of a result's message and details, per annotation


def enabled() -> bool:
    return os.environ.get("GITHUB_ACTIONS") == "true"


def _data(text: str) -> str:
    # Control characters as escapes first (as every other report shows them): a raw ESC or BEL from an
    # adapter's text would reach the runner's log and the terminal of whoever reads it.
    return xml_safe(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, file: str | None = None, line: int | None = None,
            title: str | None = None) -> str:
    """One ``::error`` or ``::notice`` workflow command (GitHub's escaping applied)."""
    props = [f"file={_property(file)}"] if file else []
    if file and line:
        props.append(f"line={line}")
    if title:
        props.append(f"title={_property(title)}")
    return f"::{level} {','.join(props)}::{_data(message)}" if props else f"::{level}::{_data(message)}"


def error(message: str, file: str | None = None, line: int | None = None, title: str | None = None) -> str:
    """One ``::error`` workflow command."""
    return command("error", message, file, line, title)


def title(result: Result) -> str:
    """``failed [wire, stream] NAME`` for a rule's result, ``VERDICT: ID`` for a mutant."""
    if result.level:
        return f"{result.status} [{', '.join(p for p in (result.level, result.capability) if p)}] {result.name}"
    return f"{result.kind or result.status}: {result.name}"


def annotations(problems: Sequence[Result], what: str = "failures") -> list[str]:
    """An ``::error`` per result, most important first (the caller's order), at its location when it has one.

    After the first :data:`SHOWN_ANNOTATIONS`, one ``::notice`` counts the rest,
    which GitHub would drop unsaid; the job summary lists every one.
    """
    lines = []
    for result in problems[:SHOWN_ANNOTATIONS]:
        message = "\n".join(result.lines()[:SHOWN_LINES])
        file, line = result.location or (None, None)
        lines.append(error(message, file, line, title(result)))
    rest = len(problems) - SHOWN_ANNOTATIONS
    if rest > 0:
        lines.append(command("notice", f"{rest} more {what} not annotated (GitHub shows {SHOWN_ANNOTATIONS} "
                                       "per step): the job summary lists every one",
                             title=f"{rest} more {what}"))
    return lines


def workspace() -> Path:
    """The checkout a CI job runs in (``GITHUB_WORKSPACE``), else the working directory."""
    return Path(os.environ.get("GITHUB_WORKSPACE") or os.getcwd()).resolve()


def relative(path: str) -> str:
    """``path`` relative to the workspace when it is inside it, as annotations want it."""
    try:
        return str(Path(path).resolve().relative_to(workspace()))
    except ValueError:
        return path


def add_step_summary(markdown: str) -> None:
    """Append ``markdown`` to the job's summary page, if the runner gave one."""
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(markdown + "\n")
