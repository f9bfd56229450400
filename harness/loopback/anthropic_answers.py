"""What Anthropic's Messages API answers to a request it will not serve: status and error body.

Anthropic wraps every error as ``{"type": "error", "error": {"type",
"message"}}`` (https://docs.anthropic.com/en/api/errors lists the types by
status: 400 ``invalid_request_error``, 401 ``authentication_error``, 404
``not_found_error``, 529 ``overloaded_error``, ...). The 400 texts of the
history rules live with the rules (:mod:`harness.rules.anthropic_history`);
the overload is the one the streaming documentation shows mid-stream
(:data:`harness.wire.anthropic_events.OVERLOADED`).
"""

from __future__ import annotations

from harness.wire.anthropic_events import OVERLOADED

INVALID_REQUEST = "invalid_request_error"
MISSING_KEY = "x-api-key header is required"


def error_body(message: str, type: str = INVALID_REQUEST) -> dict:
    return {"type": "error", "error": {"type": type, "message": message}}


def unauthenticated() -> tuple[int, dict]:
    return 401, error_body(MISSING_KEY, "authentication_error")


def overloaded() -> tuple[int, dict]:
    return 529, {"type": "error", "error": dict(OVERLOADED)}
