"""``harness probe``'s reports: console lines, JUnit XML and Markdown, each failure with its request excerpt.

Excerpts and findings quote the agent's own output and requests, which may
hold anything (ANSI colour codes, NUL, backticks, newlines); the files stay
valid XML and well-formed Markdown whatever they hold.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from harness.rules.levels import LEVELS
from harness.outcomes.checks import FAILED, NOT_APPLICABLE, PASSED, CheckResult
from harness.report.junit import xml_safe

_LABEL = {PASSED: "PASSED", FAILED: "FAILED", NOT_APPLICABLE: "NOT APPLICABLE"}
SHOWN_FINDINGS = 5


def console(results: list[CheckResult], verbose: bool = False) -> list[str]:
    lines = []
    for r in results:
        lines.append(f"  {_LABEL[r.status]:>14}  [{r.level}] {r.name}: {r.title}")
        if r.status == FAILED:
            for finding in r.findings[:SHOWN_FINDINGS]:
                lines.append(f"      {finding.describe()}")
                if finding.excerpt:
                    lines.append(f"        {finding.label}: {finding.excerpt}")
            if len(r.findings) > SHOWN_FINDINGS:
                lines.append(f"      ... and {len(r.findings) - SHOWN_FINDINGS} more")
        elif verbose and r.status == NOT_APPLICABLE:
            lines.append(f"      {r.reason}")
    return lines


def by_level(results: list[CheckResult]) -> list[tuple[str, int, int, int]]:
    rows = []
    for level in LEVELS:
        mine = [r for r in results if r.level == level]
        if mine:
            rows.append((level, *(sum(r.status == s for r in mine) for s in (PASSED, FAILED, NOT_APPLICABLE))))
    return rows


def junit(results: list[CheckResult], path: str | Path, header: list[str]) -> None:
    suite = ET.Element("testsuite", name="harness probe", tests=str(len(results)),
                       failures=str(sum(r.status == FAILED for r in results)),
                       skipped=str(sum(r.status == NOT_APPLICABLE for r in results)))
    properties = ET.SubElement(suite, "properties")
    for line in header:
        key, _, value = line.partition(": ")
        ET.SubElement(properties, "property", name=xml_safe(key), value=xml_safe(value))
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=f"probe.{r.scenario}", name=r.rule)
        props = ET.SubElement(case, "properties")
        ET.SubElement(props, "property", name="level", value=r.level)
        if r.status == FAILED:
            failure = ET.SubElement(case, "failure", type="AssertionError",
                                    message=xml_safe(f"[{r.level}] {r.title}: {r.findings[0].describe()}"))
            failure.text = xml_safe("\n".join(f"{f.describe()}\n  {f.label}: {f.excerpt}" if f.excerpt
                                               else f.describe() for f in r.findings))
        elif r.status == NOT_APPLICABLE:
            ET.SubElement(case, "skipped", message=xml_safe(f"not applicable: {r.reason}"))
    Path(path).write_text(ET.tostring(ET.ElementTree(suite).getroot(), encoding="unicode"), encoding="utf-8")


def markdown(results: list[CheckResult], path: str | Path, header: list[str]) -> None:
    lines = ["# harness probe", ""] + [f"- {_inline(line)}" for line in header]
    lines += ["", "| level | passed | failed | not applicable |", "|---|---|---|---|"]
    lines += [f"| {level} | {p} | {f} | {n} |" for level, p, f, n in by_level(results)]
    lines += ["", "| status | level | check | what it holds |", "|---|---|---|---|"]
    lines += [f"| {_LABEL[r.status]} | {r.level} | `{r.name}` | {r.title} |" for r in results]
    failed = [r for r in results if r.status == FAILED]
    if failed:
        lines += ["", "## Failures", ""]
        for r in failed:
            lines += [f"### `{r.name}` ({r.level})", ""]
            for finding in r.findings:
                lines.append(f"- {_inline(finding.describe())}")
                if finding.excerpt:
                    lines.append(f"  - {finding.label}: `{_inline(finding.excerpt).replace('`', chr(39))}`")
            lines.append("")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _inline(text: str) -> str:
    """``text`` on one Markdown line: control characters shown as escapes, line ends as ``\\n``."""
    return xml_safe(text.replace("\r", "\\r").replace("\n", "\\n")).replace("\t", " ")
