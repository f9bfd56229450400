"""The nightly's exploration within a time budget: each property's examples from what one of its examples costs.

The budget (``harness nightly --explore-budget SECONDS``) is the wall time
the whole run's exploration may take, every format's together, with every
job busy. The formats explore one after the other; each gets an equal part
of what is left of the budget when its turn comes (what an earlier format did
not use goes to the later ones).

Within a format, what one example of each property costs is measured by the
baseline that runs just before (its seconds over the examples it ran). The
format's part, times the jobs, is shared out by water-filling (:func:`allot`):
every property first gets one example (none is left out), then each an equal
share of what is left, a property that needs less for the profile's full
examples giving the rest back to the others; no property gets more than one
job's part (a property runs on one job). The jobs then take the properties by those
expected seconds, not by count (``ContractsExecutor.baseline``). Examples are
what the budget buys, so they depend on the machine's speed: the run reports
the examples each property ran, so a thin exploration shows.

A survivor's retry (:mod:`harness.nightly.generic_run`) runs its properties
with the examples :data:`RETRY_SECONDS` of expected time buy them, shared the
same way, and stops at a time bound of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.config.hypothesis_profiles import CI_EXAMPLES, PROFILES

DEFAULT_BUDGET = 120.0  # wall seconds for the whole run's exploration, with every job busy
FLOOR = 1  # no property is left out; a thin exploration shows in the examples reported, not in an overrun
CEILING = PROFILES["nightly"]["max_examples"]
RETRY_SECONDS = 20.0  # the expected time of one survivor's retry, at most
RETRY_BOUND_FACTOR = 3.0  # a retry stops at this many times its expected time (and never before RETRY_MIN_BOUND)
RETRY_MIN_BOUND = 30.0


def per_example(tests: dict[str, dict], properties: list[str]) -> dict[str, float]:
    """Seconds one example of each property took in a run (its duration over the examples it counted)."""
    costs = {}
    for name in properties:
        entry = tests.get(name)
        if entry is not None:
            # A baseline that counted none ran the gate's profile: its examples, at most.
            costs[name] = entry.get("duration", 0.0) / max(1, entry.get("examples") or CI_EXAMPLES)
    return costs


def allot(costs: dict[str, float], seconds: float, jobs: int, floor: int = FLOOR,
          ceiling: int = CEILING) -> dict[str, int]:
    """Examples per property so that their expected seconds fill ``seconds`` on each of ``jobs`` jobs.

    ``costs``: seconds one example of each takes. Every property gets at least ``floor`` (a budget too
    small for that is overrun, and the report shows it), at most ``ceiling``.
    """
    capacity = max(0.0, seconds) * max(1, jobs) - sum(c * floor for c in costs.values())
    extra = {p: min(c * (ceiling - floor), max(0.0, seconds - c * floor)) for p, c in costs.items()}
    given: dict[str, float] = {}
    left = sorted(costs, key=lambda p: (extra[p], p))
    for n, name in enumerate(left):
        share = max(0.0, capacity) / (len(left) - n)
        given[name] = min(extra[name], share)
        capacity -= given[name]
    return {p: ceiling if costs[p] <= 0 else min(ceiling, floor + int(given[p] / costs[p])) for p in costs}


@dataclass
class ExploreBudget:
    """What is left of the run's exploration budget, format by format."""

    seconds: float
    formats: int  # how many formats explore in this run
    spent: float = 0.0
    done: int = 0
    plans: dict[str, Plan] = field(default_factory=dict)  # format name -> its plan
    ran: dict[str, dict[str, int]] = field(default_factory=dict)  # format name -> property -> examples it ran

    def plan(self, name: str, tests: dict[str, dict], properties: list[str], jobs: int) -> Plan:
        """``name``'s part of what is left, shared over its properties by the costs its baseline measured."""
        part = max(0.0, self.seconds - self.spent) / max(1, self.formats - self.done)
        costs = per_example(tests, properties)
        plan = Plan(part, costs, allot(costs, part, jobs))
        self.plans[name] = plan
        return plan

    def spend(self, seconds: float) -> None:
        self.spent += seconds
        self.done += 1


@dataclass(frozen=True)
class Plan:
    """One format's exploration: its part of the budget, each property's cost of one example and its examples."""

    seconds: float
    costs: dict[str, float]
    examples: dict[str, int]

    def expected(self) -> dict[str, float]:
        """The seconds each property is expected to take at its examples."""
        return {p: self.costs[p] * n for p, n in self.examples.items()}

    def retry(self, properties: list[str]) -> tuple[dict[str, int], float]:
        """A survivor's retry over ``properties``: the examples of each, as :data:`RETRY_SECONDS` of expected time
        on one job buy them (:func:`allot`, whatever the exploration got), and the time bound it stops at."""
        costs = {p: self.costs[p] for p in properties if p in self.costs}
        examples = allot(costs, RETRY_SECONDS, 1)
        seconds = sum(costs[p] * n for p, n in examples.items())
        return examples, max(RETRY_MIN_BOUND, RETRY_BOUND_FACTOR * seconds)

    def tally(self) -> str:
        """The examples its properties get, in a few words (the run's report shows each property's)."""
        if not self.examples:
            return "no property"
        counts = sorted(self.examples.values())
        return (f"{sum(counts)} examples planned over {len(counts)} properties (fewest {counts[0]}, most "
                f"{counts[-1]}) in a part of {self.seconds:.0f}s")
