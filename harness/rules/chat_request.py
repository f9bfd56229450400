"""A chat completions request: the function tools it declares, and what OpenAI's request validator refuses in it."""

from __future__ import annotations

from harness.rules.schema_request import request_judge


def declared_tools(body: object) -> dict[str, dict]:
    """The function tools a chat request declares, by name: ``{"description", "parameters"}``.

    Chat declares each as ``{"type": "function", "function": {"name", "description", "parameters"}}``.
    """
    tools = body.get("tools") if isinstance(body, dict) else None
    found = {}
    for tool in tools if isinstance(tools, list) else ():
        function = tool.get("function") if isinstance(tool, dict) and tool.get("type") == "function" else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            found[function["name"]] = {"description": function.get("description"),
                                       "parameters": function.get("parameters")}
    return found


_FUNCTION = {"type": "object", "required": ["name"], "additionalProperties": False, "properties": {
    "name": {"type": "string", "minLength": 1}, "description": {"type": "string"},
    "parameters": {"type": "object"}, "strict": {"type": ["boolean", "null"]}}}
_TOOL = {"type": "object", "required": ["type"], "properties": {"type": {"enum": ["function", "custom"]}},
         "oneOf": [{"required": ["function"], "additionalProperties": False,
                    "properties": {"type": {"const": "function"}, "function": _FUNCTION}},
                   {"required": ["custom"], "additionalProperties": False,
                    "properties": {"type": {"const": "custom"}, "custom": {"type": "object", "required": ["name"]}}}]}
_TOOL_CHOICE = {"anyOf": [
    {"enum": ["none", "auto", "required"]},
    {"type": "object", "required": ["type", "function"], "additionalProperties": False,
     "properties": {"type": {"const": "function"}, "function": {
         "type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}},
    {"type": "object", "required": ["type"], "properties": {"type": {"enum": ["allowed_tools", "custom"]}}}]}

# The create-chat-completion body as OpenAI documents it (API reference, "Create chat completion").
SCHEMA = {
    "type": "object",
    "required": ["model", "messages"],
    "additionalProperties": False,
    "properties": {
        "model": {"type": "string", "minLength": 1},
        "messages": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["role"],
            "properties": {"role": {"enum": ["developer", "system", "user", "assistant", "tool", "function"]}}}},
        "tools": {"type": "array", "items": _TOOL},
        "tool_choice": _TOOL_CHOICE,
        "parallel_tool_calls": {"type": "boolean"},
        "stream": {"type": ["boolean", "null"]},
        "stream_options": {"type": ["object", "null"]},
        "max_tokens": {"type": ["integer", "null"]},
        "max_completion_tokens": {"type": ["integer", "null"]},
        "reasoning_effort": {"type": ["string", "null"]},
        "temperature": {"type": ["number", "null"]},
        "top_p": {"type": ["number", "null"]},
        "n": {"type": ["integer", "null"]},
        "stop": {"type": ["string", "array", "null"]},
        "seed": {"type": ["integer", "null"]},
        "presence_penalty": {"type": ["number", "null"]},
        "frequency_penalty": {"type": ["number", "null"]},
        "logit_bias": {"type": ["object", "null"]},
        "logprobs": {"type": ["boolean", "null"]},
        "top_logprobs": {"type": ["integer", "null"]},
        "response_format": {"type": "object"},
        "metadata": {"type": ["object", "null"]},
        "store": {"type": ["boolean", "null"]},
        "user": {"type": "string"},
        "safety_identifier": {"type": "string"},
        "prompt_cache_key": {"type": "string"},
        "prompt_cache_retention": {"type": ["string", "null"]},
        "service_tier": {"type": ["string", "null"]},
        "modalities": {"type": ["array", "null"]},
        "audio": {"type": ["object", "null"]},
        "prediction": {"type": ["object", "null"]},
        "verbosity": {"type": ["string", "null"]},
        "web_search_options": {"type": "object"},
        "functions": {"type": "array"},
        "function_call": {"type": ["string", "object"]},
    },
}

request_refusals = request_judge(SCHEMA)
"""Every refusal of a chat completions body (no 400 text of OpenAI's for these is documented: the messages are ours)."""
