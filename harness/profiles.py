"""Hypothesis profiles the harness registers.

``ci`` is what the gate and mutant runs use: derandomized, so the same
examples run every time, and no example database, so a run writes nothing
into the tree it runs in. ``nightly`` explores with ten times the examples
and a fresh seed that the plugin prints, so any failure can be replayed.
``dev`` is the everyday default.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings

CI_EXAMPLES = 50

PROFILES: dict[str, dict] = {
    "ci": {
        "derandomize": True,
        "max_examples": CI_EXAMPLES,
        "database": None,
        "deadline": None,
        "print_blob": True,
        "suppress_health_check": [HealthCheck.too_slow],
        # The explain phase re-runs a failing example many times to annotate it;
        # under the mutant runner's coverage tracing that costs seconds per kill.
        "phases": [Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    },
    "nightly": {
        "max_examples": CI_EXAMPLES * 20,
        "database": None,
        "deadline": None,
        "print_blob": True,
        "suppress_health_check": [HealthCheck.too_slow],
    },
    "dev": {"max_examples": 100, "deadline": None},
}

DEFAULT_PROFILE = "dev"


def register() -> None:
    for name, values in PROFILES.items():
        settings.register_profile(name, **values)
