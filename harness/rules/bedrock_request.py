"""What Bedrock's Converse refuses in a request body beyond its messages' blocks: keys and shapes.

The body is a ``ConverseRequest`` (the model is named in the URL, not the
body): ``messages`` is required, a list of ``{"role": "user" | "assistant",
"content": [...]}``; the system prompt is the top-level ``system`` list,
tools are ``toolConfig.tools[].toolSpec {name, description?, inputSchema
{json}}``; settings are ``inferenceConfig`` and anything model-specific
(Anthropic's ``thinking``) goes in ``additionalModelRequestFields``. Bedrock
refuses a key it does not have; its texts for these are AWS's generic
validation errors, so the messages are ours.
"""

from __future__ import annotations

from harness.rules.schema_request import request_judge


def _fields(properties: dict, required: tuple[str, ...] = ()) -> dict:
    return {"type": "object", "additionalProperties": False, "properties": properties,
            **({"required": list(required)} if required else {})}


_OBJECT = {"type": "object"}
_MESSAGE = _fields({"role": {"enum": ["user", "assistant"]}, "content": {"type": "array", "items": _OBJECT}},
                   ("role", "content"))
_SPEC = _fields({"name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"},
                 "description": {"type": "string", "minLength": 1}, "inputSchema": _fields({"json": _OBJECT},
                                                                                          ("json",)),
                 "strict": {"type": "boolean"}}, ("name", "inputSchema"))
_TOOL = {"type": "object", "minProperties": 1, "maxProperties": 1,
         "properties": {"toolSpec": _SPEC, "systemTool": _OBJECT, "cachePoint": _OBJECT}, "additionalProperties": False}
_TOOL_CONFIG = _fields({"tools": {"type": "array", "minItems": 1, "items": _TOOL}, "toolChoice": _OBJECT}, ("tools",))
_INFERENCE = _fields({"maxTokens": {"type": "integer", "minimum": 1}, "temperature": {"type": "number"},
                      "topP": {"type": "number"}, "stopSequences": {"type": "array", "items": {"type": "string"}}})

SCHEMA = _fields({
    "messages": {"type": "array", "items": _MESSAGE},
    "system": {"type": "array", "items": _OBJECT},
    "toolConfig": _TOOL_CONFIG,
    "inferenceConfig": _INFERENCE,
    "additionalModelRequestFields": _OBJECT,
    "additionalModelResponseFieldPaths": {"type": "array", "items": {"type": "string"}},
    "guardrailConfig": _OBJECT,
    "promptVariables": _OBJECT,
    "requestMetadata": _OBJECT,
    "performanceConfig": _OBJECT,
    "serviceTier": _OBJECT,
}, ("messages",))

request_refusals = request_judge(SCHEMA)
"""Every refusal of a Converse body's keys and shapes (its blocks: :func:`harness.rules.bedrock_history.refusals`)."""
