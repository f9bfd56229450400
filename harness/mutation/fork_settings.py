"""Hypothesis settings of the contracts inside one fork of a warm worker: no shrinking, or more examples.

The worker collected the contracts under the gate's derandomized profile. A
fork may change what its own copies of the test functions run with, and
nothing else sees it:

- :func:`skip_shrinking`: a mutant run needs a failing example, not the
  smallest one, so Hypothesis stops at the first it finds. The search itself
  is unchanged, so the same examples run and the same failure is found; only
  its minimisation is skipped, which is most of what a failing property costs.
- :func:`explore`: the nightly's exploration and its retry of a survivor run
  the property contracts under another registered profile (many more
  examples) with a given seed, so any failure replays from the seed the
  report prints.

Imports only Hypothesis (see :mod:`warm_fork`).
"""

from __future__ import annotations

from hypothesis import Phase, seed, settings

_SETTINGS = "_hypothesis_internal_use_settings"  # where @given keeps a test's settings


def property_items(items) -> list:
    """The items that are Hypothesis property tests."""
    return [item for item in items if getattr(getattr(item, "obj", None), "is_hypothesis_test", False)]


def skip_shrinking(items) -> None:
    for item in property_items(items):
        current = getattr(item.obj, _SETTINGS, None)
        if current is not None and Phase.shrink in current.phases:
            setattr(item.obj, _SETTINGS, settings(current, phases=[p for p in current.phases
                                                                   if p not in (Phase.shrink, Phase.explain)]))


def explore(items, profile: str, run_seed: int) -> None:
    """Each property item under the registered ``profile``, seeded with ``run_seed``; shrinking stays off."""
    chosen = settings.get_profile(profile)
    for item in property_items(items):
        setattr(item.obj, _SETTINGS, settings(chosen, phases=[p for p in chosen.phases
                                                             if p not in (Phase.shrink, Phase.explain)]))
        seed(run_seed)(item.obj)
