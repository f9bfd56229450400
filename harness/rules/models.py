"""Provider rules by model: what each model family accepts, inside one wire format.

Providers change what they accept per model without changing the format: a
current Claude model refuses the thinking budget every earlier one needed;
OpenAI's newest chat models refuse function tools beside ``reasoning_effort``;
DeepSeek's ``reasoning_content`` rule changed twice. A provider rule therefore
names the rows it holds for. Each row is one model family in one era: the
model ids it covers (shell patterns, matched after :func:`normalized`), a
model id the contracts send, the public source of the rule, and the fields
its format's rules read.

``--model`` selects rows for every command (a model id, or a row's name); by
default the provider contracts hold for every row of their format and for
one model the table does not know, which is judged by the format's wire
rules alone (:func:`unlisted`), never by a guessed era.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass

from harness.adapter import ERAS

# What Anthropic answers a model that takes adaptive thinking only (public reports since mid-2026).
ANTHROPIC_ENABLED_REFUSED = ("`thinking.type.enabled` is not supported for this model. Use `thinking.type.adaptive` "
                             "and `output_config.effort` to control thinking behavior.")
# ... and a model that cannot turn thinking off. The same report tells budgets to use, which the provider's
# model table contradicts for these models (enabled is refused too): both are encoded as refused.
ANTHROPIC_DISABLED_REFUSED = ("`thinking.type.disabled` is not supported for this model. Thinking defaults to "
                              "adaptive mode when not specified; use `thinking.type.enabled` with `budget_tokens` "
                              "for extended thinking.")
# ... and a model that takes no assistant prefill, for a request whose last message is the assistant's. Reported
# for Claude 4.6 and later (Anthropic lists it among 4.6's breaking changes); whether Opus 5 refuses it is not
# reported (its row's others do).
ANTHROPIC_PREFILL_REFUSED = ("This model does not support assistant message prefill. The conversation must end "
                             "with a user message.")
# OpenAI, chat completions, its newest families with function tools (the model's id in place of {model}).
OPENAI_TOOLS_WITH_EFFORT = ("Function tools with reasoning_effort are not supported for {model} in "
                            "/v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort "
                            "to 'none'.")

# Mistral's models, on its API and on servers running its tokenizer, for a call id of another shape.
MISTRAL_CALL_ID = "Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9."

# Gemini, for a thinkingBudget outside the model's range ({budget}), and for 0 on a model that always thinks.
GEMINI_BUDGET_INVALID = "The thinking budget ({budget}) is invalid."
GEMINI_ALWAYS_THINKS = "Budget 0 is invalid. This model only works in thinking mode."

ADAPTIVE, BUDGET = "adaptive", "budget"
_OPENAI = "https://api.openai.com/v1"
_GEMINI_THINKING = "https://ai.google.dev/gemini-api/docs/thinking"
_ANTHROPIC_ADAPTIVE_DOCS = "https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html"


@dataclass(frozen=True)
class ModelRow:
    """One model family in one era: the rules its provider holds requests to."""

    name: str
    format: str  # the wire format (harness.adapter.FORMATS) the row's rules are read in
    models: tuple[str, ...]  # shell patterns of the model ids it covers (none: selected by name only)
    example: str  # the model id a contract sends for this row
    source: str  # where the rule is stated (documentation, or the public reports it rests on)
    # Anthropic: the forms that turn thinking on ("adaptive": thinking.type adaptive with output_config.effort;
    # "budget": thinking.type enabled with budget_tokens), and whether thinking.type "disabled" is taken
    # (where it is not, a request without ``thinking`` thinks adaptively).
    thinking: tuple[str, ...] = ()
    can_disable: bool = True
    efforts: tuple[str, ...] = ()  # Anthropic: the output_config.effort words the model takes, lowest first
    prefill: bool = True  # Anthropic: a request may end with an assistant message (the model continues it)
    tools_with_effort: bool = True  # chat: function tools beside a reasoning_effort other than "none"
    era: str | None = None  # DeepSeek: its reasoning_content rule (harness.rules.reasoning)
    base_url: str | None = None  # chat: the provider's endpoint, which decides an adapter's profile
    call_ids: str | None = None  # chat: the pattern every tool call id must match (a regular expression)
    budgets: tuple[int, int] | None = None  # Gemini: the thinkingBudget range a model takes (besides -1, dynamic)
    # chat: the reasoning dialect the endpoint speaks (a name of harness.rules.chat_dialects.DIALECTS); such a
    # row is chosen by its endpoint, whatever model it serves, so it has no model patterns
    dialect: str | None = None
    listed: bool = True  # False: a model the table does not know, judged by the format's wire rules only

    def describe(self) -> str:
        if not self.listed:
            return f"{self.example}: not in the model table; judged by the {self.format} wire rules only"
        return f"{self.name} ({self.example}; {self.source})"


ROWS: tuple[ModelRow, ...] = (
    ModelRow("anthropic-budget", "anthropic",
             ("claude-3*", "claude-*-4-5*", "claude-*-4-1*", "claude-sonnet-4", "claude-opus-4", "claude-sonnet-4-2*",
              "claude-opus-4-2*"),
             "claude-sonnet-4-5", "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking",
             thinking=(BUDGET,)),
    ModelRow("anthropic-4.6-sonnet", "anthropic", ("claude-sonnet-4-6*",), "claude-sonnet-4-6", _ANTHROPIC_ADAPTIVE_DOCS,
             thinking=(ADAPTIVE, BUDGET), efforts=("low", "medium", "high"), prefill=False),
    ModelRow("anthropic-4.6-opus", "anthropic", ("claude-opus-4-6*",), "claude-opus-4-6", _ANTHROPIC_ADAPTIVE_DOCS,
             thinking=(ADAPTIVE, BUDGET), efforts=("low", "medium", "high", "max"), prefill=False),
    ModelRow("anthropic-adaptive", "anthropic", ("claude-opus-4-7*", "claude-opus-4-8*", "claude-opus-5*"),
             "claude-opus-4-7", _ANTHROPIC_ADAPTIVE_DOCS, thinking=(ADAPTIVE,),
             efforts=("low", "medium", "high", "xhigh", "max"), prefill=False),
    # Sonnet 5's effort words beyond high are not documented: only the three every adaptive model takes.
    ModelRow("anthropic-adaptive-sonnet", "anthropic", ("claude-sonnet-5*",), "claude-sonnet-5",
             _ANTHROPIC_ADAPTIVE_DOCS, thinking=(ADAPTIVE,), efforts=("low", "medium", "high"), prefill=False),
    ModelRow("anthropic-adaptive-always", "anthropic", ("claude-fable-5*", "claude-mythos-*"), "claude-fable-5",
             _ANTHROPIC_ADAPTIVE_DOCS, thinking=(ADAPTIVE,), can_disable=False, efforts=("low", "medium", "high"),
             prefill=False),
    ModelRow("openai-tools-beside-effort", "chat", ("gpt-4*", "gpt-5", "gpt-5-*", "gpt-5.1*", "gpt-5.2*", "o1*",
                                                    "o3*", "o4*"),
             "gpt-5-mini", "https://platform.openai.com/docs/api-reference/chat/create", base_url=_OPENAI),
    ModelRow("openai-no-tools-beside-effort", "chat", ("gpt-5.6*", "gpt-6*"), "gpt-5.6-terra",
             "public reports of the 400 since late 2026 (LibreChat #14231, onyx #15008)", tools_with_effort=False,
             base_url=_OPENAI),
    # Mistral's tokenizer takes 9-character alphanumeric ids only, wherever the model runs (its API, vLLM).
    ModelRow("mistral", "chat", ("mistral-*", "magistral-*", "codestral-*", "devstral-*", "ministral-*",
                                 "pixtral-*", "open-mistral-*", "open-mixtral-*"),
             "mistral-small-latest", "public reports of the 400 (ironclaw #1241, vllm #10821)",
             base_url="https://api.mistral.ai/v1", call_ids=r"[a-zA-Z0-9]{9}"),
    # Gemini 2.5's budget ranges; the Pro model always thinks (its range does not reach 0).
    ModelRow("gemini-2.5-pro", "gemini", ("gemini-2.5-pro*",), "gemini-2.5-pro", _GEMINI_THINKING,
             can_disable=False, budgets=(128, 32768)),
    ModelRow("gemini-2.5-flash-lite", "gemini", ("gemini-2.5-flash-lite*",), "gemini-2.5-flash-lite", _GEMINI_THINKING,
             budgets=(512, 24576)),
    ModelRow("gemini-2.5-flash", "gemini", ("gemini-2.5-flash", "gemini-2.5-flash-0*", "gemini-2.5-flash-preview*"),
             "gemini-2.5-flash", _GEMINI_THINKING, budgets=(1, 24576)),
    # Gateways and compatible endpoints that carry reasoning on chat completions in their own opaque fields.
    ModelRow("openrouter", "chat", (), "anthropic/claude-sonnet-4.5",
             "https://openrouter.ai/docs/use-cases/reasoning-tokens", base_url="https://openrouter.ai/api/v1",
             dialect="reasoning-details"),
    ModelRow("gemini-openai-compatible", "chat", (), "gemini-3-flash-preview",
             "https://ai.google.dev/gemini-api/docs/thought-signatures",
             base_url="https://generativelanguage.googleapis.com/v1beta/openai/", dialect="extra-content"),
    *(ModelRow(f"deepseek-{era}", "chat", ("deepseek-chat", "deepseek-reasoner", "deepseek-v4*")
               if era == "current" else (), "deepseek-reasoner",
               "https://api-docs.deepseek.com/guides/thinking_mode", era=era, base_url="https://api.deepseek.com")
      for era in ERAS),
)
BY_NAME = {row.name: row for row in ROWS}
_UNLISTED_EXAMPLE = {"anthropic": "claude-unlisted-1", "chat": "unlisted-model-1", "gemini": "gemini-unlisted-1"}


def normalized(model: str) -> str:
    """A model id as the patterns read it: lower case, without a gateway's ``vendor/`` or Bedrock's
    ``anthropic.`` prefix, version dots as dashes (``anthropic/claude-opus-4.7`` -> ``claude-opus-4-7``)."""
    name = model.strip().lower().rpartition("/")[2].removeprefix("anthropic.")
    return re.sub(r"(?<=\d)\.(?=\d)", "-", name) if name.startswith("claude") else name


def row_for(model: str) -> ModelRow | None:
    """The row whose patterns cover ``model``, first match in table order; None: the table does not know it."""
    name = normalized(model)
    return next((row for row in ROWS if any(fnmatch.fnmatchcase(name, p) for p in row.models)), None)


def unlisted(format: str, model: str | None = None) -> ModelRow:
    """A model of ``format`` the table does not know: every form the format's wire takes is accepted."""
    return ModelRow("unlisted", format, (), model or _UNLISTED_EXAMPLE.get(format, "unlisted-model-1"),
                    "the format's wire rules", thinking=(ADAPTIVE, BUDGET),
                    efforts=tuple(dict.fromkeys(e for r in ROWS if r.format == format for e in r.efforts)),
                    listed=False)


def selected(format: str, choice: str | None = None) -> tuple[ModelRow, ...]:
    """The rows the provider contracts of ``format`` hold for under ``--model choice`` (None: every row of the
    format with models or a dialect, and one unlisted model); a choice of another format's model leaves this
    format an unlisted one."""
    if choice is None:
        return (*(r for r in ROWS if r.format == format and (r.models or r.dialect)), unlisted(format))
    row = BY_NAME.get(choice) or row_for(choice)
    if row is not None and row.format == format:
        return (row,)
    return (unlisted(format, None if row is not None or choice in BY_NAME else choice),)


def deepseek_row(era: str) -> ModelRow:
    """DeepSeek's row for a ``--deepseek-era`` (its eras are rows of the same table)."""
    return BY_NAME[f"deepseek-{era}"]
