"""What Anthropic's Messages API refuses in a request body, stated once, with the 400 text it answers.

:func:`refusals` judges a whole body and returns every refusal it finds, each
checked on its own (one fault never hides another), in message order. Each
:class:`Refusal` names its rule (:data:`RULES`, also in
:mod:`harness.rules.registry`), where it is (``messages.N.content.M``) and the
text Anthropic puts in ``error.message`` of its ``invalid_request_error``,
with the path filled in where Anthropic's text carries one. The texts are the
ones users pasted from real 400s; the role texts come from the same reports.

The rules, by the Messages documentation:

- ``role`` is ``user`` or ``assistant``; the system prompt is the top-level
  ``system`` field, never a message. The first message is a user's, and the
  roles alternate, except that a user message holding only tool results may
  be followed by the user's next text in a message of its own (Anthropic
  combines consecutive user turns; no document or 400 requires one message).
- Content is non-empty (a string or a list of blocks), except in a final
  assistant message; text blocks are not blank (empty or only whitespace), in tool results too;
  ``redacted_thinking`` carries its ``data``, a ``thinking`` block its
  ``thinking`` (``""`` is a value: models that omit their thinking send it).
- Every ``tool_use`` of an assistant message is answered by a ``tool_result``
  with its ``tool_use_id`` in the very next message, among the results that
  open it (a result after the text is not "immediately after"); a
  ``tool_result`` answers a ``tool_use`` of the message right before it.
- The *open* assistant message is the one the request continues: the last
  message when it is an assistant's, or the assistant message whose tool use
  the last (user) message answers. With thinking enabled
  (``thinking.type`` ``enabled`` or ``adaptive``), an open tool turn starts
  with a ``thinking`` or ``redacted_thinking`` block, and an open assistant
  message that holds any starts with one (the report names no other message,
  github.com/lbjlaq/Antigravity-Manager/issues/653). With thinking disabled
  the open assistant message holds neither (earlier ones Anthropic ignores).
- Given the turns the provider sent (``sent``, neutral turns of
  :mod:`harness.adapter`, oldest first, one per assistant message counted from
  the last), with thinking enabled the thinking and redacted_thinking blocks
  of the latest assistant message come back as they were sent: each one's
  text and signature (or data) byte for byte, in the same order, each with
  the same number of other blocks before it (blank text blocks, which cannot
  be sent back, are not counted). Omitting them is allowed in a finished
  turn, never in the open one. A redacted_thinking block whose ``data`` is
  no redacted data Anthropic sent (edited, or a thinking block's signature
  moved there) cannot be decrypted: its own text (microsoft/vscode pull
  320196), where a block moved or dropped gets "cannot be modified". With ``every_turn`` (newer models, a
  provider-level rule) each earlier assistant message is held to the same,
  omission included; Anthropic answers such a change with the same text.
  Without ``sent``, a thinking block of the latest assistant message whose
  signature is empty or missing is refused (no signature verifies).
"""

from __future__ import annotations

from dataclasses import dataclass

# Rule names (harness.rules.registry holds their levels and titles).
MESSAGE_ROLES = "anthropic-message-roles"
FIRST_USER = "anthropic-first-message-user"
ROLES_ALTERNATE = "anthropic-roles-alternate"
CONTENT_NON_EMPTY = "anthropic-content-non-empty"
TEXT_NON_EMPTY = "anthropic-text-non-empty"
REDACTED_DATA = "anthropic-redacted-data"
TOOL_USE_ANSWERED = "anthropic-tool-use-answered"
TOOL_RESULT_PAIRED = "anthropic-tool-result-paired"
TOOL_TURN_THINKING = "anthropic-tool-turn-starts-with-thinking"
NO_THINKING_WHEN_OFF = "anthropic-no-thinking-when-disabled"
THINKING_UNMODIFIED = "anthropic-thinking-unmodified"
THINKING_SIGNED = "anthropic-thinking-signed"
EARLIER_UNCHANGED = "anthropic-earlier-turns-unchanged"
THINKING_TEXT = "anthropic-thinking-text"
THINKING_FIRST = "anthropic-thinking-first"
RULES = (MESSAGE_ROLES, FIRST_USER, ROLES_ALTERNATE, CONTENT_NON_EMPTY, TEXT_NON_EMPTY, REDACTED_DATA,
         TOOL_USE_ANSWERED, TOOL_RESULT_PAIRED, TOOL_TURN_THINKING, NO_THINKING_WHEN_OFF, THINKING_UNMODIFIED,
         THINKING_SIGNED, THINKING_TEXT, THINKING_FIRST, EARLIER_UNCHANGED)

# Anthropic's texts; {path} is where the fault is, {ids} the tool_use ids joined with ", ".
ROLE_TEXT = "{path}.role: Input should be 'user' or 'assistant'"
FIRST_USER_TEXT = 'messages: first message must use the "user" role'
ALTERNATE_TEXT = ('messages: roles must alternate between "user" and "assistant", '
                  'but found multiple "{role}" roles in a row')
EMPTY_CONTENT_TEXT = "{path}: all messages must have non-empty content except for the optional final assistant message"
EMPTY_TEXT_TEXT = "messages: text content blocks must be non-empty"
BLANK_TEXT_TEXT = "messages: text content blocks must contain non-whitespace text"
REDACTED_DATA_TEXT = "{path}.redacted_thinking.data: Field required"
THINKING_TEXT_TEXT = "{path}.thinking.thinking: Field required"
THINKING_FIRST_TEXT = ("If an assistant message contains any thinking blocks, the first block must be thinking or "
                       "redacted_thinking. Found {found}.")
UNANSWERED_TEXT = ("{path}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. "
                   "Each `tool_use` block must have a corresponding `tool_result` block in the next message.")
ORPHAN_TEXT = ("unexpected `tool_use_id` found in `tool_result` blocks: {ids}. "
               "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.")
STARTS_WITH_THINKING_TEXT = (
    "{path}.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. When `thinking` is enabled, "
    "a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and "
    "`tool_result` blocks).")
THINKING_OFF_TEXT = "When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`."
UNMODIFIED_TEXT = ("{path}: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be "
                   "modified. These blocks must remain as they were in the original response.")
SIGNATURE_TEXT = "{path}: Invalid `signature` in `thinking` block"
# Uncertain: the report quotes no path, and no report shows which text an edited block of an earlier turn gets.
INVALID_DATA_TEXT = "Invalid 'data' in 'redacted_thinking' block"

THINKING_TYPES = ("thinking", "redacted_thinking")


@dataclass(frozen=True)
class Refusal:
    """One thing Anthropic refuses: its rule, where it is, and the ``error.message`` of the 400."""

    rule: str
    path: str
    message: str


def refusals(body: dict, sent: list[dict] | None = None, *, every_turn: bool = False) -> list[Refusal]:
    """Every refusal Anthropic would answer ``body`` with (the module docstring states the rules)."""
    # A body that is no object has no history to judge: the request schema (anthropic_request) refuses it.
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list):
        return []
    found: list[Refusal] = []
    found += _roles(messages)
    for n, message in enumerate(messages):
        found += _content(messages, n)
        found += _pairing(messages, n)
    found += _thinking_switch(body, messages)
    if thinking_enabled(body):
        found += _unsigned(messages) if sent is None else _unmodified(messages, sent, every_turn)
    return found


def thinking_enabled(body: dict) -> bool:
    thinking = body.get("thinking")
    return isinstance(thinking, dict) and thinking.get("type") in ("enabled", "adaptive")


def wire_block(block: dict) -> dict:
    """A neutral block (:mod:`harness.adapter`) as the content block Anthropic sent for it."""
    kind = block.get("type")
    if kind == "reasoning":
        return {"type": "thinking", "thinking": block.get("text"), "signature": block.get("signature")}
    if kind == "redacted_reasoning":
        return {"type": "redacted_thinking", "data": block.get("data")}
    if kind == "tool_call":
        return {"type": "tool_use", "id": block.get("id"), "name": block.get("name")}
    return {"type": "text", "text": block.get("text")}


def open_assistant(messages: list[dict]) -> int | None:
    """The index of the assistant message the request continues (module docstring), or None."""
    if not messages:
        return None
    last = len(messages) - 1
    if _role(messages[last]) == "assistant":
        return last
    if last >= 1 and _role(messages[last - 1]) == "assistant" and _leading_results(messages[last]):
        return last - 1
    return None


def _role(message: object) -> object:
    return message.get("role") if isinstance(message, dict) else None


def _blocks(message: object) -> list:
    """A message's content as blocks: a string is one text block."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return content if isinstance(content, list) else []


def _leading_results(message: object) -> list[dict]:
    """The tool_result blocks that open a user message's content."""
    run = []
    for block in _blocks(message):
        if not (isinstance(block, dict) and block.get("type") == "tool_result"):
            break
        run.append(block)
    return run


def _only_results(message: object) -> bool:
    blocks = _blocks(message)
    return bool(blocks) and len(_leading_results(message)) == len(blocks)


def tool_result_text(block: dict) -> str | None:
    """The text a ``tool_result`` carries: its string content, or its text blocks joined; absent or ``[]``: ``""``
    (the API takes both for an empty result). ``None`` for content that is not a form of text."""
    content = block.get("content", "")
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(b, dict) and b.get("type") == "text"
                                         and isinstance(b.get("text"), str) for b in content):
        return "".join(b["text"] for b in content)
    return None


def _roles(messages: list[dict]) -> list[Refusal]:
    found = []
    previous = None
    for n, message in enumerate(messages):
        role = _role(message)
        if role not in ("user", "assistant"):
            found.append(Refusal(MESSAGE_ROLES, f"messages.{n}.role", ROLE_TEXT.format(path=f"messages.{n}")))
            previous = None
            continue
        if n == 0 and role != "user":
            found.append(Refusal(FIRST_USER, "messages.0.role", FIRST_USER_TEXT))
        if role == previous and not (role == "user" and _only_results(messages[n - 1])):
            found.append(Refusal(ROLES_ALTERNATE, f"messages.{n}.role", ALTERNATE_TEXT.format(role=role)))
        previous = role
    return found


def _content(messages: list[dict], n: int) -> list[Refusal]:
    message = messages[n]
    content = message.get("content") if isinstance(message, dict) else None
    final_assistant = n == len(messages) - 1 and _role(message) == "assistant"
    if content in ("", []) and not final_assistant:
        return [Refusal(CONTENT_NON_EMPTY, f"messages.{n}", EMPTY_CONTENT_TEXT.format(path=f"messages.{n}"))]
    found = []
    for m, block in enumerate(content if isinstance(content, list) else ()):
        path = f"messages.{n}.content.{m}"
        if not isinstance(block, dict):
            continue
        inner = block.get("content") if block.get("type") == "tool_result" else None
        texts = [block] + [b for b in inner if isinstance(b, dict)] if isinstance(inner, list) else [block]
        blank = [b.get("text") for b in texts if b.get("type") == "text" and isinstance(b.get("text"), str)
                 and not b.get("text").strip()]
        if blank:
            found.append(Refusal(TEXT_NON_EMPTY, path, EMPTY_TEXT_TEXT if "" in blank else BLANK_TEXT_TEXT))
        if block.get("type") == "redacted_thinking" and block.get("data") is None:
            found.append(Refusal(REDACTED_DATA, f"{path}.redacted_thinking.data", REDACTED_DATA_TEXT.format(path=path)))
        if block.get("type") == "thinking" and block.get("thinking") is None:
            found.append(Refusal(THINKING_TEXT, f"{path}.thinking.thinking", THINKING_TEXT_TEXT.format(path=path)))
    return found


def _tool_use_ids(message: object) -> list:
    return [b.get("id") for b in _blocks(message) if isinstance(b, dict) and b.get("type") == "tool_use"]


def _pairing(messages: list[dict], n: int) -> list[Refusal]:
    message = messages[n]
    found = []
    if _role(message) == "assistant":
        following = messages[n + 1] if n + 1 < len(messages) else None
        # Lists, not sets: an id of any JSON type is compared, never hashed.
        answered = [b.get("tool_use_id") for b in _leading_results(following)] if _role(following) == "user" else []
        unanswered = [i for i in _tool_use_ids(message) if i not in answered]
        if unanswered:
            found.append(Refusal(TOOL_USE_ANSWERED, f"messages.{n}", UNANSWERED_TEXT.format(
                path=f"messages.{n}", ids=", ".join(map(str, unanswered)))))
    elif _role(message) == "user":
        previous = messages[n - 1] if n >= 1 and _role(messages[n - 1]) == "assistant" else None
        calls = _tool_use_ids(previous)
        orphans = [(m, b.get("tool_use_id")) for m, b in enumerate(_blocks(message))
                   if isinstance(b, dict) and b.get("type") == "tool_result" and b.get("tool_use_id") not in calls]
        if orphans:
            found.append(Refusal(TOOL_RESULT_PAIRED, f"messages.{n}.content.{orphans[0][0]}", ORPHAN_TEXT.format(
                ids=", ".join(str(i) for _, i in orphans))))
    return found


def _thinking_switch(body: dict, messages: list[dict]) -> list[Refusal]:
    at = open_assistant(messages)
    if at is None:
        return []
    blocks = _blocks(messages[at])
    if thinking_enabled(body):
        in_tool_loop = at == len(messages) - 2
        first = blocks[0].get("type") if blocks and isinstance(blocks[0], dict) else None
        if in_tool_loop and blocks and first not in THINKING_TYPES:
            path = f"messages.{at}.content.0"
            return [Refusal(TOOL_TURN_THINKING, f"{path}.type",
                            STARTS_WITH_THINKING_TEXT.format(path=path, found=first))]
        if blocks and first not in THINKING_TYPES and any(
                isinstance(b, dict) and b.get("type") in THINKING_TYPES for b in blocks):
            return [Refusal(THINKING_FIRST, f"messages.{at}.content.0.type", THINKING_FIRST_TEXT.format(found=first))]
        return []
    thinking = [m for m, b in enumerate(blocks) if isinstance(b, dict) and b.get("type") in THINKING_TYPES]
    if thinking:
        return [Refusal(NO_THINKING_WHEN_OFF, f"messages.{at}.content.{thinking[0]}", THINKING_OFF_TEXT)]
    return []


def _placed_thinking(blocks: list) -> list[tuple[int, dict, int]]:
    """Each thinking or redacted_thinking block with its index and how many other blocks precede it.

    Blank text blocks (empty or only whitespace) are not counted: the wire refuses them, so they never come back.
    """
    placed, others = [], 0
    for m, block in enumerate(blocks):
        if not isinstance(block, dict):
            others += 1
        elif block.get("type") in THINKING_TYPES:
            placed.append((m, block, others))
        elif not (block.get("type") == "text" and not (block.get("text") or "").strip()):
            others += 1
    return placed


def _opaque(block: dict) -> tuple:
    if block.get("type") == "thinking":
        return ("thinking", block.get("thinking"), block.get("signature"))
    return ("redacted_thinking", block.get("data"))


def _first_change(n: int, blocks: list, turn: dict, issued: list) -> tuple[str, str] | None:
    """Where the thinking of ``blocks`` (message ``n``) first differs from the sent turn's, and the text for it;
    ``issued``: every redacted data the provider sent (other bytes cannot be decrypted)."""
    sent = _placed_thinking([wire_block(b) for b in turn.get("blocks") or () if isinstance(b, dict)])
    got = _placed_thinking(blocks)
    for k, want in enumerate(sent):
        if k >= len(got):
            m = got[-1][0] if got else 0
            return f"messages.{n}.content.{m}", UNMODIFIED_TEXT
        m, block, before = got[k]
        path = f"messages.{n}.content.{m}"
        if before != want[2] or _opaque(block) != _opaque(want[1]):
            same_text = before == want[2] and _opaque(block)[:2] == _opaque(want[1])[:2]
            if same_text and block.get("type") == "thinking":
                return path, SIGNATURE_TEXT
            if block.get("type") == "redacted_thinking" and block.get("data") not in issued:
                return path, INVALID_DATA_TEXT
            return path, UNMODIFIED_TEXT
    if len(got) > len(sent):
        return f"messages.{n}.content.{got[len(sent)][0]}", UNMODIFIED_TEXT
    return None


def _unsigned(messages: list[dict]) -> list[Refusal]:
    assistants = [n for n, message in enumerate(messages) if _role(message) == "assistant"]
    if not assistants:
        return []
    n = assistants[-1]
    paths = [f"messages.{n}.content.{m}" for m, block, _ in _placed_thinking(_blocks(messages[n]))
             if block.get("type") == "thinking" and not block.get("signature")]
    return [Refusal(THINKING_SIGNED, path, SIGNATURE_TEXT.format(path=path)) for path in paths]


def _unmodified(messages: list[dict], sent: list[dict], every_turn: bool) -> list[Refusal]:
    assistants = [n for n, message in enumerate(messages) if _role(message) == "assistant"]
    issued = [b.get("data") for t in sent for b in t.get("blocks") or ()
              if isinstance(b, dict) and b.get("type") == "redacted_reasoning"]
    found = []
    for k, n in enumerate(reversed(assistants)):
        if k >= len(sent) or (k > 0 and not every_turn):
            break
        blocks = _blocks(messages[n])
        if k == 0 and n != open_assistant(messages) and not _placed_thinking(blocks):
            continue  # a finished turn's thinking may be left out
        change = _first_change(n, blocks, sent[len(sent) - 1 - k], issued)
        if change is not None:
            path, text = change
            found.append(Refusal(THINKING_UNMODIFIED if k == 0 else EARLIER_UNCHANGED, path, text.format(path=path)))
    return found


def declared_tools(body: dict) -> dict[str, dict]:
    """The tools a Messages request declares, by name: ``{"description", "parameters"}`` (its ``input_schema``).

    Messages declares each tool as ``{"name", "description", "input_schema"}`` in the top-level ``tools``
    list; an entry in another format's shape declares nothing Anthropic reads.
    """
    return {t["name"]: {"description": t.get("description"), "parameters": t.get("input_schema")}
            for t in _entries(body.get("tools") if isinstance(body, dict) else None)
            if isinstance(t.get("name"), str) and "input_schema" in t}


def _entries(value: object) -> list[dict]:
    return [entry for entry in value if isinstance(entry, dict)] if isinstance(value, list) else []
