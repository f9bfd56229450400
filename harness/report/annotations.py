"""GitHub Actions workflow commands: failures as annotations on a file and line, summaries for the job page.

Used only when ``GITHUB_ACTIONS=true``; elsewhere nothing is printed or written.
"""

from __future__ import annotations

import os
from pathlib import Path


def enabled() -> bool:
    return os.environ.get("GITHUB_ACTIONS") == "true"


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def error(message: str, file: str | None = None, line: int | None = None, title: str | None = None) -> str:
    """One ``::error`` workflow command (GitHub's escaping applied)."""
    props = [f"file={_property(file)}"] if file else []
    if file and line:
        props.append(f"line={line}")
    if title:
        props.append(f"title={_property(title)}")
    return f"::error {','.join(props)}::{_data(message)}" if props else f"::error::{_data(message)}"


def relative(path: str) -> str:
    """``path`` relative to the workspace when it is inside it, as annotations want it."""
    workspace = os.environ.get("GITHUB_WORKSPACE") or os.getcwd()
    try:
        return str(Path(path).resolve().relative_to(Path(workspace).resolve()))
    except ValueError:
        return path


def add_step_summary(markdown: str) -> None:
    """Append ``markdown`` to the job's summary page, if the runner gave one."""
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(markdown + "\n")
