"""What the OpenAI Responses API refuses in a request's ``input``, stated once, each rule its own check, with its text.

:func:`refusals` judges a whole body and returns every refusal it finds, in
input order; each :class:`Refusal` names its rule, where it is
(``input[N]``) and the text of the provider's error. The rules, by the
Responses documentation on passing reasoning items back:

- A reasoning item is followed by the item it preceded: an assistant
  ``message`` or a ``function_call`` (never nothing, a user message or a tool
  output).
- Every reasoning item carries ``summary`` (``[]`` when it has none).
- Each ``function_call_output`` answers the ``call_id`` of a
  ``function_call`` before it in the input.
- Under ``store: false`` nothing is kept server-side: a reasoning item goes
  back whole, with its ``encrypted_content``; a bare id (an item reference,
  or a reasoning item without it) is not found.
- Given the turns the provider sent (``sent``, neutral turns of
  :mod:`harness.adapter`), a function call made after reasoning comes with
  that reasoning item before it, and so does an assistant message sent back
  with the id the provider gave it ("Item 'msg_...' of type 'message' was
  provided without its required 'reasoning' item: 'rs_...'.",
  NousResearch/hermes-agent issue 97427); a reasoning item's
  ``encrypted_content`` is the one sent, byte for byte: other bytes cannot
  be decrypted, and the error names the item ("The encrypted content for
  item rs_... could not be verified.", continuedev/continue issue 10643;
  reports before 2026 quote the blob in the item's place).
"""

from __future__ import annotations

from dataclasses import dataclass

REASONING_FOLLOWED = "responses-reasoning-followed"
SUMMARY_REQUIRED = "responses-reasoning-summary"
OUTPUT_ANSWERS_CALL = "responses-output-answers-call"
NOT_STORED = "responses-reasoning-not-stored"
CALL_WITH_REASONING = "responses-call-with-reasoning"
ENCRYPTED_UNCHANGED = "responses-encrypted-unchanged"
MESSAGE_WITH_REASONING = "responses-message-with-reasoning"
RULES = (REASONING_FOLLOWED, SUMMARY_REQUIRED, OUTPUT_ANSWERS_CALL, NOT_STORED, CALL_WITH_REASONING,
         ENCRYPTED_UNCHANGED, MESSAGE_WITH_REASONING)

FOLLOWED_TEXT = "Item '{id}' of type 'reasoning' was provided without its required following item."
SUMMARY_TEXT = "Input[{n}] missing required field 'summary'"
OUTPUT_TEXT = "No tool call found for function call output with call_id {call_id}."
NOT_STORED_TEXT = "Item with id '{id}' not found. Items are not persisted when `store` is set to false."
WITH_REASONING_TEXT = "Item '{id}' of type 'function_call' was provided without its required 'reasoning' item: '{rs}'."
MESSAGE_WITH_REASONING_TEXT = ("Item '{id}' of type 'message' was provided without its required 'reasoning' item: "
                               "'{rs}'.")
# Uncertain: which of the blob (older reports) or the item id (reports since 2026) the text names today.
ENCRYPTED_TEXT = ("The encrypted content for item {id} could not be verified. Reason: Encrypted content could not be "
                  "decrypted or parsed.")


@dataclass(frozen=True)
class Refusal:
    rule: str
    path: str
    message: str


def _items(body: dict) -> list:
    items = body.get("input")
    return items if isinstance(items, list) else []


def item_type(item: object) -> str | None:
    """An input item's type; an item with a ``role`` and no ``type`` is a message (the API's easy input message)."""
    if not isinstance(item, dict):
        return None
    return item.get("type", "message" if "role" in item else None)


def _follows(item: object) -> bool:
    return item_type(item) == "function_call" or (item_type(item) == "message" and item.get("role") == "assistant")


def reasoning_followed(body: dict) -> list[Refusal]:
    items = _items(body)
    return [Refusal(REASONING_FOLLOWED, f"input[{n}]", FOLLOWED_TEXT.format(id=item.get("id")))
            for n, item in enumerate(items)
            if item_type(item) == "reasoning" and not (n + 1 < len(items) and _follows(items[n + 1]))]


def summary_required(body: dict) -> list[Refusal]:
    return [Refusal(SUMMARY_REQUIRED, f"input[{n}]", SUMMARY_TEXT.format(n=n))
            for n, item in enumerate(_items(body)) if item_type(item) == "reasoning" and "summary" not in item]


def outputs_answer_calls(body: dict) -> list[Refusal]:
    found, called = [], []  # a list: a call_id of any JSON type is compared, never hashed
    for n, item in enumerate(_items(body)):
        if item_type(item) == "function_call":
            called.append(item.get("call_id"))
        elif item_type(item) == "function_call_output" and item.get("call_id") not in called:
            found.append(Refusal(OUTPUT_ANSWERS_CALL, f"input[{n}]", OUTPUT_TEXT.format(call_id=item.get("call_id"))))
    return found


def not_stored(body: dict) -> list[Refusal]:
    if body.get("store") is not False:
        return []
    return [Refusal(NOT_STORED, f"input[{n}]", NOT_STORED_TEXT.format(id=item.get("id")))
            for n, item in enumerate(_items(body))
            if (item_type(item) == "item_reference" and str(item.get("id", "")).startswith("rs_"))
            or (item_type(item) == "reasoning" and not item.get("encrypted_content"))]


def _reasoning_before_calls(sent: list[dict]) -> dict[str, dict]:
    """Each call id the provider sent after a reasoning item, with that (nearest) reasoning block."""
    return _reasoning_before(sent, "tool_call", "id")


def _reasoning_before(sent: list[dict], kind: str, key: str) -> dict[str, dict]:
    """Each ``key`` of a ``kind`` block the provider sent after a reasoning item, with that (nearest) reasoning."""
    found: dict[str, dict] = {}
    for turn in sent:
        last = None
        for block in turn.get("blocks") or []:
            if block.get("type") == "reasoning":
                last = block
            elif block.get("type") == kind and last is not None and block.get(key):
                found[block[key]] = last
    return found


def messages_with_reasoning(body: dict, sent: list[dict]) -> list[Refusal]:
    """An assistant message sent back with its id comes after the reasoning item the provider sent before it."""
    needed = _reasoning_before(sent, "text", "item_id")
    found, seen = [], set()
    for n, item in enumerate(_items(body)):
        if item_type(item) == "reasoning":
            seen.add(item.get("id"))
        elif item_type(item) == "message" and item.get("id") in needed:
            rs = needed[item["id"]].get("item_id")
            if rs not in seen:
                found.append(Refusal(MESSAGE_WITH_REASONING, f"input[{n}]",
                                     MESSAGE_WITH_REASONING_TEXT.format(id=item["id"], rs=rs)))
    return found


def calls_with_reasoning(body: dict, sent: list[dict]) -> list[Refusal]:
    needed = _reasoning_before_calls(sent)
    found, seen = [], set()
    for n, item in enumerate(_items(body)):
        if item_type(item) == "reasoning":
            seen.add(item.get("id"))
        elif item_type(item) == "function_call" and item.get("call_id") in needed:
            rs = needed[item["call_id"]].get("item_id")
            if rs not in seen:
                found.append(Refusal(CALL_WITH_REASONING, f"input[{n}]",
                                     WITH_REASONING_TEXT.format(id=item.get("id"), rs=rs)))
    return found


def encrypted_unchanged(body: dict, sent: list[dict]) -> list[Refusal]:
    sent_values = {b.get("item_id"): b.get("signature") for t in sent for b in t.get("blocks") or []
                   if b.get("type") == "reasoning" and b.get("signature")}
    return [Refusal(ENCRYPTED_UNCHANGED, f"input[{n}]", ENCRYPTED_TEXT.format(id=item.get("id")))
            for n, item in enumerate(_items(body))
            if item_type(item) == "reasoning" and item.get("encrypted_content")
            and item.get("id") in sent_values and item["encrypted_content"] != sent_values[item.get("id")]]


def refusals(body: dict, sent: list[dict] | None = None) -> list[Refusal]:
    """Every refusal the provider would answer ``body`` with (the module docstring states the rules)."""
    if not isinstance(body, dict):
        return []  # no history to judge: the request schema (responses_request) refuses such a body
    found = reasoning_followed(body) + summary_required(body) + outputs_answer_calls(body) + not_stored(body)
    if sent is not None:
        found += calls_with_reasoning(body, sent) + messages_with_reasoning(body, sent) + encrypted_unchanged(body, sent)
    return sorted(found, key=lambda r: int(r.path[len("input["):-1]))


def declared_tools(body: dict) -> dict[str, dict]:
    """The function tools a Responses request declares, by name: ``{"description", "parameters"}``.

    Responses declares a function as ``{"type": "function", "name", "description", "parameters"}``, flat,
    in the top-level ``tools`` list (chat nests the same under ``function``, which Responses refuses).
    """
    tools = body.get("tools") if isinstance(body, dict) else None
    return {t["name"]: {"description": t.get("description"), "parameters": t.get("parameters")}
            for t in (tools if isinstance(tools, list) else ())
            if isinstance(t, dict) and t.get("type") == "function" and isinstance(t.get("name"), str)}
