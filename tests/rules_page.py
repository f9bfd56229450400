"""The formats each contract module holds for, as the generated ``docs/rules.md`` states them.

A test keeps that page current with the contracts, so tests read formats from it
instead of guessing them from module names.
"""

import re
from pathlib import Path

RULES_PAGE = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def sections() -> dict[str, str]:
    """Each contract module's section of the page, by module name (``test_x``)."""
    parts = RULES_PAGE.read_text().split("\n## ")[1:]
    return {part.partition("\n")[0].strip(): part for part in parts}


def formats_of(section: str) -> set[str]:
    """The formats a section's ``Formats:`` line names (empty when it has none)."""
    line = re.search(r"^Formats: (.+)\.$", section, re.M)
    return {f.strip() for part in line.group(1).split(";") for f in part.split(",")} if line else set()


def module_formats() -> dict[str, set[str]]:
    return {name: formats_of(section) for name, section in sections().items()}


def module_of(report_line: str) -> str:
    """The contract module a ``harness check`` result line names."""
    found = re.search(r"(test_\w+)\.py::", report_line)
    assert found, f"no contract module in {report_line!r}"
    return found.group(1)
