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
  ``"none"``, and nothing OpenAI's request validator refuses in its place
  (an effort moved under another key is an unknown argument); the tools are
  kept;
- without function tools (none, or only custom tools: the refusal names
  function tools), the effort still reaches the model (``reasoning_effort``
  sent, or DeepSeek's ladder for DeepSeek's endpoint, judged by
  ``test_effort_ladder``): a model that refuses the pair is not a model that
  takes no effort.

Level: provider (OpenAI's chat completions rule, per model family).

Production fingerprint: HTTP 400 "Function tools with reasoning_effort are
not supported for gpt-5.6-... in /v1/chat/completions. To use function tools,
use /v1/responses or set reasoning_effort to 'none'." on every request that
declares a tool, and only on the newest models; or, with the effort moved
aside, 400 "Unrecognized request argument supplied: ..." on the same requests.
"""

import pytest

from harness.clip import clip_json
from harness.rules import chat_effort
from harness.rules.chat_request import request_refusals
from harness.rules.models import ModelRow
from harness.testing.requests import TOOLS
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.provider, pytest.mark.formats("chat")]

LEVELS = ("low", "medium", "high")
# A custom tool (free-form input), which chat completions declares beside function tools.
CUSTOM_TOOLS = [{"type": "custom", "custom": {"name": "run_sql", "description": "Runs one SQL statement."}}]


def _sent(transform, row: ModelRow, effort: str, tools: list | None) -> tuple[dict, str]:
    body = {"model": row.example, "messages": [{"role": "user", "content": "Summarise the ledger."}], "stream": True,
            **({"tools": tools} if tools else {})}
    options = {"base_url": row.base_url, "effort": effort}
    out = valid(transform).transform_request(body, options)
    said = {k: out.get(k, "<absent>") for k in ("model", "reasoning_effort", "thinking")}
    return out, f"\n  model: {row.describe()}\n  options: {options}\n  sent: {clip_json(said)}"


@pytest.mark.parametrize("effort", LEVELS)
def test_an_effort_beside_function_tools_is_one_the_model_takes(transform, model_row, effort):
    out, io = _sent(transform, model_row, effort, TOOLS)
    refused = chat_effort.refusals(out, model_row)
    assert not refused, f"the provider refuses it: {refused}{io}"
    if not model_row.tools_with_effort:
        invalid = [r.message for r in request_refusals(out)]
        assert not invalid, f"OpenAI's request validator refuses the body: {invalid}{io}\n  keys: {sorted(out)}"
    assert out.get("tools") == TOOLS, f"the function tools should be kept as declared, got {clip_json(out.get('tools'))}{io}"


@pytest.mark.parametrize("tools", [None, CUSTOM_TOOLS], ids=["no-tools", "custom-tools"])
@pytest.mark.parametrize("effort", LEVELS)
def test_without_function_tools_the_effort_still_reaches_the_model(transform, model_row, effort, tools):
    out, io = _sent(transform, model_row, effort, tools)
    assert out.get("reasoning_effort") not in (None, "none"), (
        f"with no function tool declared (tools: {clip_json(tools)}) the effort {effort!r} should reach the model "
        f"as a reasoning_effort{io}")
