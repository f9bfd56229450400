"""What Gemini's ``generateContent`` refuses in a request body, stated once, with the 400 text it answers.

:func:`refusals` judges a whole body and returns every refusal it finds, each
rule checked on its own (one fault never hides another), in content order.
Each :class:`Refusal` names its rule (:data:`RULES`), where it is
(``contents.N.parts.M``) and the ``error.message`` of Gemini's
``INVALID_ARGUMENT`` answer, as users pasted it from real 400s.

The rules:

- A ``functionCall`` has a name (``function_call.name: Name cannot be empty``).
- No text part is empty unless it carries a ``thoughtSignature`` (Gemini
  sends a signature on an empty text part itself): "Unable to submit request
  because it has an empty text parameter" (deprecated-generative-ai-js issue
  361).
- A model content that calls functions comes right after a user content
  (a question, or function responses): two model contents in a row, as when
  parallel calls are sent back as separate contents, or a call turn that
  opens the history, are refused (gemini-cli issue 26486).
- The content after a model content with calls is a user content with as
  many ``functionResponse`` parts as the model content has ``functionCall``
  parts (gemini-cli issue 4217). A call turn that closes the history is not
  judged: nothing answers it yet.
- With models that sign their calls (``signed_calls``, Gemini 3), every model
  content of the *current turn* (after the last user content that holds more
  than function responses) carries a ``thoughtSignature`` on its first
  ``functionCall`` part. Gemini names the call and the content's position in
  ``contents``, counted from 1 as the reports show it.
- Given the turns the provider sent (``sent``, neutral turns of
  :mod:`harness.adapter`, oldest first, one per model content counted from the
  last), no model content carries a signature that the provider did not send
  on that part: every signature is the same bytes (a proto ``bytes`` field:
  standard or URL-safe base64, padded or not), none moved to another part,
  none added ("Corrupted thought signature."). A part sent back is
  matched, in order, to the next sent part that says the same (its text and
  kind, or its call's name, ``args`` and the id Gemini gave it, if any: an
  id a client added to a call sent without one still names that call, and
  Gemini documents no answer to such an id), so parts left out (an empty
  text, a thought summary) move no signature; a sent part that carries
  nothing (empty text, unsigned) is matched to nothing.
- Every ``thoughtSignature`` sent is a string that decodes as base64 (the
  field is a proto ``bytes``): anything else is refused before any signature
  is verified, naming the part in Gemini's own path ("Invalid value at
  'request.contents[X].parts[0].thought_signature' (TYPE_BYTES), Base64
  decoding failed", decolua/9router PR 450).
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass

from harness.wire.gemini_events import wire_part

# Rule names.
CALL_NAMED = "gemini-function-call-named"
TEXT_NON_EMPTY = "gemini-text-non-empty"
CALL_TURN_PLACED = "gemini-call-turn-after-user"
RESPONSES_COUNTED = "gemini-function-responses-counted"
CALL_SIGNED = "gemini-function-call-signed"
SIGNATURES_AS_SENT = "gemini-signatures-as-sent"
SIGNATURE_BASE64 = "gemini-signature-base64"
RULES = (CALL_NAMED, TEXT_NON_EMPTY, CALL_TURN_PLACED, RESPONSES_COUNTED, CALL_SIGNED, SIGNATURES_AS_SENT,
         SIGNATURE_BASE64)

# Gemini's texts; {name} is the function's name, {position} the content's position counted from 1.
NAME_EMPTY_TEXT = "function_call.name: Name cannot be empty"
EMPTY_TEXT_TEXT = ("Unable to submit request because it has an empty text parameter. Add a value to the parameter and "
                   "try again. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini")
PLACEMENT_TEXT = ("Please ensure that function call turn comes immediately after a user turn or after a function "
                  "response turn.")
COUNT_TEXT = ("Please ensure that the number of function response parts is equal to the number of function call "
              "parts of the function call turn.")
UNSIGNED_TEXT = ("Function call is missing a thought_signature in functionCall parts. This is required for tools to "
                 "work correctly, and missing thought_signature may lead to degraded model performance. Additional "
                 "data, function call `default_api:{name}` , position {position}. Please refer to "
                 "https://ai.google.dev/gemini-api/docs/thought-signatures for more details.")
CORRUPTED_TEXT = "Corrupted thought signature."
BASE64_TEXT = ("Invalid value at 'request.contents[{n}].parts[{m}].thought_signature' (TYPE_BYTES), Base64 decoding "
               "failed")


@dataclass(frozen=True)
class Refusal:
    """One thing Gemini refuses: its rule, where it is, and the ``error.message`` of the 400."""

    rule: str
    path: str
    message: str


def refusals(body: dict, sent: list[dict] | None = None, *, signed_calls: bool = True) -> list[Refusal]:
    """Every refusal Gemini would answer ``body`` with (the module docstring states the rules)."""
    # A body that is no object has no history to judge: the request schema (gemini_request) refuses it.
    contents = body.get("contents") if isinstance(body, dict) else None
    if not isinstance(contents, list):
        return []
    found: list[Refusal] = []
    for n in range(len(contents)):
        found += _names(contents, n)
        found += _empty_texts(contents, n)
        found += _placement(contents, n)
        found += _counted(contents, n)
        found += _not_base64(contents, n)
    if signed_calls:
        found += _unsigned(contents)
    if sent is not None:
        found += _as_sent(contents, sent)
    return found


def _role(content: object) -> object:
    return content.get("role") if isinstance(content, dict) else None


def parts_of(content: object) -> list:
    parts = content.get("parts") if isinstance(content, dict) else None
    return parts if isinstance(parts, list) else []


def _calls(content: object) -> list[tuple[int, dict]]:
    return [(m, p) for m, p in enumerate(parts_of(content)) if isinstance(p, dict) and "functionCall" in p]


def _responses(content: object) -> list[dict]:
    return [p for p in parts_of(content) if isinstance(p, dict) and "functionResponse" in p]


def _names(contents: list, n: int) -> list[Refusal]:
    return [Refusal(CALL_NAMED, f"contents.{n}.parts.{m}.functionCall.name", NAME_EMPTY_TEXT)
            for m, part in _calls(contents[n])
            if not (isinstance(part["functionCall"], dict) and part["functionCall"].get("name"))]


def _empty_texts(contents: list, n: int) -> list[Refusal]:
    return [Refusal(TEXT_NON_EMPTY, f"contents.{n}.parts.{m}.text", EMPTY_TEXT_TEXT)
            for m, part in enumerate(parts_of(contents[n]))
            if isinstance(part, dict) and part.get("text") == "" and not part.get("thoughtSignature")]


def _not_base64(contents: list, n: int) -> list[Refusal]:
    return [Refusal(SIGNATURE_BASE64, f"contents.{n}.parts.{m}.thoughtSignature", BASE64_TEXT.format(n=n, m=m))
            for m, part in enumerate(parts_of(contents[n]))
            if isinstance(part, dict) and isinstance(part.get("thoughtSignature"), str)
            and isinstance(signature_bytes(part["thoughtSignature"]), str)]


def _placement(contents: list, n: int) -> list[Refusal]:
    if _role(contents[n]) != "model" or not _calls(contents[n]):
        return []
    if n >= 1 and _role(contents[n - 1]) == "user":
        return []
    return [Refusal(CALL_TURN_PLACED, f"contents.{n}", PLACEMENT_TEXT)]


def _counted(contents: list, n: int) -> list[Refusal]:
    calls = _calls(contents[n]) if _role(contents[n]) == "model" else []
    if not calls or n + 1 >= len(contents):
        return []
    following = contents[n + 1]
    answered = len(_responses(following)) if _role(following) == "user" else 0
    if answered == len(calls):
        return []
    return [Refusal(RESPONSES_COUNTED, f"contents.{n + 1}", COUNT_TEXT)]


def current_turn(contents: list) -> int:
    """Where the current turn starts: after the last user content holding more than function responses."""
    start = 0
    for n, content in enumerate(contents):
        if _role(content) == "user" and len(_responses(content)) < len(parts_of(content)):
            start = n + 1
    return start


def _unsigned(contents: list) -> list[Refusal]:
    found = []
    for n in range(current_turn(contents), len(contents)):
        calls = _calls(contents[n]) if _role(contents[n]) == "model" else []
        if calls and not calls[0][1].get("thoughtSignature"):
            m, part = calls[0]
            name = part["functionCall"].get("name") if isinstance(part["functionCall"], dict) else None
            found.append(Refusal(CALL_SIGNED, f"contents.{n}.parts.{m}",
                                 UNSIGNED_TEXT.format(name=name, position=n + 1)))
    return found


def signature_bytes(value: object) -> object:
    """A ``thoughtSignature`` as the bytes it encodes, for comparing: the field is a proto ``bytes``, which
    Gemini reads in standard or URL-safe base64, padded or not (the proto3 JSON mapping); anything else as it is."""
    if not isinstance(value, str):
        return value
    text = value.replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        return value


def _key(part: object) -> tuple:
    """What a part says, its signature aside: how a part sent back is matched to the part the provider sent."""
    if not isinstance(part, dict):
        return ("?", repr(part))
    call = part.get("functionCall")
    if isinstance(call, dict):
        args = call.get("args") or {}
        return ("call", call.get("name"), json.dumps(args, sort_keys=True), call.get("id") or None)
    return ("text", part.get("text") or "", part.get("thought") is True)


def _says_same(sent: tuple, back: tuple) -> bool:
    """Whether a part sent back says what the sent part said: a call's id counts only where Gemini sent one."""
    if sent[0] == back[0] == "call" and sent[3] is None:
        return sent[:3] == back[:3]
    return sent == back


def _carries_something(part: dict) -> bool:
    return "functionCall" in part or bool(part.get("text")) or bool(part.get("thoughtSignature"))


def _as_sent(contents: list, sent: list[dict]) -> list[Refusal]:
    models = [n for n, content in enumerate(contents) if _role(content) == "model"]
    found = []
    for k, n in enumerate(reversed(models)):
        if k >= len(sent):
            break
        # The sent turn's parts in order, each with the signature it carried (None for none); parts that carry
        # nothing (empty text, unsigned) never go back, so nothing is matched to them.
        want = [(_key(part), part.get("thoughtSignature")) for part in map(wire_part, sent[len(sent) - 1 - k]["blocks"])
                if _carries_something(part)]
        at = 0
        for m, part in enumerate(parts_of(contents[n])):
            got = part.get("thoughtSignature") if isinstance(part, dict) else None
            match = next((j for j in range(at, len(want)) if _says_same(want[j][0], _key(part))), None)
            if match is not None:
                at = match + 1
            if got is not None and (match is None or signature_bytes(want[match][1]) != signature_bytes(got)):
                found.append(Refusal(SIGNATURES_AS_SENT, f"contents.{n}.parts.{m}.thoughtSignature", CORRUPTED_TEXT))
    return found


def declared_tools(body: dict) -> dict[str, dict]:
    """The functions a request declares, by name: ``{"description", "parameters"}``.

    Gemini declares functions in ``tools[].functionDeclarations`` (the protobuf JSON name; its
    ``function_declarations`` spelling reads the same), each ``{"name", "description", "parameters"}``;
    a JSON Schema may come as ``parametersJsonSchema`` instead of ``parameters``.
    """
    found = {}
    tools = body.get("tools") if isinstance(body, dict) else None
    for tool in tools if isinstance(tools, list) else ():
        if not isinstance(tool, dict):
            continue
        functions = tool.get("functionDeclarations") or tool.get("function_declarations")
        for function in functions if isinstance(functions, list) else ():
            if isinstance(function, dict) and isinstance(function.get("name"), str):
                found[function["name"]] = {"description": function.get("description"),
                                           "parameters": function.get("parameters",
                                                                      function.get("parametersJsonSchema"))}
    return found
