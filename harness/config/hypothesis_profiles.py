"""Hypothesis profiles the harness registers, under harness-specific names.

They apply to the contracts only (``--harness-profile``, ``harness check
--hypothesis-profile``); a pytest session's other tests keep their own
settings. ``ci`` is what the gate and mutant runs use: derandomized, so the
same examples run every time. ``nightly`` explores with twenty times the
examples and a fresh seed that the plugin prints, so any failure can be
replayed with ``--hypothesis-seed``. ``pinned`` is ``ci`` with the pinned
examples alone (``@example``, no draw): ``harness gate --pinned-only`` shows
the known bugs only drawn examples kill, whose verdict another install's
derandomized draw can change. ``dev`` is the everyday default. None
keeps an example database: a run writes nothing into the folder it runs in.
Every profile reports each distinct failure (one per assertion site), so one
broken part of a rule never hides another.
"""

from __future__ import annotations

CI_EXAMPLES = 50

# Health checks and phases by name, so the profiles can be listed (the plugin's option choices)
# without importing Hypothesis; register() turns them into Hypothesis's own members. Each profile
# states ``derandomize``: Hypothesis loads its own derandomized profile when it sees a CI machine,
# and a profile that left it out would inherit that (a nightly in a team's CI would not explore).
_CI = {
    "derandomize": True,
    "report_multiple_bugs": True,
    "max_examples": CI_EXAMPLES,
    "database": None,
    "deadline": None,
    "print_blob": True,
    "suppress_health_check": ["too_slow"],
    # The explain phase re-runs a failing example many times to annotate it;
    # under the mutant runner's coverage tracing that costs seconds per kill.
    "phases": ["explicit", "reuse", "generate", "target", "shrink"],
}
PROFILES: dict[str, dict] = {
    "ci": _CI,
    "pinned": {**_CI, "phases": ["explicit"]},
    "nightly": {
        "derandomize": False,
        "report_multiple_bugs": True,
        "max_examples": CI_EXAMPLES * 20,
        "database": None,
        "deadline": None,
        "print_blob": True,
        "suppress_health_check": ["too_slow"],
    },
    "dev": {"derandomize": False, "report_multiple_bugs": True, "max_examples": 100, "deadline": None, "database": None},
}

DEFAULT_PROFILE = "dev"


def registered_name(profile: str) -> str:
    """The name ``profile`` is registered under in Hypothesis."""
    return f"harness-{profile}"


def register() -> None:
    """Register every profile with Hypothesis (loading none)."""
    from hypothesis import HealthCheck, Phase, settings

    members = {"suppress_health_check": HealthCheck, "phases": Phase}
    for name, values in PROFILES.items():
        typed = {key: [members[key][v] for v in value] if key in members else value for key, value in values.items()}
        settings.register_profile(registered_name(name), **typed)
