"""What the providers answer to a request they refuse: HTTP status and error body, by provider.

The texts are the providers' own words as their APIs return them, so a client
sees exactly what it would see in production; each is tied to where it is
documented or publicly reported:

- the pairing rule (OpenAI's form names the unanswered ids; DeepSeek's adds a
  parenthesis instead) and its inverse, a tool message with no call before
  it: OpenAI's function-calling guide
  (https://platform.openai.com/docs/guides/function-calling) and DeepSeek's
  (https://api-docs.deepseek.com/guides/function_calling) describe the rule;
  the texts are the 400 bodies both APIs return, as quoted in public client
  bug reports;
- DeepSeek's ``reasoning_content`` round-trip, one text per era, and its
  refusal of a forced ``tool_choice`` in thinking mode:
  https://api-docs.deepseek.com/guides/thinking_mode and
  https://api-docs.deepseek.com/guides/reasoning_model (R1);
- OpenAI's strict message schema, which refuses a key it does not know on a
  message (public bug reports, e.g. openai/openai-node#1161: "Additional
  properties are not allowed ('parsed' was unexpected) - 'messages.2'"), and
  an unknown top-level argument ("Unrecognized request argument supplied").

Both providers wrap the text the same way: ``{"error": {"message", "type",
"param", "code"}}`` with ``type: "invalid_request_error"``.
"""

from __future__ import annotations

# The pairing rule's and the reasoning rule's texts live with the rules (harness.rules), which the contracts quote too.
from harness.rules.reasoning import ANSWERS as _REASONING

# DeepSeek, by era of its reasoning_content rule.
R1_REASONING_SENT_BACK = _REASONING["r1"]
V32_REASONING_MISSING = _REASONING["v3.2"]
CURRENT_REASONING_MISSING = _REASONING["current"]
THINKING_TOOL_CHOICE = "Thinking mode does not support this tool_choice"
# OpenAI's strict schema: a key it does not know on a message, and an argument it does not know.
OPENAI_UNKNOWN_MESSAGE_FIELD = "Additional properties are not allowed ('{field}' was unexpected) - 'messages.{n}'"
OPENAI_UNKNOWN_ARGUMENT = "Unrecognized request argument supplied: {name}"
# Requests that are not a chat completion at all.
NOT_JSON = "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your " \
    "HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)"
MISSING_MESSAGES = "Missing required parameter: 'messages'."
INVALID_URL = "Invalid URL ({method} {path})"


def error_body(message: str, *, param: str | None = None, code: str | None = None,
               type: str = "invalid_request_error") -> dict:
    """The error object both providers answer with."""
    return {"error": {"message": message, "type": type, "param": param, "code": code}}
