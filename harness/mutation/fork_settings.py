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
  examples, or as many as each property's share of the nightly's budget
  allows) with a given seed, so any failure replays from the seed the
  report prints.
- :func:`count_examples`: each property's examples run, into its entry, so
  a thin exploration is visible and what one example costs is measured.

Imports only Hypothesis (see :mod:`warm_fork`).
"""

from __future__ import annotations

from collections.abc import Callable

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


def explore(items, profile: str, run_seed: int, examples: dict[str, int] | None = None) -> None:
    """Each property item under the registered ``profile``, seeded with ``run_seed``; shrinking stays off.

    ``examples``: a property's own ``max_examples`` by contract id (one it leaves out keeps the profile's)."""
    chosen = settings.get_profile(profile)
    phases = [p for p in chosen.phases if p not in (Phase.shrink, Phase.explain)]
    for item in property_items(items):
        own = (examples or {}).get(item.nodeid, chosen.max_examples)
        setattr(item.obj, _SETTINGS, settings(chosen, phases=phases, max_examples=own))
        seed(run_seed)(item.obj)


_COUNTED = ("valid", "interesting")  # what Hypothesis counts toward max_examples, and the failing ones


def count_examples(entry: Callable[[], dict | None]) -> None:
    """From now on in this fork, each property adds the examples it ran to ``entry()`` (the current contract's
    record; None: nobody's), as ``examples``, from Hypothesis's own statistics of the run.

    Hypothesis hands them to ``hypothesis.core.note_statistics`` after every run; its pytest plugin points that
    at its own collector around each test, so the count is taken where Hypothesis calls it, then passed on."""
    import hypothesis.core as core

    passed_on = core.note_statistics

    def noted(statistics: dict) -> None:
        record = entry()
        if record is not None:
            ran = sum(1 for name, phase in statistics.items() if name.endswith("-phase") and name != "shrink-phase"
                      for case in phase.get("test-cases", ()) if case.get("status") in _COUNTED)
            record["examples"] = record.get("examples", 0) + ran
        passed_on(statistics)

    core.note_statistics = noted
