"""What a failed contract shows: every distinct failure Hypothesis found, and the adapter's own frames."""

from __future__ import annotations

import traceback
from pathlib import Path

import harness
from harness.clip import clip

_HARNESS = Path(harness.__file__).resolve().parent
# Frames from these are the contract machinery, not the adapter under test.
_MACHINERY = (
    _HARNESS / "contracts",
    _HARNESS / "plugin",
    _HARNESS / "under_test",
    _HARNESS / "cli",
    _HARNESS / "bridge",
)
_LIBRARIES = ("/hypothesis/", "/_pytest/", "/pluggy/", "/_hypothesis_", "/site-packages/pytest/")
MAX_LINES = 40  # of one failure's description
MAX_LINE = 1000  # characters of one of its lines


def _is_machinery(filename: str) -> bool:
    path = Path(filename)
    if any(marker in filename for marker in _LIBRARIES):
        return True
    try:
        resolved = path.resolve()
    except OSError:
        return False
    return any(resolved == m or m in resolved.parents for m in _MACHINERY)


def adapter_location(exc: BaseException) -> tuple[str, int] | None:
    """Where in the adapter's own code ``exc`` was raised (its innermost frame there), if anywhere."""
    if isinstance(exc, BaseExceptionGroup):
        return next(filter(None, (adapter_location(part) for part in exc.exceptions)), None)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not _is_machinery(f.filename)]
    if frames:
        return frames[-1].filename, frames[-1].lineno or 0
    # A contract that turns the adapter's exception into a failed assertion keeps it as the cause.
    return adapter_location(exc.__cause__) if exc.__cause__ is not None else None


def _adapter_frames(exc: BaseException) -> list[str]:
    """The traceback frames of ``exc`` outside the contracts, Hypothesis and pytest: the adapter's own."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not _is_machinery(f.filename)]
    lines = []
    for frame in frames[-8:]:
        lines.append(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}')
        if frame.line:
            lines.append(f"    {frame.line}")
    return lines


def _one(exc: BaseException) -> list[str]:
    text = str(exc).strip()
    if isinstance(exc, AssertionError):
        # The contract's own message, without pytest's rewrite of the expression after it.
        lines = []
        for line in text.splitlines():
            if line.startswith("assert ") and lines:
                break
            lines.append(line)
        lines = lines or ["AssertionError"]
    else:
        lines = f"{type(exc).__name__}: {text}".splitlines()
    # Hypothesis attaches the minimal example as a note: "Falsifying example: test_x(...)".
    for note in getattr(exc, "__notes__", ()):
        lines += str(note).splitlines()
    raised = exc if not isinstance(exc, AssertionError) else exc.__cause__
    frames = _adapter_frames(raised) if raised is not None else []
    if frames:
        lines += ["raised in the adapter:", *frames]
    if len(lines) > MAX_LINES:
        lines = lines[:MAX_LINES] + [f"... ({len(lines) - MAX_LINES} more lines)"]
    return [clip(line, MAX_LINE) for line in lines]


def kind(exc: BaseException) -> str:
    """The exception's type, a group's with each of its parts': what a JUnit failure's ``type`` says."""
    if isinstance(exc, BaseExceptionGroup):
        return f"{type(exc).__name__}({', '.join(kind(part) for part in exc.exceptions)})"
    return type(exc).__name__


def describe(exc: BaseException) -> list[str]:
    """Lines that explain ``exc``: each distinct failure of a group with its example, crashes with frames."""
    if isinstance(exc, BaseExceptionGroup):
        parts = [describe(part) for part in exc.exceptions]
        heads = "; ".join(f"[{n}] {first[:80]}" for n, (first, *_) in enumerate(parts, 1))
        lines = [f"{len(parts)} distinct failures: {heads}"]
        for n, (first, *rest) in enumerate(parts, 1):
            lines += [f"[{n}/{len(parts)}] {first}", *(f"      {line}" for line in rest)]
        return lines
    return _one(exc)
