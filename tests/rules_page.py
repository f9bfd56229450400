"""The formats each contract holds for, as the generated ``docs/rules.md`` states them.

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


ROW = re.compile(r"^\| `(test\w+)` \| [^|]+ \| ([\w+]+) \| ([\w, -]+) \| \d+ \|$", re.M)


def rows(section: str) -> list[tuple[str, str, set[str]]]:
    """Each contract of a section: ``(test function, capability, formats it holds for)``."""
    return [(name, capability, {f.strip() for f in held.split(",")}) for name, capability, held in ROW.findall(section)]


def contract_formats() -> dict[str, set[str]]:
    """The formats each contract holds for, by ``module::function``."""
    return {f"{module}::{name}": held for module, section in sections().items() for name, _, held in rows(section)}


def contract_of(report_line: str) -> str:
    """The contract (``module::function``, no parameters) a ``harness check`` result line names."""
    found = re.search(r"(test_\w+)\.py::(test_\w+)", report_line)
    assert found, f"no contract in {report_line!r}"
    return f"{found.group(1)}::{found.group(2)}"
