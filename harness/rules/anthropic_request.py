"""What Anthropic's Messages API refuses in a request body beyond its history: required keys, top-level keys, shapes.

The body as the API reference documents ``POST /v1/messages``: ``model``,
``max_tokens`` (at least 1) and ``messages`` are required; ``system`` is a
top-level string or list of text blocks, never a message; a custom tool is
``{"name", "input_schema", "description"?}`` with an object schema and a
server tool names its versioned ``type`` (``web_search_20250305``); a tool
choice is ``{"type": "auto" | "any" | "tool" | "none"}`` (``tool`` with a
``name``); thinking is ``enabled`` with a ``budget_tokens`` of at least 1024,
``disabled`` or ``adaptive``. Anthropic's request validator answers a missing
field with ``<path>: Field required`` (as users pasted it for
``messages.0.content.0.redacted_thinking.data``); its texts for the other
violations are not documented, so those messages are ours.
"""

from __future__ import annotations

from jsonschema import ValidationError

from harness.rules.schema_request import request_judge

_TEXT_BLOCK = {"type": "object", "required": ["type", "text"],
               "properties": {"type": {"const": "text"}, "text": {"type": "string"}}}
_CUSTOM_TOOL = {"type": "object", "required": ["name", "input_schema"], "additionalProperties": False, "properties": {
    "type": {"const": "custom"}, "name": {"type": "string", "minLength": 1}, "description": {"type": "string"},
    "input_schema": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}},
    "cache_control": {"type": ["object", "null"]}, "strict": {"type": "boolean"},
    "input_examples": {"type": "array"}, "defer_loading": {"type": "boolean"}, "allowed_callers": {"type": "array"}}}
_SERVER_TOOL = {"type": "object", "required": ["type", "name"],
                "properties": {"type": {"type": "string", "pattern": "^([a-z_]+_[0-9]{8}|mcp_toolset)$"}}}
_THINKING = {"oneOf": [
    {"type": "object", "required": ["type", "budget_tokens"], "additionalProperties": False,
     "properties": {"type": {"const": "enabled"}, "budget_tokens": {"type": "integer", "minimum": 1024}}},
    {"type": "object", "required": ["type"], "additionalProperties": False,
     "properties": {"type": {"enum": ["disabled", "adaptive"]}}}]}

SCHEMA = {
    "type": "object",
    "required": ["model", "max_tokens", "messages"],
    "additionalProperties": False,
    "properties": {
        "model": {"type": "string", "minLength": 1},
        "max_tokens": {"type": "integer", "minimum": 1},
        "messages": {"type": "array", "items": {
            "type": "object", "required": ["role", "content"],
            "properties": {"role": {"enum": ["user", "assistant"]},
                           "content": {"type": ["string", "array"], "items": {"type": "object", "required": ["type"]}}}}},
        "system": {"type": ["string", "array"], "items": _TEXT_BLOCK},
        "tools": {"type": "array", "items": {"oneOf": [_CUSTOM_TOOL, _SERVER_TOOL]}},
        "tool_choice": {"type": "object", "required": ["type"], "additionalProperties": False,
                        "properties": {"type": {"enum": ["auto", "any", "tool", "none"]}, "name": {"type": "string"},
                                       "disable_parallel_tool_use": {"type": "boolean"}},
                        "if": {"properties": {"type": {"const": "tool"}}}, "then": {"required": ["name"]}},
        "thinking": _THINKING,
        "stream": {"type": "boolean"},
        "temperature": {"type": "number", "minimum": 0, "maximum": 1},
        "top_p": {"type": "number"},
        "top_k": {"type": "integer"},
        "stop_sequences": {"type": "array", "items": {"type": "string"}},
        "metadata": {"type": "object"},
        "service_tier": {"enum": ["auto", "standard_only"]},
        "output_config": {"type": "object"},
        "output_format": {"type": ["object", "null"]},
        "container": {"type": ["string", "object", "null"]},
        "context_management": {"type": ["object", "null"]},
        "mcp_servers": {"type": "array"},
        "inference_geo": {"type": ["string", "null"]},
    },
}


def _field_required(error: ValidationError, path: str) -> str | None:
    return f"{path}: Field required" if error.validator == "required" else None


request_refusals = request_judge(SCHEMA, _field_required)
"""Every refusal of a Messages body's keys and shapes (its history: :func:`harness.rules.anthropic_history.refusals`)."""
