"""The README's capability table says which formats have contracts for each capability: the contracts agree.

``docs/rules.md`` is generated from the contracts (and a test keeps it current), so
the formats of each capability are read from it: the capability and formats
columns of each contract's row.
"""

import re
from collections import defaultdict
from pathlib import Path

from rules_page import rows, sections

DOCS = Path(__file__).resolve().parent.parent


def _from_rules() -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for section in sections().values():
        for _, capability, formats in rows(section):
            for one in capability.split("+"):
                found[one] |= formats
    return dict(found)


def _from_readme() -> dict[str, set[str]]:
    text = (DOCS / "README.md").read_text()
    table = text[text.index("| capability | method | what the contracts send it | formats with contracts |"):]
    rows = {}
    for row in table.splitlines()[2:]:
        if not row.startswith("|"):
            break
        cells = [c.strip() for c in row.strip("|").split("|")]
        rows[cells[0].strip("`")] = set(re.findall(r"`([\w-]+)`", cells[3].partition("(")[0]))
    return rows


def test_each_capability_lists_the_formats_its_contracts_hold_for():
    readme, rules = _from_readme(), _from_rules()
    assert readme == rules, f"README capability table says {readme}, the contracts (docs/rules.md) say {rules}"
