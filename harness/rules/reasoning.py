"""DeepSeek's rule for sending ``reasoning_content`` back, era by era, and how it reads ``reasoning_effort``.

The rule changed over time, so a contract says which era it holds an adapter
to (``--deepseek-era``, default ``current``):

``r1`` (deepseek-reasoner)
    never send it back; otherwise 400 "The reasoning_content is an
    intermediate result for display purposes only ...".
``v3.2``
    with ``tools``, assistant turns that made tool calls carry it; otherwise
    400 "Missing `reasoning_content` field in the assistant message at message
    index N.".
``current``
    with ``tools``, every earlier assistant turn carries it; otherwise 400 "The
    reasoning_content in the thinking mode must be passed back to the API.".

Without ``tools`` the field is ignored (v3.2, current). Community reports (not
the documentation) say the server checks presence, not content, so ``""`` on a
turn stored before reasoning was kept satisfies it.
See https://api-docs.deepseek.com/guides/thinking_mode and
https://api-docs.deepseek.com/guides/reasoning_model.

Thinking is on by default, at high effort. ``reasoning_effort`` has three
documented rungs, ``low``, ``high`` and ``max``; the server reads the other
words it accepts as one of them (:data:`DEEPSEEK_EFFORT_RUNG`).
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.adapter import ERAS
from harness.clip import clip_repr

__all__ = ["ANSWERS", "DEEPSEEK_EFFORT_RUNG", "DEFAULT_ERA", "ERAS", "FORMAT_EFFORTS", "ReasoningViolation", "must_carry",
           "non_string_reasoning", "reasoning_breaks", "reasoning_violations"]

DEFAULT_ERA = "current"

# reasoning_effort word -> the rung DeepSeek thinks at (its documented ladder is low/high/max).
# The words the chat-completions format defines for reasoning_effort ("none" on the models that
# reason by default); an adapter's own words ("off", DeepSeek's "max") are not among them.
FORMAT_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")

DEEPSEEK_EFFORT_RUNG = {"minimal": "low", "low": "low", "medium": "high", "high": "high", "xhigh": "high",
                        "max": "max"}

# DeepSeek's 400 text, by era (v3.2 names the message index, {n}).
ANSWERS = {
    "r1": "The reasoning_content is an intermediate result for display purposes only and will not be included in "
    "the context for inference. Please remove the reasoning_content from your message to reduce network traffic.",
    "v3.2": "Missing `reasoning_content` field in the assistant message at message index {n}.",
    "current": "The reasoning_content in the thinking mode must be passed back to the API.",
}
MISSING = "missing"  # the era requires reasoning_content and the message has none
SENT_BACK = "sent-back"  # the era forbids reasoning_content and the message carries it
RULE_OF_KIND = {MISSING: "reasoning-missing", SENT_BACK: "reasoning-sent-back"}


@dataclass(frozen=True)
class ReasoningViolation:
    """One message of a request body that breaks the era's rule; ``answer`` is DeepSeek's 400 text."""

    kind: str
    index: int
    era: str

    @property
    def rule(self) -> str:
        return RULE_OF_KIND[self.kind]

    @property
    def answer(self) -> str:
        return ANSWERS[self.era].format(n=self.index)


def must_carry(message: dict, era: str, has_tools: bool) -> bool | None:
    """True if ``message`` must carry ``reasoning_content``, False if it must not, None if either is fine.

    After R1 the rule speaks of assistant turns only; other roles are left to
    the contracts that own them.
    """
    if era == "r1":
        return False
    if message.get("role") != "assistant" or not has_tools:
        return None
    if era == "v3.2" and not message.get("tool_calls"):
        return None
    return True


def reasoning_breaks(messages: list[dict], era: str, has_tools: bool) -> list[ReasoningViolation]:
    """Every message of a request body that breaks the ``era`` rule (:func:`must_carry`), in order."""
    found = []
    for n, message in enumerate(messages):
        rule = must_carry(message, era, has_tools)
        carries = "reasoning_content" in message
        if rule is True and not carries:
            found.append(ReasoningViolation(MISSING, n, era))
        elif rule is False and carries:
            found.append(ReasoningViolation(SENT_BACK, n, era))
    return found


def reasoning_violations(messages: list[dict], era: str, has_tools: bool) -> list[str]:
    """Every message of a request body that breaks the ``era`` rule, with the provider's answer, said for people."""
    problems: list[str] = []
    for v in reasoning_breaks(messages, era, has_tools):
        message = messages[v.index]
        if v.kind == MISSING:
            problems.append(
                f"message #{v.index} ({message.get('role')}, tool_calls={bool(message.get('tool_calls'))}) has no "
                f"reasoning_content, but the {era} rule requires it with tools; DeepSeek answers 400 {v.answer!r}"
            )
        else:
            problems.append(
                f"message #{v.index} ({message.get('role')}) carries reasoning_content="
                f"{clip_repr(message['reasoning_content'])}, but the {era} rule forbids sending it back; DeepSeek "
                f"answers 400 {v.answer!r}"
            )
    return problems


def non_string_reasoning(messages: list[dict]) -> list[str]:
    """Every message of a request body whose ``reasoning_content`` is there but not a string.

    The field is documented as a string; a null is not one, and not the ``""``
    reported to satisfy the presence check either.
    """
    return [
        f"message #{n} ({message.get('role')}, tool_calls={bool(message.get('tool_calls'))}) carries "
        f"reasoning_content={clip_repr(message['reasoning_content'])}, but it should be a string (or absent)"
        for n, message in enumerate(messages)
        if "reasoning_content" in message and not isinstance(message["reasoning_content"], str)
    ]


THINKING_OFF = {"type": "disabled"}


def executor_thinking_problem(body: dict, wanted: str) -> str | None:
    """What a sub-agent round with no effort of its own should have sent, if ``body`` did not, under ``executor.thinking``.

    ``wanted`` is the policy's value: ``disabled`` sends the thinking switch
    off; ``default`` sends nothing, so DeepSeek's default (thinking on) stands.
    """
    if wanted == "disabled":
        return None if body.get("thinking") == THINKING_OFF else f"send thinking {THINKING_OFF}"
    if "thinking" in body or "reasoning_effort" in body:
        return "send no thinking and no effort"
    return None
