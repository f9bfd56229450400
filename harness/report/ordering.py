"""The order people read results in: by rule level as documented, then capability, then name."""

from __future__ import annotations

from collections.abc import Iterable

from harness.outcomes.results import Result
from harness.rules.levels import LEVELS

_LEVEL_ORDER = {level: n for n, level in enumerate(LEVELS)}


def _key(level: str, capability: str) -> tuple[int, str]:
    return _LEVEL_ORDER.get(level, len(LEVELS)), capability


def problems(results: Iterable[Result]) -> list[Result]:
    """The results a person must act on, most important first: the lower the rule level, the sooner."""
    return sorted((r for r in results if r.is_problem), key=lambda r: (*_key(r.level, r.capability), r.name))


def groups(results: Iterable[Result]) -> list[tuple[str, str, list[Result]]]:
    """(level, capability, results) in the documented order of levels."""
    grouped: dict[tuple[str, str], list[Result]] = {}
    for result in results:
        grouped.setdefault((result.level, result.capability), []).append(result)
    return [(level, capability, members) for (level, capability), members in sorted(grouped.items(),
                                                                                    key=lambda kv: _key(*kv[0]))]
