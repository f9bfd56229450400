"""Contract: an effort reaches every chat model in a form it takes, function tools or not.

Incident: `openai-tools-beside-effort`: OpenAI's newest chat models refuse
function tools together with a reasoning effort on chat completions, so an
agent that maps its slider to ``reasoning_effort`` on every request has every
tool-using request refused after a model upgrade.

Rule: ``transform_request(body, {"base_url": B, "effort": e})`` of a chat
body for the model and endpoint of every chat row of the model table
(:mod:`harness.rules.models`; ``--model`` picks one) and one model the
table does not know, for ``e`` in low, medium and high:

- with function tools, the body is one the row's model takes: to a model
  that refuses tools beside an effort, no ``reasoning_effort`` or
  ``"none"``; the tools are kept;
- without tools, the effort still reaches the model (``reasoning_effort``
  sent, or DeepSeek's ladder for DeepSeek's endpoint, judged by
  ``test_effort_ladder``): a model that refuses the pair is not a model that
  takes no effort.

Level: provider (OpenAI's chat completions rule, per model family).

Production fingerprint: HTTP 400 "Function tools with reasoning_effort are
not supported for gpt-5.6-... in /v1/chat/completions. To use function tools,
use /v1/responses or set reasoning_effort to 'none'." on every request that
declares a tool, and only on the newest models.
"""

import pytest

from harness.clip import clip_json
from harness.rules import chat_effort
from harness.rules.models import ModelRow
from harness.testing.requests import TOOLS
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.provider, pytest.mark.formats("chat")]

LEVELS = ("low", "medium", "high")


def _sent(transform, row: ModelRow, effort: str, tools: bool) -> tuple[dict, str]:
    body = {"model": row.example, "messages": [{"role": "user", "content": "Summarise the ledger."}], "stream": True,
            **({"tools": TOOLS} if tools else {})}
    options = {"base_url": row.base_url, "effort": effort}
    out = valid(transform).transform_request(body, options)
    said = {k: out.get(k, "<absent>") for k in ("model", "reasoning_effort", "thinking")}
    return out, f"\n  model: {row.describe()}\n  options: {options}\n  sent: {clip_json(said)}"


@pytest.mark.parametrize("effort", LEVELS)
def test_an_effort_beside_function_tools_is_one_the_model_takes(transform, model_row, effort):
    out, io = _sent(transform, model_row, effort, tools=True)
    refused = chat_effort.refusals(out, model_row)
    assert not refused, f"the provider refuses it: {refused}{io}"
    assert out.get("tools") == TOOLS, f"the function tools should be kept as declared, got {clip_json(out.get('tools'))}{io}"


@pytest.mark.parametrize("effort", LEVELS)
def test_without_tools_the_effort_still_reaches_the_model(transform, model_row, effort):
    out, io = _sent(transform, model_row, effort, tools=False)
    assert out.get("reasoning_effort") not in (None, "none"), (
        f"with no tools declared the effort {effort!r} should reach the model as a reasoning_effort{io}")
