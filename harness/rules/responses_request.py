"""What OpenAI's Responses API refuses in a request body beyond its input items: required keys, top-level keys, shapes.

The body as the API reference documents ``POST /v1/responses``: ``model``, and
``input`` as a string or a list of items; a function tool is flat,
``{"type": "function", "name", "parameters", "description"?, "strict"?}``
(chat's nesting under ``function`` is refused), any other tool names its
built-in ``type``; ``tool_choice`` is ``none``, ``auto``, ``required`` or an
object naming a type (``{"type": "function", "name"}``); ``reasoning`` holds
``effort`` and ``summary``; ``include`` lists the documented extra outputs
(``reasoning.encrypted_content``...). OpenAI's 400 texts for these
violations are not documented here, so the messages are ours.
"""

from __future__ import annotations

from harness.rules.schema_request import request_judge

_FUNCTION_TOOL = {"type": "object", "required": ["type", "name"], "additionalProperties": False, "properties": {
    "type": {"const": "function"}, "name": {"type": "string", "minLength": 1},
    "description": {"type": ["string", "null"]}, "parameters": {"type": ["object", "null"]},
    "strict": {"type": ["boolean", "null"]}}}
_BUILT_IN_TOOL = {"type": "object", "required": ["type"],
                  "properties": {"type": {"type": "string", "not": {"const": "function"}}}}
_TOOL_CHOICE = {"anyOf": [
    {"enum": ["none", "auto", "required"]},
    {"type": "object", "required": ["type", "name"], "additionalProperties": False,
     "properties": {"type": {"const": "function"}, "name": {"type": "string"}}},
    {"type": "object", "required": ["type"], "properties": {"type": {"type": "string", "not": {"const": "function"}}}}]}
INCLUDABLE = ("reasoning.encrypted_content", "file_search_call.results", "web_search_call.results",
              "web_search_call.action.sources", "message.input_image.image_url",
              "computer_call_output.output.image_url", "code_interpreter_call.outputs", "message.output_text.logprobs")

SCHEMA = {
    "type": "object",
    "required": ["model", "input"],
    "additionalProperties": False,
    "properties": {
        "model": {"type": "string", "minLength": 1},
        "input": {"type": ["string", "array"], "items": {"type": "object"}},
        "instructions": {"type": ["string", "array", "null"]},
        "tools": {"type": "array", "items": {"oneOf": [_FUNCTION_TOOL, _BUILT_IN_TOOL]}},
        "tool_choice": _TOOL_CHOICE,
        "parallel_tool_calls": {"type": ["boolean", "null"]},
        "max_tool_calls": {"type": ["integer", "null"]},
        "store": {"type": ["boolean", "null"]},
        "include": {"type": ["array", "null"], "items": {"enum": list(INCLUDABLE)}},
        "reasoning": {"type": ["object", "null"], "additionalProperties": False, "properties": {
            "effort": {"enum": ["none", "minimal", "low", "medium", "high", "xhigh", None]},
            "summary": {"enum": ["auto", "concise", "detailed", None]},
            "generate_summary": {"enum": ["auto", "concise", "detailed", None]}}},
        "stream": {"type": ["boolean", "null"]},
        "stream_options": {"type": ["object", "null"]},
        "max_output_tokens": {"type": ["integer", "null"]},
        "temperature": {"type": ["number", "null"]},
        "top_p": {"type": ["number", "null"]},
        "top_logprobs": {"type": ["integer", "null"]},
        "truncation": {"enum": ["auto", "disabled", None]},
        "text": {"type": ["object", "null"]},
        "metadata": {"type": ["object", "null"]},
        "previous_response_id": {"type": ["string", "null"]},
        "conversation": {"type": ["string", "object", "null"]},
        "prompt": {"type": ["object", "null"]},
        "prompt_cache_key": {"type": "string"},
        "prompt_cache_retention": {"type": ["string", "null"]},
        "background": {"type": ["boolean", "null"]},
        "service_tier": {"type": ["string", "null"]},
        "safety_identifier": {"type": "string"},
        "user": {"type": "string"},
    },
}

request_refusals = request_judge(SCHEMA)
"""Every refusal of a Responses body's keys and shapes (its input items: :func:`harness.rules.responses_history.refusals`)."""
