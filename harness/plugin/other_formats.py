"""Contracts of other wire formats than their adapter's: deselected, counted in one line, listed on request.

A contract holds for the formats its ``formats`` marker names
(:func:`harness.plugin.contract_items.formats_of`). Against an adapter of another
format it has nothing to say, so it is left out of the run as pytest's ``-k``
leaves a test out (``pytest_deselected``), and no report shows it as a result:
*not applicable* stays what it means, a contract of the adapter's own format
whose capability the adapter lacks. ``harness check`` and a plain pytest run
print how many were left out and for which formats; with ``-v``, each one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest

from harness.plugin.contract_items import formats_key, level_key


@dataclass(frozen=True)
class OtherFormat:
    """A contract left out of the run: the formats it holds for do not include its adapter's."""

    nodeid: str
    level: str
    formats: tuple[str, ...]


other_format_key = pytest.StashKey[OtherFormat]()  # on an item deselected for its format, why


def leave_out(config: pytest.Config, items: list[pytest.Item],
              format_of: Callable[[pytest.Item], str]) -> list[OtherFormat]:
    """Deselect (in place) each contract among ``items`` that does not hold for ``format_of(item)``.

    ``format_of`` names the format of the adapter a contract runs against; an item that is
    not a contract (no formats read) stays. Returns the contracts left out.
    """
    left: list[pytest.Item] = []
    for item in items:
        formats = item.stash.get(formats_key, None)
        if formats is not None and format_of(item) not in formats:
            item.stash[other_format_key] = OtherFormat(item.nodeid, item.stash.get(level_key, ""), formats)
            left.append(item)
    if left:
        gone = set(left)
        items[:] = [item for item in items if item not in gone]
        config.hook.pytest_deselected(items=left)
    return [item.stash[other_format_key] for item in left]


def count_line(others: Sequence[OtherFormat]) -> str:
    """``N contracts of other formats (a, b) not run``: the formats are the ones those contracts hold for."""
    names = ", ".join(sorted({name for other in others for name in other.formats}))
    what = "contract of another format" if len(others) == 1 else "contracts of other formats"
    return f"{len(others)} {what} ({names}) not run"


def report_lines(others: Sequence[OtherFormat], verbose: bool) -> list[str]:
    """The count line, and with ``verbose`` each contract left out under it (nothing when none was)."""
    if not others:
        return []
    if not verbose:
        return [f"{count_line(others)}; -v lists them"]
    return [f"{count_line(others)}:",
            *(f"  [{other.level}] {other.nodeid} ({', '.join(other.formats)})" for other in others)]
