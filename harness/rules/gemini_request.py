"""What Gemini's ``generateContent`` refuses in a request body beyond its contents' parts: keys, roles, shapes.

The body is a ``GenerateContentRequest`` in protobuf JSON, which Gemini reads
field by field and refuses a field it does not have; each field may be spelt
in lowerCamelCase or as in the proto (``functionDeclarations`` or
``function_declarations``). ``contents`` is required, a list of
``{"role": "user" | "model", "parts": [...]}``: there is no system role, the
system prompt is the top-level ``systemInstruction`` content. A tool is an
object of named kinds (``functionDeclarations``, ``googleSearch``...), each
declaration ``{"name", "description"?, "parameters" | "parametersJsonSchema"?}``;
thinking is ``generationConfig.thinkingConfig``. Gemini's 400 texts for these
violations are not documented here, so the messages are ours.
"""

from __future__ import annotations

import re

from harness.rules.schema_request import request_judge


def _fields(properties: dict, required: tuple[str, ...] = ()) -> dict:
    """An object of exactly these fields, each also under its proto (snake_case) name."""
    both = {**properties, **{re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower(): shape
                             for name, shape in properties.items()}}
    return {"type": "object", "additionalProperties": False, "properties": both,
            **({"required": list(required)} if required else {})}


_ANY = {}
_OBJECT = {"type": "object"}
_CONTENT = {"type": "object", "required": ["parts"], "properties": {
    "role": {"enum": ["user", "model"]}, "parts": {"type": "array", "items": _OBJECT}}}
_DECLARATION = _fields({"name": {"type": "string", "minLength": 1}, "description": {"type": "string"},
                        "parameters": _OBJECT, "parametersJsonSchema": _ANY, "response": _OBJECT,
                        "responseJsonSchema": _ANY, "behavior": {"type": "string"}}, ("name",))
_TOOL = _fields({"functionDeclarations": {"type": "array", "items": _DECLARATION}, "googleSearch": _OBJECT,
                 "googleSearchRetrieval": _OBJECT, "codeExecution": _OBJECT, "urlContext": _OBJECT,
                 "fileSearch": _OBJECT, "computerUse": _OBJECT, "googleMaps": _OBJECT, "mcpServers": _ANY})
_TOOL_CONFIG = _fields({"functionCallingConfig": _fields({
    "mode": {"enum": ["MODE_UNSPECIFIED", "AUTO", "ANY", "NONE", "VALIDATED"]},
    "allowedFunctionNames": {"type": "array", "items": {"type": "string"}}}), "retrievalConfig": _OBJECT})
_THINKING = _fields({"thinkingBudget": {"type": "integer"}, "includeThoughts": {"type": "boolean"},
                     "thinkingLevel": {"type": "string"}})
_GENERATION = _fields({
    "thinkingConfig": _THINKING, "temperature": {"type": "number"}, "topP": {"type": "number"},
    "topK": {"type": "number"}, "candidateCount": {"type": "integer"}, "maxOutputTokens": {"type": "integer"},
    "stopSequences": {"type": "array", "items": {"type": "string"}}, "seed": {"type": "integer"},
    "presencePenalty": {"type": "number"}, "frequencyPenalty": {"type": "number"},
    "responseMimeType": {"type": "string"}, "responseSchema": _OBJECT, "responseJsonSchema": _ANY,
    "responseModalities": {"type": "array"}, "responseLogprobs": {"type": "boolean"}, "logprobs": {"type": "integer"},
    "enableEnhancedCivicAnswers": {"type": "boolean"}, "speechConfig": _OBJECT, "imageConfig": _OBJECT,
    "mediaResolution": {"type": "string"}})

SCHEMA = _fields({
    "contents": {"type": "array", "items": _CONTENT},
    "systemInstruction": _CONTENT,
    "tools": {"type": "array", "items": _TOOL},
    "toolConfig": _TOOL_CONFIG,
    "generationConfig": _GENERATION,
    "safetySettings": {"type": "array", "items": _OBJECT},
    "cachedContent": {"type": "string"},
    "labels": _OBJECT,
}, ("contents",))

request_refusals = request_judge(SCHEMA)
"""Every refusal of a ``generateContent`` body's keys and shapes (its parts: :func:`harness.rules.gemini_history.refusals`)."""
