"""The nightly report as JUnit XML: one testcase per mutant, a failure where a person must act.

A known bug fails unless killed; a mutmut mutant fails when it survived or
no contract ran it, and is skipped when it was not tested, or survived on a
line the reference exempts as out of scope (reviewed: it counts in the score,
but nobody has to act on it).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path, PurePosixPath

from harness.mutation.report_junit import xml_safe
from harness.nightly.report import all_mutants, is_out_of_scope
from harness.nightly.score import UNDETECTED, is_mutmut


def _failed(mutant: dict) -> bool:
    if is_mutmut(mutant):
        if is_out_of_scope(mutant) and mutant["status"] in UNDETECTED:
            return False
        return mutant["status"] in UNDETECTED or mutant["status"] in ("RuntimeError", "CompileError")
    return mutant["status"] != "Killed"


def _skipped(mutant: dict) -> bool:
    return mutant["status"] in ("Ignored", "Pending") or (is_out_of_scope(mutant) and not _failed(mutant)
                                                         and mutant["status"] in UNDETECTED)


def write_junit(report: dict, path: Path) -> None:
    mutants = all_mutants(report)
    failures = sum(_failed(m) for _, m in mutants)
    skipped = sum(_skipped(m) for _, m in mutants)
    root = ET.Element("testsuites")
    suite = ET.SubElement(
        root, "testsuite", name="harness.nightly", tests=str(len(mutants)), failures=str(failures),
        errors="0", skipped=str(skipped),
    )
    for file, mutant in mutants:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=f"{'mutmut' if is_mutmut(mutant) else 'mutants'}.{PurePosixPath(file).stem}",
            name=mutant["id"],
            time=f"{mutant.get('duration', 0) / 1000:.3f}",
        )
        reason = xml_safe(mutant.get("statusReason", ""))
        if _failed(mutant):
            message = xml_safe(f"{mutant['status']}: {mutant.get('description', '')}")
            failure = ET.SubElement(case, "failure", message=message, type=mutant["status"])
            failure.text = reason
        elif _skipped(mutant):
            ET.SubElement(case, "skipped", message=xml_safe(reason.splitlines()[0] if reason else mutant["status"]))
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
