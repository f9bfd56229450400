"""How a capability method's Python arguments travel over the bridge.

``params`` carries each argument under its Python parameter name, as JSON,
with these exceptions:

- ``bytes`` (a raw stream body) travel as base64 under ``<name>_base64``, so
  bytes that are not valid UTF-8 arrive intact;
- ``model`` (the harness's scripted model) is not sent: the adapter asks for a
  model round with a ``model`` request ``{"request": wire body}`` and gets the
  neutral response back;
- ``tools`` are sent as ``[{"name", "parallel_safe", "schema"}]``; the adapter
  runs one with a ``tool`` request ``{"name", "arguments"}`` and gets
  ``{"content": str}`` back.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from harness.bridge import protocol
from harness.bridge.channel import Callback, Refused


def encode(arguments: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Callback]]:
    """``params`` for the request and the callbacks the adapter may use while handling it."""
    params: dict[str, Any] = {}
    callbacks: dict[str, Callback] = {}
    for name, value in arguments.items():
        if isinstance(value, (bytes, bytearray)):
            params[name + protocol.BYTES_SUFFIX] = base64.b64encode(value).decode("ascii")
        elif name == "model":
            callbacks["model"] = _model_callback(value)
        elif name == "tools":
            params["tools"] = [_describe(tool) for tool in value]
            callbacks["tool"] = _tool_callback(value)
        else:
            params[name] = value
    return params, callbacks


def _describe(tool: Any) -> dict[str, Any]:
    return {"name": tool.name, "parallel_safe": bool(getattr(tool, "parallel_safe", False)), "schema": tool.schema}


def _model_callback(model: Callable[[dict], dict]) -> Callback:
    def answer(params: dict[str, Any]) -> dict:
        return model(_field(params, "request", dict))

    return answer


def _tool_callback(tools: list[Any]) -> Callback:
    by_name = {tool.name: tool for tool in tools}

    def answer(params: dict[str, Any]) -> dict:
        name = _field(params, "name", str)
        if name not in by_name:
            raise Refused(f"no tool named {name!r}; this turn offers {sorted(by_name)}")
        return {"content": by_name[name](_field(params, "arguments", str))}

    return answer


def _field(params: dict[str, Any], key: str, kind: type) -> Any:
    value = params.get(key)
    if not isinstance(value, kind):
        raise Refused(f"params {key!r} is {value!r}; expected a {kind.__name__}")
    return value
