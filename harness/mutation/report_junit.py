"""The mutation report as JUnit XML: one testcase per known bug, failed unless killed."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from harness.mutation.outcome import MutantResult, Verdict

# Characters XML 1.0 forbids even when escaped; pytest output carries some (ANSI colour codes).
_XML_ILLEGAL = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """Text with XML-illegal characters shown as ``\\xNN`` (as pytest's junitxml does)."""
    return _XML_ILLEGAL.sub(lambda m: repr(m.group())[1:-1], text)


def _ids(ids: Sequence[str]) -> str:
    return ", ".join(ids) or "(none)"


def _seconds(duration: float) -> str:
    return f"{duration:.3f}"


def _failure_text(result: MutantResult) -> str:
    lines = [f"reason: {result.reason}"]
    if result.message:
        lines += ["message:", result.message]
    lines += [
        f"contracts: {_ids(result.mutant.contracts)}",
        f"covered_by: {_ids(result.covered_by)}",
    ]
    if result.engine:
        lines.append(f"patched by: {result.engine}")
    return "\n".join(lines)


def _testcase(suite: ET.Element, result: MutantResult) -> None:
    case = ET.SubElement(
        suite,
        "testcase",
        classname=f"mutants.{PurePosixPath(result.mutant.file).stem}",
        name=result.mutant.id,
        time=_seconds(result.duration),
    )
    if result.verdict is Verdict.KILLED:
        text = f"killed_by: {_ids(result.killed_by)}"
        if result.kind:
            text += f"\nkind: {result.kind}"
        if result.engine:
            text += f"\npatched by: {result.engine}"
        ET.SubElement(case, "system-out").text = xml_safe(text)
        return
    failure = ET.SubElement(
        case, "failure", message=xml_safe(result.status_line), type=result.verdict.value
    )
    failure.text = xml_safe(_failure_text(result))


def write_junit(
    results: list[MutantResult], path: Path, suite_name: str = "harness.mutants", wall: float | None = None
) -> None:
    """Write the results as ``<testsuites><testsuite>`` (pytest's junitxml shape), UTF-8.

    The suite's time is the run's wall time (``wall``); without it, the longest
    mutant's, never the sum over parallel jobs.
    """
    failures = sum(r.verdict is not Verdict.KILLED for r in results)
    root = ET.Element("testsuites")
    suite = ET.SubElement(
        root,
        "testsuite",
        name=suite_name,
        tests=str(len(results)),
        failures=str(failures),
        errors="0",
        skipped="0",
        time=_seconds(wall if wall is not None else max((r.duration for r in results), default=0.0)),
    )
    for result in results:
        _testcase(suite, result)
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
