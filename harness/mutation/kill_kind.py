"""What made a contract red, told from its exception: the one rule both mutant runners apply.

A red contract is an ``assertion`` (the contract failing on purpose, or a
failure raised ``from`` an assertion), a ``crash`` (an exception that left a
frame of the code under test on its way out) or an ``error`` (anything else:
the contract's own machinery). The warm workers import it under another
name (see :mod:`warm_fork`); it imports only the standard library, pytest and
the outcome vocabulary.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from ..outcomes.mutants import ASSERTION, CRASH, ERROR, TestOutcome

_FAILURES = (AssertionError, pytest.fail.Exception)


def kind(exc: BaseException, in_code: Callable[[str], bool]) -> TestOutcome:
    """``assertion``, ``crash`` or ``error``; ``in_code(filename)`` tells a file of the code under test."""
    if isinstance(exc, BaseExceptionGroup):
        kinds = {kind(e, in_code) for e in exc.exceptions}
        if kinds == {ASSERTION}:
            return ASSERTION
        return CRASH if kinds <= {ASSERTION, CRASH} else ERROR
    if isinstance(exc, _FAILURES):
        # ``raise AssertionError(...) from exc``: the contract failed for the cause's reason, a crash
        # when the code under test raised it, an error when the contract machinery did.
        cause = exc.__cause__
        if cause is not None and not isinstance(cause, _FAILURES):
            return kind(cause, in_code)
        return ASSERTION
    return CRASH if origin(exc, in_code, "") else ERROR


def origin(exc: BaseException | None, in_code: Callable[[str], bool], root: str) -> str:
    """``file:line in function`` (relative to ``root``) of the innermost frame of the code under test it left."""
    if isinstance(exc, BaseExceptionGroup):
        return next((o for o in (origin(e, in_code, root) for e in exc.exceptions) if o), "")
    if isinstance(exc, AssertionError) and exc.__cause__ is not None:
        return origin(exc.__cause__, in_code, root)
    found = ""
    tb = exc.__traceback__ if exc is not None else None
    while tb is not None:
        code = tb.tb_frame.f_code
        if in_code(code.co_filename):
            found = f"{os.path.relpath(code.co_filename, root or None)}:{tb.tb_lineno} in {code.co_name}"
        tb = tb.tb_next
    return found
