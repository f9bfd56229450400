"""How deep and how large a value an adapter returns may be before any rule judges it.

Every later step (the shape check, a contract's comparisons, a failure's
message, Hypothesis's shrinking) walks the value again, several of them
recursively; a value nested 100,000 levels deep or holding hundreds of
megabytes made a check run for minutes and take gigabytes. One iterative walk,
stopped at the first limit it passes, keeps that check linear in time and
small in memory whatever the adapter returns, a value that contains itself
included.
"""

from __future__ import annotations

MAX_DEPTH = 100  # levels of lists and dicts; the neutral shapes need fewer than ten
MAX_SIZE = 4_000_000  # items of lists and dicts plus characters (or bytes) of strings and keys


def problem(value: object) -> str | None:
    """What makes ``value`` too deep or too large to judge, or None when it is within both limits."""
    size = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        size += len(item) if isinstance(item, (str, bytes, bytearray, list, tuple, dict)) else 1
        if size > MAX_SIZE:  # checked before a container's items are pushed: a huge one costs nothing
            return f"a value larger than {MAX_SIZE:,} items and characters (harness.under_test.bounds.MAX_SIZE)"
        if isinstance(item, (list, tuple, dict)):
            if depth > MAX_DEPTH:
                return f"a value nested deeper than {MAX_DEPTH} levels (harness.under_test.bounds.MAX_DEPTH)"
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return None
