"""Which contracts executed the patched lines, from per-line coverage."""

from __future__ import annotations

ALL_TESTS = "*"  # a coverage file without per-test data credits every test of the run


def reach_lines(statements: set[int], first: int, last: int) -> set[int]:
    """The executable lines that stand for the patched range first..last.

    A patch can sit on a continuation line, which coverage files under the
    first line of its statement: fall back to the nearest statement above.
    """
    inside = {n for n in statements if first <= n <= last}
    if inside:
        return inside
    above = [n for n in statements if n < first]
    return {max(above)} if above else set()


def mark_reached(
    tests: dict[str, dict], statements: set[int], executed: dict[int, set[str]], first: int, last: int
) -> None:
    """Set ``reached`` on each test entry.

    ``executed`` maps a line to the contexts that ran it: test ids, ``""`` for
    import and collection (which every test relied on), or :data:`ALL_TESTS`.
    """
    contexts: set[str] = set()
    for line in reach_lines(statements, first, last):
        contexts |= executed.get(line, set())
    everyone = bool(contexts & {"", ALL_TESTS})
    for nodeid, entry in tests.items():
        entry["reached"] = everyone or nodeid in contexts
