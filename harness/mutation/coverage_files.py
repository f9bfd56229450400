"""Line coverage of one file from the reports other toolchains write: LCOV and Cobertura XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

FORMATS = ("lcov", "cobertura")


class CoverageFileError(Exception):
    """The coverage file is missing or cannot be read."""


def format_of(path: str) -> str:
    return "cobertura" if path.endswith(".xml") else "lcov"


def _same_file(reported: str, target: Path, root: Path) -> bool:
    candidate = Path(reported)
    if not candidate.is_absolute():
        candidate = root / candidate
    try:
        return candidate.resolve() == target.resolve()
    except OSError:
        return False


def _lcov(text: str, target: Path, root: Path) -> tuple[set[int], set[int]]:
    statements: set[int] = set()
    executed: set[int] = set()
    current = False
    for line in text.splitlines():
        if line.startswith("SF:"):
            current = _same_file(line[3:].strip(), target, root)
        elif current and line.startswith("DA:"):
            number, hits = line[3:].split(",")[:2]
            statements.add(int(number))
            if int(float(hits)) > 0:
                executed.add(int(number))
        elif line.startswith("end_of_record"):
            current = False
    return statements, executed


def _cobertura(text: str, target: Path, root: Path) -> tuple[set[int], set[int]]:
    tree = ET.fromstring(text)
    sources = [Path(s.text.strip()) for s in tree.iter("source") if s.text and s.text.strip()] or [root]
    statements: set[int] = set()
    executed: set[int] = set()
    for cls in tree.iter("class"):
        filename = cls.get("filename", "")
        if not any(_same_file(str(base / filename), target, root) for base in sources):
            continue
        for line in cls.iter("line"):
            number = int(line.get("number", "0"))
            statements.add(number)
            if int(float(line.get("hits", "0"))) > 0:
                executed.add(number)
    return statements, executed


def read_line_coverage(path: Path, fmt: str, target: Path, root: Path) -> tuple[set[int], set[int]]:
    """``(executable lines, executed lines)`` of ``target`` in the report at ``path``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CoverageFileError(f"coverage file {path} was not written: {exc.strerror}") from exc
    try:
        return (_cobertura if fmt == "cobertura" else _lcov)(text, target, root)
    except (ET.ParseError, ValueError) as exc:
        raise CoverageFileError(f"coverage file {path} is not valid {fmt}: {exc}") from exc
