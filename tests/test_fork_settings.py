"""What a fork changes about the contracts' Hypothesis settings: shrinking off, or another profile and a seed."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import Phase, given, strategies as st

from harness.config.hypothesis_profiles import PROFILES, register, registered_name
from harness.mutation import fork_settings


def _items():
    @given(st.integers())
    def prop(x: int) -> None:
        pass

    def plain() -> None:
        pass

    return SimpleNamespace(obj=prop, nodeid="m.py::prop"), SimpleNamespace(obj=plain, nodeid="m.py::plain")


def test_explore_puts_each_property_under_the_profile_with_the_seed_and_leaves_others_alone() -> None:
    register()
    prop, plain = _items()
    assert fork_settings.property_items([prop, plain]) == [prop]
    fork_settings.explore([prop, plain], registered_name("nightly"), 4242)
    chosen = prop.obj._hypothesis_internal_use_settings
    assert chosen.max_examples == PROFILES["nightly"]["max_examples"]
    assert not chosen.derandomize and Phase.shrink not in chosen.phases and Phase.generate in chosen.phases
    assert prop.obj._hypothesis_internal_use_seed == 4242
    assert not hasattr(plain.obj, "_hypothesis_internal_use_settings")


def test_explore_gives_a_property_the_examples_its_share_buys() -> None:
    register()
    prop, plain = _items()
    fork_settings.explore([prop, plain], registered_name("nightly"), 7, {"m.py::prop": 137})
    chosen = prop.obj._hypothesis_internal_use_settings
    assert chosen.max_examples == 137, f"explore with examples {{'m.py::prop': 137}} set {chosen.max_examples}"
    assert not chosen.derandomize and prop.obj._hypothesis_internal_use_seed == 7


def test_count_examples_adds_the_examples_each_property_ran_to_its_entry() -> None:
    import hypothesis.core as core
    from hypothesis import settings
    from hypothesis.statistics import collector

    seen: list[int] = []

    @settings(max_examples=23, database=None, derandomize=True)
    @given(st.integers())
    def prop(x: int) -> None:
        seen.append(x)

    entry: dict = {}
    before = core.note_statistics
    try:
        fork_settings.count_examples(lambda: entry)
        # Hypothesis's pytest plugin sets a collector of its own around each property: the count holds under it.
        with collector.with_value(lambda statistics: None):
            prop()
            prop()
    finally:
        core.note_statistics = before
    assert entry["examples"] == 2 * 23 == len(seen), f"counted {entry}, ran {len(seen)} examples in two runs of 23"


def test_skip_shrinking_keeps_the_search_and_drops_only_shrink_and_explain() -> None:
    register()
    prop, _ = _items()
    before = prop.obj._hypothesis_internal_use_settings
    fork_settings.skip_shrinking([prop])
    after = prop.obj._hypothesis_internal_use_settings
    assert after.max_examples == before.max_examples and after.derandomize == before.derandomize
    assert set(after.phases) == set(before.phases) - {Phase.shrink, Phase.explain}


def test_each_profile_keeps_its_own_randomness_whatever_profile_was_loaded_before() -> None:
    # Hypothesis loads a derandomized profile of its own on a CI machine; ours must not inherit it.
    from hypothesis import settings

    previous = settings.default
    settings.register_profile("test-derandomized-parent", derandomize=True)
    settings.load_profile("test-derandomized-parent")
    try:
        register()
        for name, values in PROFILES.items():
            got = settings.get_profile(registered_name(name)).derandomize
            assert got == values["derandomize"], f"profile {name}: derandomize {got}, expected {values['derandomize']}"
    finally:
        settings.register_profile("test-restore", previous)
        settings.load_profile("test-restore")
        register()
