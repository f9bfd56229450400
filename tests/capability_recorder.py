"""Each format's reference adapter, wrapped so that a contract run writes down every protocol path it called.

A path is a protocol method by name, and ``transform_request`` also by the
effort it was asked for (``transform_request effort=high``): the argument a
format maps to its own settings, a whole mapping a contract may never ask
for. The paths go to the file ``$CAPABILITY_LOG`` names, one per line, each
once per process.
"""

from __future__ import annotations

import functools
import os
import threading

from harness.adapter import CAPABILITIES, protocol_methods
from harness.formats import SPECS

METHODS = frozenset(m for proto in CAPABILITIES.values() for m in protocol_methods(proto))
_seen: set[str] = set()
_lock = threading.Lock()


def _path_of(method: str, args: tuple, kwargs: dict) -> str:
    if method == "transform_request":
        options = args[1] if len(args) > 1 else kwargs.get("options")
        effort = options.get("effort") if isinstance(options, dict) else None
        return f"{method} effort={effort}"
    return method


def _record(path: str) -> None:
    with _lock:
        if path in _seen:
            return
        _seen.add(path)
        with open(os.environ["CAPABILITY_LOG"], "a", encoding="utf-8") as log:
            log.write(path + "\n")


class Recording:
    """The adapter it wraps, every protocol method call written down first."""

    def __init__(self, inner: object) -> None:
        self._inner = inner

    def __getattr__(self, name: str):
        value = getattr(self._inner, name)
        if name not in METHODS or not callable(value):
            return value

        @functools.wraps(value)
        def recorded(*args, **kwargs):
            _record(_path_of(name, args, kwargs))
            return value(*args, **kwargs)

        return recorded


chat, anthropic, openai_responses, gemini, bedrock = (
    Recording(SPECS[name].reference_adapter()) for name in ("chat", "anthropic", "openai-responses", "gemini", "bedrock"))
