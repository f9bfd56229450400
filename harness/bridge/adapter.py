"""An adapter in another process that looks like a Python adapter to the plugin.

Every method of every capability in :data:`harness.adapter.CAPABILITIES` is a
request of the same name; ``capabilities`` is what the adapter declared in the
handshake, so a capability it does not declare is reported not applicable.
"""

from __future__ import annotations

import inspect
from typing import Any

from harness.adapter import CAPABILITIES, AdapterError, LoadedAdapter, capabilities_of, format_of, protocol_methods
from harness.bridge import arguments
from harness.bridge.channel import DEFAULT_TIMEOUT, Channel
from harness.bridge.errors import BridgeError


class BridgeAdapter:
    """The adapter process behind ``--adapter-cmd``; capability methods become bridge requests."""

    def __init__(self, channel: Channel) -> None:
        hello = channel.start()
        self._channel = channel
        self.name = hello.name
        self.capabilities = frozenset(hello.capabilities)
        self.format = hello.format

    def take_stderr(self) -> str:
        """What the adapter wrote to stderr since the last take."""
        return self._channel.take_stderr()

    def close(self) -> None:
        self._channel.close()


def _forwarder(method: str, signature: inspect.Signature):
    def forward(self: BridgeAdapter, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        params, callbacks = arguments.encode(dict(list(bound.arguments.items())[1:]))
        return self._channel.call(method, params, callbacks)

    forward.__name__ = forward.__qualname__ = method
    forward.__signature__ = signature  # type: ignore[attr-defined]
    forward.__doc__ = f"The adapter process's answer to a {method!r} request."
    return forward


for _protocol in CAPABILITIES.values():
    for _method in protocol_methods(_protocol):
        setattr(BridgeAdapter, _method, _forwarder(_method, inspect.signature(getattr(_protocol, _method))))


def load_bridge(command: str, timeout: float = DEFAULT_TIMEOUT) -> LoadedAdapter:
    """Start the adapter command and handshake; a failure is an :class:`AdapterError`."""
    try:
        bridge = BridgeAdapter(Channel(command, timeout))
    except BridgeError as exc:
        raise AdapterError(f"--adapter-cmd {command!r}: {exc}") from None
    try:
        capabilities, wire_format = capabilities_of(bridge), format_of(bridge)
    except AdapterError:
        bridge.close()
        raise
    return LoadedAdapter(spec=f"--adapter-cmd {command!r}", obj=bridge, capabilities=capabilities, format=wire_format)
