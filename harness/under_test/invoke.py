"""How a contract calls the adapter: a valid input must be answered, a refusal must be deliberate.

- :func:`valid` wraps a capability fixture: an exception raised on an input
  the contract built to be valid is a finding, so it fails the contract as an
  assertion naming the method, the input and where the adapter raised it.
- :func:`refusal` calls with an input the rule says must be refused and
  returns the exception. A crash (a ``TypeError``, ``AttributeError``,
  ``KeyError`` and the like: a programming error, not a decision about the
  input) is not a refusal, and neither is a return: both fail the contract.

Errors of the harness itself (a bridge process that died, an adapter fault
such as a call past its time limit, a capability the adapter lacks) pass
through untouched: they are not a property of the input.
"""

from __future__ import annotations

import functools
from typing import Any

from harness.clip import clip_repr, shown_call
from harness.under_test.failures import adapter_location
from harness.under_test.guard import AdapterFault, cut_message

# Exceptions that mean the code broke on the input, not that it judged it: never a refusal.
CRASHES = (TypeError, AttributeError, NameError, LookupError, ZeroDivisionError, RecursionError)


def _where(exc: BaseException) -> str:
    location = adapter_location(exc)
    return f" (raised at {location[0]}:{location[1]})" if location else ""


class _Valid:
    """The adapter, with every exception on a valid input turned into a failed assertion."""

    def __init__(self, adapter: Any) -> None:
        self._adapter = adapter

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._adapter, name)
        if not callable(method):
            return method

        @functools.wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return method(*args, **kwargs)
            except (AssertionError, AdapterFault):
                raise
            except Exception as exc:
                raise AssertionError(
                    f"{name}({shown_call(args, kwargs, 600)}) raised {type(exc).__name__}: {cut_message(exc)}"
                    f"{_where(exc)}; the input is valid, so it should have been answered (the exception is a finding)"
                ) from exc

        return call


def valid(adapter: Any) -> Any:
    """``adapter`` whose methods fail the contract, as an assertion, when they raise on a valid input."""
    return adapter if isinstance(adapter, _Valid) else _Valid(adapter)


def refusal(method, *args: Any, why: str, **kwargs: Any) -> BaseException:
    """The exception ``method(*args)`` refuses its input with; ``why`` says what makes the input invalid."""
    refused, got = refused_or_returned(method, *args, why=why, **kwargs)
    if refused:
        return got
    name = getattr(method, "__name__", "the method")
    raise AssertionError(
        f"{name}({shown_call(args, kwargs, 600)}) returned {clip_repr(got, 1500)}, but {why}: it should fail")


def refused_or_returned(method, *args: Any, why: str, **kwargs: Any) -> tuple[bool, Any]:
    """``(True, the exception)`` when ``method(*args)`` refuses its input on purpose, ``(False, what it returned)``
    when it returns; a crash (a programming error) fails, with ``why`` the input might be refused."""
    name = getattr(method, "__name__", "the method")
    try:
        return False, method(*args, **kwargs)
    except AdapterFault:
        raise
    except AssertionError:
        raise
    except CRASHES as exc:
        raise AssertionError(
            f"{name}({shown_call(args, kwargs, 600)}) crashed with {type(exc).__name__}: {cut_message(exc)}"
            f"{_where(exc)}; {why}, so it should be refused with an error the adapter raises on purpose, not a "
            "programming error"
        ) from exc
    except Exception as exc:
        return True, exc
