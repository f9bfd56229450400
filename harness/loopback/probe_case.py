"""One scenario of a probe suite and how its streams are delivered: the entries of every format's suite."""

from __future__ import annotations

from dataclasses import dataclass

from harness.loopback.delivery import Delivery

PAUSE = 0.002  # seconds between pieces: each piece reaches the agent in a read of its own
# Requests one run of the agent (one user turn) may send: a scenario's turn takes a few rounds, so an agent
# past this is looping; it is stopped there (harness probe --max-requests).
MAX_REQUESTS = 50


@dataclass(frozen=True)
class Case:
    scenario: str
    delivery: Delivery
