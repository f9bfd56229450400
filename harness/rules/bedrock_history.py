"""What Bedrock's Converse refuses in a request's messages, stated once, with the ``ValidationException`` text it answers.

:func:`refusals` judges a whole body and returns every refusal it finds, each
rule checked on its own (one fault never hides another), in message order.
Each :class:`Refusal` names its rule (:data:`RULES`), where it is
(``messages.N.content.M``) and the ``message`` of Bedrock's 400, as users
pasted them from real answers (docs/incidents.md, the ``bedrock-`` entries).

The rules:

- The first message is a user's, and user and assistant messages alternate.
- A user message holding ``toolResult`` blocks holds no conversation block
  (text, image, document) beside them (langchain-aws issue 141, litellm 6053).
- Every ``toolUse`` of an assistant message is answered by a ``toolResult``
  with its ``toolUseId`` in the next message (agno issue 6698); a call turn
  that closes the history is not judged, nothing answers it yet.
- A user message has no more ``toolResult`` blocks than the assistant
  message before it has ``toolUse`` blocks, and each answers one of them
  (strands issue 1435).
- A ``toolResult``'s ``status`` is ``success`` or ``error``, and its
  ``content`` is not empty when the status is ``error``.
- No text block is blank.
- A ``toolUseId`` matches ``[a-zA-Z0-9_.:-]+`` and has 1 to 64 characters
  (llama_index pull 22775).
- ``toolUse`` and ``toolResult`` blocks need a ``toolConfig`` in the body.
- Every ``reasoningText`` of the latest assistant message carries its
  ``signature`` (Astra pull 284: "thinking.signature: Field required").
- Given the turns the provider sent (``sent``, neutral turns, one per
  assistant message counted from the last), the latest assistant message's
  reasoning comes back as sent: each ``reasoningText`` its own text and
  signature, each ``redactedContent`` its bytes, in order (strands pull 3472,
  pi issue 8315: ``SIG1SIG2`` "cannot be modified").
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

FIRST_USER = "bedrock-first-message-user"
ROLES_ALTERNATE = "bedrock-roles-alternate"
RESULTS_ALONE = "bedrock-tool-results-alone"
TOOL_USE_ANSWERED = "bedrock-tool-use-answered"
TOOL_RESULT_PAIRED = "bedrock-tool-result-paired"
RESULT_STATUS = "bedrock-tool-result-status"
TEXT_NON_EMPTY = "bedrock-text-non-empty"
TOOL_USE_ID = "bedrock-tool-use-id"
TOOL_CONFIG = "bedrock-tool-config"
REASONING_SIGNED = "bedrock-reasoning-signed"
REASONING_AS_SENT = "bedrock-reasoning-as-sent"
RULES = (FIRST_USER, ROLES_ALTERNATE, RESULTS_ALONE, TOOL_USE_ANSWERED, TOOL_RESULT_PAIRED, RESULT_STATUS,
         TEXT_NON_EMPTY, TOOL_USE_ID, TOOL_CONFIG, REASONING_SIGNED, REASONING_AS_SENT)

# Bedrock's texts; {n} and {m} are places in messages and content, counted from 0.
FIRST_USER_TEXT = "A conversation must start with a user message. Try again with a conversation that starts with a user message."
ALTERNATE_TEXT = ("A conversation must alternate between user and assistant roles. Make sure the conversation "
                  "alternates between user and assistant roles and try again.")
MIXED_TEXT = "messages.{n}.content: Conversation blocks and tool result blocks cannot be provided in the same turn."
EXPECTED_TEXT = "Expected toolResult blocks at messages.{n}.content for the following Ids: {ids}"
EXCEEDS_TEXT = ("The number of toolResult blocks at messages.{n}.content exceeds the number of toolUse blocks of "
                "previous turn.")
STATUS_TEXT = ("1 validation error detected: Value '{status}' at 'messages.{n}.member.content.{m}.member.toolResult."
               "status' failed to satisfy constraint: Member must satisfy enum value set: [success, error]")
ERROR_EMPTY_TEXT = "The content field at messages.{n}.content.{m}.toolResult cannot be empty when status value is error."
BLANK_TEXT = ("The text field in the ContentBlock object at messages.{n}.content.{m} is blank. Add text to the text "
              "field, and try again.")
ID_TEXT = ("1 validation error detected: Value '{id}' at 'messages.{n}.member.content.{m}.member.toolUse.toolUseId' "
           "failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.:-]+")
TOOL_CONFIG_TEXT = "The toolConfig field must be defined when using toolUse and toolResult content blocks."
UNSIGNED_TEXT = "messages.{n}.content.{m}.thinking.signature: Field required"
MODIFIED_TEXT = ("messages.{n}.content.{m}: `thinking` or `redacted_thinking` blocks in the latest assistant message "
                 "cannot be modified. These blocks must remain as they were in the original response.")

TOOL_USE_ID_PATTERN = re.compile(r"[a-zA-Z0-9_.:-]{1,64}")


@dataclass(frozen=True)
class Refusal:
    """One thing Bedrock refuses: its rule, where it is, and the message of the ``ValidationException``."""

    rule: str
    path: str
    message: str


def content_of(message: object) -> list:
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _role(message: object) -> object:
    return message.get("role") if isinstance(message, dict) else None


def _uses(message: object) -> list[dict]:
    return [b["toolUse"] for b in content_of(message) if isinstance(b.get("toolUse"), dict)] \
        if _role(message) == "assistant" else []


def _results(message: object) -> list[tuple[int, dict]]:
    return [(m, b["toolResult"]) for m, b in enumerate(content_of(message)) if isinstance(b.get("toolResult"), dict)]


def refusals(body: dict, sent: list[dict] | None = None) -> list[Refusal]:
    """Every refusal Bedrock would answer ``body`` with (the module docstring states the rules)."""
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list):
        return []  # the request schema (bedrock_request) refuses a body without its messages
    found = _shape(messages)
    for n, message in enumerate(messages):
        found += _pairing(messages, n) + _blocks(message, n)
    if not body.get("toolConfig") and any(_uses(m) or _results(m) for m in messages):
        found.append(Refusal(TOOL_CONFIG, "toolConfig", TOOL_CONFIG_TEXT))
    found += _signed(messages)
    if sent:
        found += _as_sent(messages, sent[-1])
    return found


def _shape(messages: list) -> list[Refusal]:
    found = []
    if messages and _role(messages[0]) != "user":
        found.append(Refusal(FIRST_USER, "messages.0", FIRST_USER_TEXT))
    found += [Refusal(ROLES_ALTERNATE, f"messages.{n}", ALTERNATE_TEXT)
              for n in range(1, len(messages)) if _role(messages[n]) == _role(messages[n - 1])]
    for n, message in enumerate(messages):
        if _results(message) and len(_results(message)) < len(content_of(message)):
            found.append(Refusal(RESULTS_ALONE, f"messages.{n}.content", MIXED_TEXT.format(n=n)))
    return found


def _pairing(messages: list, n: int) -> list[Refusal]:
    found = []
    uses = _uses(messages[n])
    if uses and n + 1 < len(messages):
        answered = {r.get("toolUseId") for _, r in _results(messages[n + 1])}
        missing = [u.get("toolUseId") for u in uses if u.get("toolUseId") not in answered]
        if missing:
            found.append(Refusal(TOOL_USE_ANSWERED, f"messages.{n + 1}.content",
                                 EXPECTED_TEXT.format(n=n + 1, ids=", ".join(map(str, missing)))))
    results = _results(messages[n]) if _role(messages[n]) == "user" else []
    if results:
        before = {u.get("toolUseId") for u in _uses(messages[n - 1])} if n else set()
        if len(results) > len(before) or any(r.get("toolUseId") not in before for _, r in results):
            found.append(Refusal(TOOL_RESULT_PAIRED, f"messages.{n}.content", EXCEEDS_TEXT.format(n=n)))
    return found


def _blocks(message: object, n: int) -> list[Refusal]:
    found = []
    for m, block in enumerate(content_of(message)):
        if "text" in block and not (isinstance(block["text"], str) and block["text"].strip()):
            found.append(Refusal(TEXT_NON_EMPTY, f"messages.{n}.content.{m}.text", BLANK_TEXT.format(n=n, m=m)))
        use = block.get("toolUse")
        if isinstance(use, dict) and not (isinstance(use.get("toolUseId"), str)
                                          and TOOL_USE_ID_PATTERN.fullmatch(use["toolUseId"])):
            found.append(Refusal(TOOL_USE_ID, f"messages.{n}.content.{m}.toolUse.toolUseId",
                                 ID_TEXT.format(id=use.get("toolUseId"), n=n, m=m)))
        result = block.get("toolResult")
        if isinstance(result, dict):
            found += _result(result, n, m)
    return found


def _result(result: dict, n: int, m: int) -> list[Refusal]:
    status = result.get("status", "success")
    if status not in ("success", "error"):
        return [Refusal(RESULT_STATUS, f"messages.{n}.content.{m}.toolResult.status",
                        STATUS_TEXT.format(status=status, n=n, m=m))]
    if status == "error" and not result.get("content"):
        return [Refusal(RESULT_STATUS, f"messages.{n}.content.{m}.toolResult.content",
                        ERROR_EMPTY_TEXT.format(n=n, m=m))]
    return []


def _latest_assistant(messages: list) -> int | None:
    return next((n for n in range(len(messages) - 1, -1, -1) if _role(messages[n]) == "assistant"), None)


def _reasoning(message: object) -> list[tuple[int, dict]]:
    return [(m, b["reasoningContent"]) for m, b in enumerate(content_of(message))
            if isinstance(b.get("reasoningContent"), dict)]


def _signed(messages: list) -> list[Refusal]:
    n = _latest_assistant(messages)
    if n is None:
        return []
    return [Refusal(REASONING_SIGNED, f"messages.{n}.content.{m}.reasoningContent", UNSIGNED_TEXT.format(n=n, m=m))
            for m, reasoning in _reasoning(messages[n])
            if "redactedContent" not in reasoning and not (reasoning.get("reasoningText") or {}).get("signature")]


def redacted_bytes(value: object) -> object:
    """``redactedContent`` as the bytes it encodes (a blob travels as base64 in JSON); anything else as it is."""
    if not isinstance(value, str):
        return value
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return value


def _sent_reasoning(turn: dict) -> list[tuple]:
    found = []
    for block in turn.get("blocks") or ():
        if block.get("type") == "reasoning" and block.get("signature"):
            found.append(("text", block.get("text") or "", block["signature"]))
        elif block.get("type") == "redacted_reasoning":
            found.append(("redacted", redacted_bytes(block.get("data"))))
    return found


def _back(reasoning: dict) -> tuple:
    if "redactedContent" in reasoning:
        return ("redacted", redacted_bytes(reasoning["redactedContent"]))
    text = reasoning.get("reasoningText") or {}
    return ("text", text.get("text") or "", text.get("signature"))


def _as_sent(messages: list, turn: dict) -> list[Refusal]:
    n = _latest_assistant(messages)
    if n is None:
        return []
    back = _reasoning(messages[n])
    want = _sent_reasoning(turn)
    if [_back(r) for _, r in back] == want:
        return []
    m = next((m for (m, r), w in zip(back, want) if _back(r) != w), back[len(want)][0] if len(back) > len(want) else 0)
    return [Refusal(REASONING_AS_SENT, f"messages.{n}.content.{m}", MODIFIED_TEXT.format(n=n, m=m))]


def declared_tools(body: dict) -> dict[str, dict]:
    """The tools a request declares, by name: ``{"description", "parameters"}`` (``toolConfig.tools[].toolSpec``)."""
    found = {}
    config = body.get("toolConfig") if isinstance(body, dict) else None
    tools = config.get("tools") if isinstance(config, dict) else None
    for tool in tools if isinstance(tools, list) else ():
        spec = tool.get("toolSpec") if isinstance(tool, dict) else None
        if isinstance(spec, dict) and isinstance(spec.get("name"), str):
            schema = spec.get("inputSchema")
            found[spec["name"]] = {"description": spec.get("description"),
                                   "parameters": schema.get("json") if isinstance(schema, dict) else None}
    return found
