"""One scenario of a probe suite and how its streams are delivered: the entries of every format's suite."""

from __future__ import annotations

from dataclasses import dataclass

from harness.loopback.delivery import Delivery

PAUSE = 0.002  # seconds between pieces: each piece reaches the agent in a read of its own


@dataclass(frozen=True)
class Case:
    scenario: str
    delivery: Delivery
