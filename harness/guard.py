"""The adapter as contracts see it: every capability method call goes through here.

- A method that raises ``NotImplementedError`` is an adapter saying it does not
  offer that method: the contract that called it is not applicable.
- A call that does not return within the time limit (``--adapter-timeout``) is
  an error of that contract naming the method and the input; the stuck thread
  is abandoned, never waited for, and later calls in the same contract fail at
  once instead of hanging again.
- What comes back is checked against the method's neutral shape
  (:mod:`harness.shapes`) before any contract judges it.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import pytest

from harness.adapter import CAPABILITIES, protocol_methods
from harness.clip import clip_repr
from harness.shapes import check_shape

NOT_APPLICABLE = "not applicable"
_METHODS = {method: cap for cap, proto in CAPABILITIES.items() for method in protocol_methods(proto)}


class NotApplicable(pytest.skip.Exception):
    """A contract needs a capability, or a method, the adapter does not offer."""


class AdapterTimeout(Exception):
    """An adapter method did not return within the time limit."""


class GuardedAdapter:
    """Forwards to the adapter, applying the rules of the module docstring to capability methods.

    ``timeout`` None leaves time limits to the adapter's own channel (a bridge
    process has one per request).
    """

    def __init__(self, adapter: Any, name: str, timeout: float | None) -> None:
        self._adapter = adapter
        self._name = name
        self._timeout = timeout
        self._hung: str | None = None  # the call that timed out in the current contract

    def __repr__(self) -> str:
        return f"<adapter {self._name}>"

    def new_contract(self) -> None:
        """Forget a hang of the previous contract: each contract gets its own chance."""
        self._hung = None

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self._adapter, attr)
        if attr not in _METHODS or not callable(value):
            return value

        @functools.wraps(value)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                result = self._call(attr, value, args, kwargs)
            except NotImplementedError as exc:
                raise NotApplicable(
                    f"{NOT_APPLICABLE}: adapter {self._name} raises NotImplementedError from {attr} "
                    f"({_METHODS[attr]!r} capability){f': {exc}' if str(exc) else ''}"
                ) from None
            check_shape(attr, result)
            return result

        return call

    def _call(self, method: str, function, args: tuple, kwargs: dict) -> Any:
        if self._timeout is None:
            return function(*args, **kwargs)
        shown = ", ".join([*(clip_repr(a, 200) for a in args), *(f"{k}={clip_repr(v, 200)}" for k, v in kwargs.items())])
        if self._hung is not None:
            message = f"{method}({shown}) not called: {self._hung} already hung in this contract"
        else:
            outcome: dict[str, Any] = {}

            def run() -> None:
                try:
                    outcome["value"] = function(*args, **kwargs)
                except BaseException as exc:  # handed to the caller's thread as it is
                    outcome["error"] = exc

            worker = threading.Thread(target=run, name=f"adapter {method}", daemon=True)
            worker.start()
            worker.join(self._timeout)
            if not worker.is_alive():
                if "error" in outcome:
                    raise outcome["error"]
                return outcome["value"]
            self._hung = f"{method}({shown})"
            message = (
                f"adapter {self._name}: {method}({shown}) did not return within {self._timeout:g} s "
                "(--adapter-timeout); the call was abandoned"
            )
        raise AdapterTimeout(message)  # one raise site: Hypothesis sees one failure, not several
