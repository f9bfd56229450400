"""Command-line durations: a finite number of seconds (or milliseconds), positive or at least zero as asked."""

from __future__ import annotations

import argparse
import math


def _number(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"{value!r} is not a finite number")
    return number


def positive(value: str) -> float:
    """A duration that must be over zero (a budget, a run's length)."""
    number = _number(value)
    if number <= 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not over zero")
    return number


def non_negative(value: str) -> float:
    """A duration where zero has a meaning of its own (no limit, no delay)."""
    number = _number(value)
    if number < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is negative")
    return number
