"""Results as JUnit XML (pytest's junitxml shape): one testcase each, a failure where a person must act.

The one JUnit writer of every command. Names, messages and details quote
test output, an agent's requests and adapters' exceptions, which may hold
anything (ANSI colour codes, NUL): every text goes through :func:`xml_safe`
here, once, so the file is valid XML whatever it holds. Times are wall times.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from harness.outcomes.results import ERROR, FAILED, NOT_APPLICABLE, SKIPPED, Result, tally

# Characters XML 1.0 forbids even when escaped; pytest output carries some (ANSI colour codes).
_XML_ILLEGAL = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """Text with XML-illegal characters shown as ``\\xNN`` (as pytest's junitxml does)."""
    return _XML_ILLEGAL.sub(lambda m: repr(m.group())[1:-1], text)


def _seconds(seconds: float) -> str:
    return f"{seconds:.3f}"


def _testcase(suite: ET.Element, result: Result) -> None:
    attributes = {"classname": xml_safe(result.suite), "name": xml_safe(result.case or result.name)}
    if result.seconds is not None:
        attributes["time"] = _seconds(result.seconds)
    case = ET.SubElement(suite, "testcase", attributes)
    properties = [(key, value) for key, value in (("level", result.level), ("capability", result.capability)) if value]
    if properties:
        holder = ET.SubElement(case, "properties")
        for key, value in properties:
            ET.SubElement(holder, "property", name=key, value=xml_safe(value))
    if result.status in (FAILED, ERROR):
        tag = "failure" if result.status == FAILED else "error"
        problem = ET.SubElement(case, tag, message=xml_safe(result.message), type=xml_safe(result.kind or tag))
        problem.text = xml_safe("\n".join(result.lines()))
    elif result.status in (SKIPPED, NOT_APPLICABLE):
        ET.SubElement(case, "skipped", message=xml_safe(result.message))
    elif result.output:
        ET.SubElement(case, "system-out").text = xml_safe(result.output)


def write_junit(
    results: Sequence[Result],
    path: str | Path,
    suite: str,
    *,
    properties: Sequence[tuple[str, str]] = (),
    seconds: float | None = None,
) -> None:
    """Write ``<testsuites><testsuite>``, UTF-8: ``properties`` on the suite, ``seconds`` its wall time.

    Without ``seconds`` the suite's time is the longest result's, never the
    sum over parallel jobs; without any time, there is none.
    """
    counts = tally(results)
    times = [r.seconds for r in results if r.seconds is not None]
    wall = seconds if seconds is not None else max(times, default=None)
    root = ET.Element("testsuites")
    attributes = {
        "name": suite,
        "tests": str(len(results)),
        "failures": str(counts[FAILED]),
        "errors": str(counts[ERROR]),
        "skipped": str(counts[SKIPPED] + counts[NOT_APPLICABLE]),
    }
    if wall is not None:
        attributes["time"] = _seconds(wall)
    element = ET.SubElement(root, "testsuite", attributes)
    if properties:
        holder = ET.SubElement(element, "properties")
        for key, value in properties:
            ET.SubElement(holder, "property", name=xml_safe(key), value=xml_safe(value))
    for result in results:
        _testcase(element, result)
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
