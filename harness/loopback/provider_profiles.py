"""Provider profiles: each request checked as a real provider would check it, and answered the same way.

A profile lists every rule a request breaks (:class:`~harness.loopback.exchanges.Violation`);
the first one the provider refuses decides the answer (its real HTTP status
and error body, :mod:`harness.loopback.answers`), the rest are recorded too.
A rule the provider does not enforce is still recorded, with status 200, so a
report shows it even where production would not have failed yet.

``openai``
    OpenAI's own endpoint: strict message schema (a key it does not know on
    a message, ``reasoning_content`` among them, is a 400), unknown top-level
    arguments refused, the pairing rule in both directions.
``deepseek`` (by era: ``r1``, ``v3.2``, ``current``)
    DeepSeek's thinking mode: the ``reasoning_content`` round-trip rule of
    the era, thinking on unless ``thinking: {"type": "disabled"}`` sits at
    the top level (a switch nested under ``extra_body`` is never seen: the
    request goes through with thinking on, and the violation is recorded),
    ``tool_choice`` other than ``auto``/``none`` refused in thinking mode,
    the pairing rule.
``gateway``
    a lenient OpenAI-compatible gateway: it accepts every chat completion
    and records the wire rules broken.
``openrouter``, ``gemini-openai-compatible`` (the model table's endpoints that speak a reasoning dialect)
    each streams its opaque reasoning values (OpenRouter: ``reasoning_details``
    before a round's calls, a text entry in pieces with its signature on a
    piece of its own, then an encrypted one; Google: ``extra_content`` on the
    first call of a round) and refuses, in its words, a later request whose
    replay of that round lost or changed them
    (:mod:`harness.rules.chat_dialects`). It remembers the rounds it served in
    the conversation, like the strict routes; the values are made from the
    round itself, so a run is the same every time. The pairing rule holds too.
"""

from __future__ import annotations

import base64
import hashlib
import threading
from dataclasses import dataclass

from harness.loopback import answers
from harness.loopback.exchanges import Violation
from harness.rules import chat_dialects, chat_effort, chat_ids, models
from harness.rules.pairing import (
    ANSWERED_TWICE,
    DEEPSEEK_UNANSWERED_CALLS,
    OPENAI_UNANSWERED_CALLS,
    ORPHAN,
    ORPHAN_TOOL_MESSAGE,
    pairing,
    unanswered_by_message,
)
from harness.rules.reasoning import DEFAULT_ERA, ERAS, MISSING, reasoning_breaks
from harness.rules.registry import RULES
from harness.wire.sse import chunks, sse

# Top-level arguments of OpenAI's chat completions API (https://platform.openai.com/docs/api-reference/chat).
OPENAI_ARGUMENTS = frozenset({
    "model", "messages", "stream", "stream_options", "tools", "tool_choice", "parallel_tool_calls",
    "temperature", "top_p", "n", "stop", "max_tokens", "max_completion_tokens", "presence_penalty",
    "frequency_penalty", "logit_bias", "logprobs", "top_logprobs", "user", "seed", "response_format",
    "reasoning_effort", "service_tier", "store", "metadata", "modalities", "audio", "prediction",
    "web_search_options", "verbosity", "functions", "function_call", "safety_identifier", "prompt_cache_key",
})
# Keys OpenAI's message schema knows, by role.
OPENAI_MESSAGE_KEYS = {
    "system": {"role", "content", "name"},
    "developer": {"role", "content", "name"},
    "user": {"role", "content", "name"},
    "assistant": {"role", "content", "name", "tool_calls", "refusal", "audio", "function_call"},
    "tool": {"role", "content", "tool_call_id"},
    "function": {"role", "content", "name"},
}
THINKING_TOOL_CHOICES = (None, "auto", "none")


@dataclass(frozen=True)
class Answer:
    """What the provider sends back for a refused request."""

    status: int
    body: dict


class Profile:
    """A provider's checks; subclasses add their rules in :meth:`rules`."""

    name = "profile"

    def check(self, body: dict | None, number: int) -> list[Violation]:
        """Every rule ``body`` (request ``number``) breaks, the refused ones first in the order checked."""
        if body is None:
            return [self._v("body-not-json", number, None, "the request body is not a JSON object",
                            400, answers.NOT_JSON)]
        if not isinstance(body.get("messages"), list):
            return [self._v("messages-missing", number, None, "the body has no 'messages' list",
                            400, answers.MISSING_MESSAGES, param="messages")]
        messages = [m if isinstance(m, dict) else {} for m in body["messages"]]
        return self.model_rules(body, number) + self.rules(body, messages, number)

    def model_rules(self, body: dict, number: int) -> list[Violation]:
        """The rules of the request's model (its row of :mod:`harness.rules.models`; a model the table does not
        know: none), in the provider's words; a profile that enforces nothing records them."""
        row = models.row_for(body["model"]) if isinstance(body.get("model"), str) else None
        if row is None or row.format != "chat":
            return []
        status = 400 if self.enforces_pairing else 200
        effort = [self._v("tools-beside-effort", number, None, f"function tools beside reasoning_effort "
                          f"{body.get('reasoning_effort')!r} to {body['model']!r} (model row {row.name})", status, text,
                          param="reasoning_effort") for text in chat_effort.refusals(body, row)]
        ids = [self._v("call-id-shape", number, None, f"a tool call id {body['model']!r} does not take "
                       f"(model row {row.name})", status, text, param="messages")
               for text in chat_ids.refusals(body, row)]
        return effort + ids

    def rules(self, body: dict, messages: list[dict], number: int) -> list[Violation]:
        return self.pairing(messages, number)

    def served(self, body: bytes) -> bytes:
        """The stream this provider sends for the source's ``body`` (only a dialect's endpoint adds to it)."""
        return body

    def answer(self, violations: list[Violation]) -> Answer | None:
        """The error answer of the first refused violation, or None when the request is accepted."""
        refused = next((v for v in violations if v.refused), None)
        return None if refused is None else Answer(refused.status, refused.error or {})

    # -- shared rules --------------------------------------------------------------------------------------

    unanswered_text = OPENAI_UNANSWERED_CALLS
    enforces_pairing = True
    # The rules this profile judges, for the probe's report; their levels and titles are the registry's.
    judged: tuple[str, ...] = ("body-not-json", "messages-missing", "tools-beside-effort", "call-id-shape",
                               "unanswered-tool-calls", "orphan-tool-message")

    def pairing(self, messages: list[dict], number: int) -> list[Violation]:
        """The pairing rule (:func:`harness.rules.pairing.pairing`), each break in this provider's words."""
        status = 400 if self.enforces_pairing else 200
        found = pairing(messages)
        unanswered = unanswered_by_message(found)
        violations = []
        for v in found:
            if v.kind == ORPHAN:
                detail = (f"tool message answers {v.call_id!r}, but no assistant tool call precedes its run of "
                          "tool messages")
            elif v.kind == ANSWERED_TWICE:
                detail = f"tool message answers {v.call_id!r} a second time"
            elif v.index in unanswered:
                ids = ", ".join(map(str, unanswered.pop(v.index)))
                violations.append(self._v(
                    v.rule, number, v.index, f"assistant message calls {ids} without a tool message answering "
                    "each right after it", status, self.unanswered_text.format(ids=ids),
                    param=f"messages.[{v.index}].role"))
                continue
            else:
                continue  # an unanswered call of a message already reported with its others
            violations.append(self._v(v.rule, number, v.index, detail, status, ORPHAN_TOOL_MESSAGE,
                                      param=f"messages.[{v.index}].role"))
        return violations

    # -- helpers -------------------------------------------------------------------------------------------

    def _v(self, rule: str, number: int, index: int | None, detail: str, status: int, text: str,
           *, param: str | None = None) -> Violation:
        error = answers.error_body(text, param=param) if status >= 400 else None
        return Violation(rule, RULES[rule].level, number, index, detail, status, self.name, error)

    def describe(self) -> str:
        return self.name


class OpenAIProfile(Profile):
    name = "openai"
    judged = (*Profile.judged, "unknown-argument", "unknown-message-field")

    def rules(self, body: dict, messages: list[dict], number: int) -> list[Violation]:
        found = []
        for key in sorted(set(body) - OPENAI_ARGUMENTS):
            found.append(self._v("unknown-argument", number, None,
                                 f"top-level argument {key!r} is not part of the chat completions API", 400,
                                 answers.OPENAI_UNKNOWN_ARGUMENT.format(name=key)))
        for n, message in enumerate(messages):
            known = OPENAI_MESSAGE_KEYS.get(message.get("role"))
            if known is None:
                continue
            for key in sorted(set(message) - known):
                found.append(self._v(
                    "unknown-message-field", number, n,
                    f"{message.get('role')} message carries {key!r}, which OpenAI's message schema does not have",
                    400, answers.OPENAI_UNKNOWN_MESSAGE_FIELD.format(field=key, n=n)))
        return found + self.pairing(messages, number)


class DeepSeekProfile(Profile):
    unanswered_text = DEEPSEEK_UNANSWERED_CALLS
    judged = (*Profile.judged, "reasoning-missing", "reasoning-sent-back", "thinking-switch-nested",
              "tool-choice-in-thinking-mode")

    def __init__(self, era: str = DEFAULT_ERA) -> None:
        if era not in ERAS:
            raise ValueError(f"DeepSeek era {era!r}; expected one of {', '.join(ERAS)}")
        self.era = era
        self.name = f"deepseek ({era})"

    def thinking(self, body: dict) -> bool:
        """Whether the server thinks on this request: on unless switched off at the top level."""
        if self.era == "r1":
            return True
        switch = body.get("thinking")
        return not (isinstance(switch, dict) and switch.get("type") == "disabled")

    def rules(self, body: dict, messages: list[dict], number: int) -> list[Violation]:
        found = []
        nested = body.get("extra_body")
        if isinstance(nested, dict) and "thinking" in nested:
            found.append(self._v(
                "thinking-switch-nested", number, None,
                f"extra_body.thinking={nested['thinking']!r} is never read: the switch belongs at the top level "
                "of the body, so thinking stays on", 200, ""))
        thinking = self.thinking(body)
        choice = body.get("tool_choice")
        if thinking and choice not in THINKING_TOOL_CHOICES:
            found.append(self._v("tool-choice-in-thinking-mode", number, None,
                                 f"tool_choice={choice!r} in thinking mode; only 'auto' and 'none' are accepted",
                                 400, answers.THINKING_TOOL_CHOICE, param="tool_choice"))
        if thinking:
            found += self.reasoning(messages, bool(body.get("tools")), number)
        return found + self.pairing(messages, number)

    def reasoning(self, messages: list[dict], has_tools: bool, number: int) -> list[Violation]:
        """The era's reasoning_content rule (:func:`harness.rules.reasoning.reasoning_breaks`), answered 400."""
        found = []
        for v in reasoning_breaks(messages, self.era, has_tools):
            role = messages[v.index].get("role")
            if v.kind == MISSING:
                which = "with tool calls " if self.era == "v3.2" else ""
                detail = (f"assistant message {which}has no reasoning_content; the {self.era} rule requires it "
                          "when the request has tools")
            else:
                detail = f"{role} message carries reasoning_content, which the r1 rule forbids sending back"
            found.append(self._v(v.rule, number, v.index, detail, 400, v.answer))
        return found


class GatewayProfile(Profile):
    """Accepts every chat completion; the wire rules it sees broken are recorded, never refused."""

    name = "gateway"
    enforces_pairing = False


DIALECT_RULE = "reasoning-dialect-kept"
def _opaque(*seed: object) -> str:
    return base64.b64encode(hashlib.sha256("|".join(map(str, seed)).encode()).digest()).decode()


class DialectProfile(Profile):
    """A chat endpoint of the model table that speaks ``row.dialect``."""

    judged = (*Profile.judged, DIALECT_RULE)

    def __init__(self, row: models.ModelRow) -> None:
        self.row = row
        self.dialect = chat_dialects.DIALECTS[row.dialect]
        self.name = row.name
        self._lock = threading.Lock()
        self._served: list[dict] = []  # the neutral rounds streamed: their calls and the dialect's values

    def served(self, body: bytes) -> bytes:
        """``body`` (a chat SSE stream) with the dialect's values added to a round of tool calls, remembered."""
        try:
            events = chunks(body)
        except ValueError:
            return body  # not a stream of JSON chunks: nothing to sign
        calls = [f for e in events for c in e.get("choices") or () for f in (c.get("delta") or {}).get("tool_calls")
                 or () if f.get("id")]
        if not calls:
            return body
        turn = {"tool_calls": [{"id": f["id"], "name": (f.get("function") or {}).get("name")} for f in calls]}
        seed = [f["id"] for f in calls]
        if self.dialect.place == chat_dialects.CALL:
            # Google signs the first call of a round; the parallel calls after it come unsigned.
            signature = {"google": {"thought_signature": _opaque(self.name, *seed)}}
            calls[0][self.dialect.field] = signature
            turn["tool_calls"][0][self.dialect.field] = signature
        else:
            entries = [{"type": "reasoning.text", "text": "Deciding which tools to call.", "format": "unknown",
                        "index": 0, "signature": _opaque(self.name, "text", *seed)},
                       {"type": "reasoning.encrypted", "data": _opaque(self.name, "data", *seed), "format": "unknown",
                        "index": 1}]
            text, crypt = entries
            pieces = [{**text, "text": "Deciding which ", "signature": None}, {**text, "text": "tools to call.",
                      "signature": None}, {**text, "text": ""}, crypt]
            events[:0] = [{**_envelope(events), "choices": [{"index": 0, "delta": {self.dialect.field: [piece]}}]}
                          for piece in pieces]
            turn[self.dialect.field] = entries
        with self._lock:
            self._served.append(turn)
        return sse(events)

    def rules(self, body: dict, messages: list[dict], number: int) -> list[Violation]:
        with self._lock:
            served = list(self._served)
        found = []
        for turn in served:
            ids = {c["id"] for c in turn["tool_calls"]}
            n = next((n for n, m in enumerate(messages) if m.get("role") == "assistant" and ids & {
                c.get("id") for c in m.get("tool_calls") or () if isinstance(c, dict)}), None)
            if n is None:
                continue  # the round is not in this request's history (trimmed, or another conversation)
            for refused in chat_dialects.refusals(self.dialect, turn, messages[n], n):
                found.append(self._v(DIALECT_RULE, number, n, f"{refused.where} (endpoint {self.row.base_url})",
                                     400, refused.answer, param=f"messages.[{n}]"))
        return found + self.pairing(messages, number)


def _envelope(events: list[dict]) -> dict:
    first = events[0] if events else {}
    return {k: first[k] for k in ("id", "object", "created", "model") if k in first}


DIALECT_ROWS = {row.name: row for row in models.ROWS if row.dialect}
PROFILE_NAMES = ("openai", "deepseek", "gateway", *DIALECT_ROWS)


def make_profile(name: str, era: str = DEFAULT_ERA) -> Profile:
    """A fresh profile by name (``deepseek`` takes the era)."""
    if name == "openai":
        return OpenAIProfile()
    if name == "deepseek":
        return DeepSeekProfile(era)
    if name == "gateway":
        return GatewayProfile()
    if name in DIALECT_ROWS:
        return DialectProfile(DIALECT_ROWS[name])
    raise ValueError(f"provider profile {name!r}; expected one of {', '.join(PROFILE_NAMES)}")
