"""The adapter as contracts see it: every capability method call goes through here.

A capability method that raises ``NotImplementedError`` is an adapter saying it
does not offer that method: the contract that called it is not applicable,
never failed and never passed.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from harness.adapter import CAPABILITIES, protocol_methods

NOT_APPLICABLE = "not applicable"
_METHODS = {method: cap for cap, proto in CAPABILITIES.items() for method in protocol_methods(proto)}


class NotApplicable(pytest.skip.Exception):
    """A contract needs a capability, or a method, the adapter does not offer."""


class GuardedAdapter:
    """Forwards to the adapter; capability methods turn ``NotImplementedError`` into :class:`NotApplicable`."""

    def __init__(self, adapter: Any, name: str) -> None:
        self._adapter = adapter
        self._name = name

    def __repr__(self) -> str:
        return f"<adapter {self._name}>"

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self._adapter, attr)
        if attr not in _METHODS or not callable(value):
            return value

        @functools.wraps(value)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return value(*args, **kwargs)
            except NotImplementedError as exc:
                raise NotApplicable(
                    f"{NOT_APPLICABLE}: adapter {self._name} raises NotImplementedError from {attr} "
                    f"({_METHODS[attr]!r} capability){f': {exc}' if str(exc) else ''}"
                ) from None

        return call
