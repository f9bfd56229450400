"""The report as JUnit XML: one testcase per mutant, a failure where a person must act.

A known bug fails unless killed; a mutmut mutant fails when it survived, no
contract ran it or it went wrong, and is skipped when it was not tested or
survived on a line the reference exempts as out of scope (reviewed: it counts
in the score, but nobody has to act on it). Times are wall times.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path, PurePosixPath

from harness.report.model import (
    Entry,
    Report,
    headline,
    is_known_bug,
    is_skipped,
    label,
    mutants,
    needs_attention,
    wall_seconds,
)

SUITE = "harness.mutants"
# Characters XML 1.0 forbids even when escaped; pytest output carries some (ANSI colour codes).
_XML_ILLEGAL = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """Text with XML-illegal characters shown as ``\\xNN`` (as pytest's junitxml does)."""
    return _XML_ILLEGAL.sub(lambda m: repr(m.group())[1:-1], text)


def _ids(ids: list[str]) -> str:
    return ", ".join(ids) or "(none)"


def _seconds(milliseconds: float) -> str:
    return f"{milliseconds / 1000:.3f}"


def _testcase(suite: ET.Element, file: str, mutant: Entry) -> None:
    case = ET.SubElement(
        suite,
        "testcase",
        classname=f"{'mutants' if is_known_bug(mutant) else 'mutmut'}.{PurePosixPath(file).stem}",
        name=mutant["id"],
        time=_seconds(mutant.get("duration", 0)),
    )
    reason = mutant.get("statusReason", "")
    if needs_attention(mutant):
        failure = ET.SubElement(case, "failure", message=xml_safe(headline(mutant)), type=label(mutant))
        text = [mutant.get("description", ""), reason, f"covered by: {_ids(mutant.get('coveredBy', []))}"]
        failure.text = xml_safe("\n".join(line for line in text if line))
    elif is_skipped(mutant):
        ET.SubElement(case, "skipped", message=xml_safe(headline(mutant)))
    elif mutant["status"] == "Killed":
        ET.SubElement(case, "system-out").text = xml_safe(f"killed by: {_ids(mutant.get('killedBy', []))}\n{reason}")


def write_junit(report: Report, path: Path) -> None:
    """Write ``<testsuites><testsuite>`` (pytest's junitxml shape), UTF-8.

    The suite's time is the run's wall time (the longest shard's); without
    it, the longest mutant's, never the sum over parallel jobs.
    """
    located = mutants(report)
    wall = wall_seconds(report)
    longest = max((m.get("duration", 0) for _, m in located), default=0)
    root = ET.Element("testsuites")
    suite = ET.SubElement(
        root,
        "testsuite",
        name=SUITE,
        tests=str(len(located)),
        failures=str(sum(needs_attention(m) for _, m in located)),
        errors="0",
        skipped=str(sum(is_skipped(m) for _, m in located)),
        time=_seconds(wall * 1000 if wall is not None else longest),
    )
    for file, mutant in located:
        _testcase(suite, file, mutant)
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
