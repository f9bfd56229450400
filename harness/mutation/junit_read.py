"""Test outcomes from a JUnit XML file, classified the way the verdict rule needs."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

DEFAULT_ASSERTION_PATTERN = r"AssertionError|assert"


class JUnitError(Exception):
    """The JUnit file cannot be read as JUnit XML."""


def read_junit(path: Path, assertion_pattern: str) -> dict[str, dict]:
    """One entry per testcase: outcome ``passed``, ``assertion`` or ``error``.

    A failure counts as an assertion when its type, message or text matches
    ``assertion_pattern``; anything else that went red is an error.
    """
    pattern = re.compile(assertion_pattern)
    tests: dict[str, dict] = {}
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as exc:
        raise JUnitError(f"the JUnit file {path.name} is not readable XML: {exc}") from None
    for case in root.iter("testcase"):
        name = case.get("name", "")
        classname = case.get("classname", "")
        key = f"{classname}::{name}" if classname else name
        try:
            duration = float(case.get("time") or 0.0)
        except ValueError:
            raise JUnitError(f"the JUnit file {path.name}: testcase {key!r} has time={case.get('time')!r}") from None
        entry = {"outcome": "passed", "message": "", "duration": duration}
        for tag in ("failure", "error"):
            element = case.find(tag)
            if element is None:
                continue
            text = "\n".join(filter(None, [element.get("type"), element.get("message"), element.text]))
            entry["message"] = text.strip()[:4000]
            entry["outcome"] = "assertion" if tag == "failure" and pattern.search(text) else "error"
            break
        if case.find("skipped") is not None and entry["outcome"] == "passed":
            entry["outcome"] = "not applicable"
        tests[key] = entry
    return tests
