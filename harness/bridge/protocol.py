"""The bridge protocol's message shapes: one JSON object per line, checked on the way in.

Version 1 (``docs/adapter-protocol.md`` is the full description). Each line is
one of::

    request  {"id": ID, "method": str, "params": {...}}
    result   {"id": ID, "result": JSON}
    error    {"id": ID, "error": {"type": str, "message": str}}

``ID`` is an integer or a string, chosen by whichever side sends the request;
the reply repeats it. Both sides send requests: the harness asks the adapter
for an operation, and during ``run_turn`` the adapter asks the harness for a
model round or a tool execution.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Union

PROTOCOL_VERSION = 1
HANDSHAKE = "handshake"
BYTES_SUFFIX = "_base64"  # a params key ending so holds raw bytes, base64-encoded

# Error types. The adapter answers with the first three; the harness answers
# the adapter's own requests with the last two.
INVALID_INPUT = "invalid_input"  # the adapter refuses this input (a Python adapter would raise ValueError)
UNSUPPORTED = "unsupported"  # a method or protocol version the adapter does not offer
INTERNAL = "internal"  # anything else went wrong inside the adapter
INVALID_REQUEST = "invalid_request"  # the harness cannot serve this request (unknown tool, bad params)
ABORTED = "aborted"  # the harness failed the contract while serving it: give the operation up

Id = Union[int, str]


class MalformedLine(ValueError):
    """A line that is not one protocol message; the message says what is wrong."""


@dataclass(frozen=True)
class Request:
    id: Id
    method: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    id: Id
    result: Any = None
    error: dict[str, str] | None = None


@dataclass(frozen=True)
class Hello:
    """What the adapter says about itself in the handshake."""

    protocol: int
    name: str
    capabilities: tuple[str, ...]
    format: str | None = None  # the wire format it speaks; None: the default (harness.adapter.FORMATS)


def request_line(id: Id, method: str, params: dict[str, Any]) -> bytes:
    return _line({"id": id, "method": method, "params": params})


def result_line(id: Id, result: Any) -> bytes:
    return _line({"id": id, "result": result})


def error_line(id: Id, type: str, message: str) -> bytes:
    return _line({"id": id, "error": {"type": type, "message": message}})


def _line(message: dict[str, Any]) -> bytes:
    # ASCII escapes keep the line valid UTF-8 whatever the strings hold (even lone surrogates).
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"


def _not_json(constant: str) -> None:
    # Python's json module reads NaN, Infinity and -Infinity by default; JSON has no such tokens.
    raise ValueError(f"{constant} is not a JSON value")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999: JSON, but it would arrive as Infinity all the same
        raise ValueError(f"{text} is out of the range of a double")
    return number


def decode(line: bytes) -> Request | Reply:
    """One received line as a message, or :class:`MalformedLine` saying why not."""
    try:
        message = json.loads(line.decode("utf-8"), parse_constant=_not_json, parse_float=_finite)
    except UnicodeDecodeError as exc:
        raise MalformedLine(f"not UTF-8 (byte {exc.start})") from None
    except ValueError as exc:
        raise MalformedLine(f"not JSON ({exc})") from None
    except RecursionError:
        raise MalformedLine("JSON nested deeper than this harness reads") from None
    if not isinstance(message, dict):
        raise MalformedLine(f"a JSON {type(message).__name__}, not an object")
    id = message.get("id")
    if isinstance(id, bool) or not isinstance(id, (int, str)):
        raise MalformedLine(f"'id' is {id!r}; expected an integer or a string")
    kinds = [key for key in ("method", "result", "error") if key in message]
    if len(kinds) != 1:
        raise MalformedLine(f"has {kinds or 'none'} of 'method', 'result', 'error'; expected exactly one")
    if kinds == ["method"]:
        return _request(id, message)
    if kinds == ["error"]:
        return Reply(id, error=_error(message["error"]))
    return Reply(id, result=message["result"])


def _request(id: Id, message: dict[str, Any]) -> Request:
    method, params = message["method"], message.get("params", {})
    if not isinstance(method, str):
        raise MalformedLine(f"'method' is {method!r}; expected a string")
    if not isinstance(params, dict):
        raise MalformedLine(f"'params' is {params!r}; expected an object")
    return Request(id, method, params)


def _error(error: Any) -> dict[str, str]:
    if not isinstance(error, dict) or not all(isinstance(error.get(k), str) for k in ("type", "message")):
        raise MalformedLine(f"'error' is {error!r}; expected {{\"type\": str, \"message\": str}}")
    return {"type": error["type"], "message": error["message"]}


def hello(result: Any) -> Hello:
    """The handshake result, checked."""
    if not isinstance(result, dict):
        raise MalformedLine(f"handshake result is {result!r}; expected an object")
    protocol, name, capabilities = result.get("protocol"), result.get("name"), result.get("capabilities")
    if protocol != PROTOCOL_VERSION:
        raise MalformedLine(f"the adapter speaks protocol {protocol!r}; this harness speaks {PROTOCOL_VERSION}")
    if not isinstance(name, str) or not name:
        raise MalformedLine(f"handshake 'name' is {name!r}; expected a non-empty string")
    if not isinstance(capabilities, list) or not all(isinstance(c, str) for c in capabilities):
        raise MalformedLine(f"handshake 'capabilities' is {capabilities!r}; expected a list of strings")
    wire_format = result.get("format")
    if wire_format is not None and not isinstance(wire_format, str):
        raise MalformedLine(f"handshake 'format' is {wire_format!r}; expected a string naming a format")
    return Hello(protocol, name, tuple(capabilities), wire_format)
