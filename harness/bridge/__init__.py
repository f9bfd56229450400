"""Adapters in any language: a child process speaking JSON lines on stdin/stdout.

``docs/adapter-protocol.md`` describes the protocol; :func:`load_bridge` starts
an adapter command and returns it as the adapter under test.
"""

from harness.bridge.adapter import BridgeAdapter, load_bridge
from harness.bridge.channel import DEFAULT_TIMEOUT
from harness.bridge.errors import BridgeError, RemoteError, RemoteInputError

__all__ = ["DEFAULT_TIMEOUT", "BridgeAdapter", "BridgeError", "RemoteError", "RemoteInputError", "load_bridge"]
