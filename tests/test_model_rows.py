"""The model table (harness.rules.models): which row a model id falls in, what each row refuses, and the
provider contracts holding an adapter to every row."""

import os
import subprocess
import sys
import textwrap

import pytest

from harness.rules import anthropic_thinking, models
from harness.rules.models import ANTHROPIC_DISABLED_REFUSED, ANTHROPIC_ENABLED_REFUSED, ANTHROPIC_PREFILL_REFUSED


@pytest.mark.parametrize("model, row", [
    ("claude-opus-4-7", "anthropic-adaptive"),
    ("anthropic/claude-opus-4.7", "anthropic-adaptive"),  # a gateway's id
    ("anthropic.claude-fable-5", "anthropic-adaptive-always"),  # Bedrock's
    ("claude-mythos-preview", "anthropic-adaptive-always"),
    ("claude-sonnet-4-6", "anthropic-4.6-sonnet"),
    ("claude-sonnet-4-5-20250929", "anthropic-budget"),
    ("claude-3-7-sonnet-latest", "anthropic-budget"),
    ("gpt-5.6-terra", "openai-no-tools-beside-effort"),
    ("gpt-4.1-mini", "openai-tools-beside-effort"),
    ("deepseek-reasoner", "deepseek-current"),
    ("mistralai/mistral-small-latest", "mistral"),
    ("devstral-medium-2507", "mistral"),
    ("gemini-2.5-flash-lite-preview-06-17", "gemini-2.5-flash-lite"),
    ("google/gemini-2.5-flash", "gemini-2.5-flash"),
    ("gemini-2.5-pro", "gemini-2.5-pro"),
])
def test_a_model_id_falls_in_its_family_row(model, row):
    found = models.row_for(model)
    assert found is not None and found.name == row, f"{model} -> {found and found.name}, expected {row}"


def test_a_model_the_table_does_not_know_has_no_row_and_is_judged_by_the_wire_alone():
    assert models.row_for("claude-next-preview") is None
    (row,) = models.selected("anthropic", "claude-next-preview")
    assert not row.listed and row.example == "claude-next-preview"
    assert not anthropic_thinking.refusals({"thinking": {"type": "adaptive"}, "max_tokens": 10}, row)
    assert not anthropic_thinking.refusals(
        {"thinking": {"type": "enabled", "budget_tokens": 2048}, "max_tokens": 4096}, row)


def test_by_default_every_row_of_the_format_and_one_unlisted_model_are_judged():
    names = [r.name for r in models.selected("anthropic")]
    assert names == [r.name for r in models.ROWS if r.format == "anthropic"] + ["unlisted"]
    # Another format's model leaves this format one model it does not know.
    assert [r.listed for r in models.selected("chat", "claude-opus-4-7")] == [False]
    assert [r.name for r in models.selected("chat", "deepseek-v3.2")] == ["deepseek-v3.2"]


@pytest.mark.parametrize("model, body, said", [
    ("claude-opus-4-7", {"thinking": {"type": "enabled", "budget_tokens": 2048}, "max_tokens": 4096},
     [ANTHROPIC_ENABLED_REFUSED]),
    ("claude-fable-5", {"thinking": {"type": "disabled"}}, [ANTHROPIC_DISABLED_REFUSED]),
    ("claude-sonnet-4-5", {"thinking": {"type": "disabled"}}, []),
    ("claude-sonnet-4-5", {"thinking": {"type": "enabled", "budget_tokens": 1024}, "max_tokens": 1025}, []),
    ("claude-sonnet-4-6", {"thinking": {"type": "adaptive"}, "output_config": {"effort": "high"}}, []),
])
def test_each_row_refuses_with_the_providers_text(model, body, said):
    got = anthropic_thinking.refusals(body, models.row_for(model))
    assert got == said, f"{model} {body}: {got}, expected {said}"


@pytest.mark.parametrize("model, body", [
    ("claude-sonnet-4-6", {"thinking": {"type": "adaptive"}, "output_config": {"effort": "max"}}),  # Opus only
    ("claude-sonnet-4-5", {"thinking": {"type": "adaptive"}}),
    ("claude-sonnet-4-5", {"thinking": {"type": "enabled", "budget_tokens": 2048}, "max_tokens": 2048}),
    ("claude-opus-4-7", {"thinking": {"type": "adaptive"}, "output_config": {"effort": "extreme"}}),
])
def test_forms_a_row_does_not_take_are_refused_in_our_words_or_its_rule(model, body):
    assert anthropic_thinking.refusals(body, models.row_for(model)), f"{model} should refuse {body}"


BUDGETS_ALWAYS = textwrap.dedent('''
    """The bundled Anthropic reference, except that every model gets the budget form."""
    import copy
    from harness.reference import AnthropicReferenceAdapter


    class BudgetsAlways(AnthropicReferenceAdapter):
        name = "budgets-always"

        def transform_request(self, body, options):
            if options.get("effort") in (None, "off"):
                return super().transform_request(body, options)
            sent = copy.deepcopy(body)
            sent["thinking"] = {"type": "enabled", "budget_tokens": 1024}
            sent["max_tokens"] = max(sent.get("max_tokens") or 0, 2048)
            return sent


    adapter = BudgetsAlways()
''')


def test_an_adapter_that_always_sends_budgets_fails_the_adaptive_rows_with_anthropics_text(tmp_path):
    (tmp_path / "budgets_always.py").write_text(BUDGETS_ALWAYS)
    run = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--adapter", "budgets_always:adapter", "-k",
         "a_level_turns_thinking_on"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": str(tmp_path)})
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    for row in ("anthropic-adaptive", "anthropic-adaptive-sonnet", "anthropic-adaptive-always"):
        assert f"FAILED [provider, request] test_anthropic_thinking_switch.py::" \
               f"test_a_level_turns_thinking_on_in_a_form_the_model_takes[{row}-anthropic]" in out, out
    assert "`thinking.type.enabled` is not supported for this model" in out, out
    assert "[anthropic-budget-anthropic]" in out and "FAILED [provider, request] test_anthropic_thinking_switch.py::" \
        "test_a_level_turns_thinking_on_in_a_form_the_model_takes[anthropic-budget-anthropic]" not in out, out


@pytest.mark.parametrize("model, thinking, status", [
    ("claude-opus-4-7", {"type": "enabled", "budget_tokens": 1024}, 400),
    ("claude-opus-4-7", {"type": "adaptive"}, 200),
    ("claude-fable-5", {"type": "disabled"}, 400),
    ("claude-sonnet-4-5", {"type": "enabled", "budget_tokens": 1024}, 200),
    ("claude-test", {"type": "enabled", "budget_tokens": 1024}, 200),  # unlisted: the wire's forms
])
def test_the_loopback_answers_thinking_by_the_requests_model(model, thinking, status):
    import httpx

    from harness.loopback.anthropic_format import ANTHROPIC
    from harness.loopback.server import LoopbackProvider
    from harness.loopback.strict_route import FormatRoute

    body = {"model": model, "max_tokens": 4096, "thinking": thinking, "stream": False,
            "messages": [{"role": "user", "content": "What is the weather in Zürich?"}]}
    with LoopbackProvider(routes=(FormatRoute(ANTHROPIC, "interleaved-thinking"),)) as provider:
        response = httpx.post(provider.route_url("anthropic") + "/v1/messages", json=body,
                              headers={"x-api-key": "loopback-key"}, timeout=10)
        violations = [v.rule for v in provider.record.violations]
    assert response.status_code == status, response.text
    if status == 400:
        assert response.json()["error"]["message"] in (ANTHROPIC_ENABLED_REFUSED, ANTHROPIC_DISABLED_REFUSED)
        assert violations == ["thinking-form-of-model"], violations


@pytest.mark.parametrize("model, status", [
    ("claude-sonnet-4-6", 400), ("claude-opus-4-7", 400), ("claude-sonnet-5", 400), ("claude-fable-5", 400),
    ("claude-sonnet-4-5", 200),  # older models continue the assistant's message
    ("claude-test", 200),  # unlisted: the wire's rules alone
])
def test_the_loopback_answers_a_prefill_by_the_requests_model(model, status):
    import httpx

    from harness.loopback.anthropic_format import ANTHROPIC
    from harness.loopback.server import LoopbackProvider
    from harness.loopback.strict_route import FormatRoute

    body = {"model": model, "max_tokens": 4096, "stream": False,
            "messages": [{"role": "user", "content": "List the files as JSON."}, {"role": "assistant", "content": "["}]}
    if model == "claude-fable-5":
        body["thinking"] = {"type": "adaptive"}
    with LoopbackProvider(routes=(FormatRoute(ANTHROPIC, "interleaved-thinking"),)) as provider:
        response = httpx.post(provider.route_url("anthropic") + "/v1/messages", json=body,
                              headers={"x-api-key": "loopback-key"}, timeout=10)
        violations = [v.rule for v in provider.record.violations]
    if status == 400:
        assert response.status_code == 400, response.text
        assert response.json()["error"]["message"] == ANTHROPIC_PREFILL_REFUSED
        assert violations == ["prefill-of-model"], violations
    else:
        assert "prefill-of-model" not in violations, violations
    with LoopbackProvider(routes=(FormatRoute(ANTHROPIC, "interleaved-thinking"),)) as provider:
        asked = {**body, "messages": body["messages"] + [{"role": "user", "content": "Go on."}]}
        response = httpx.post(provider.route_url("anthropic") + "/v1/messages", json=asked,
                              headers={"x-api-key": "loopback-key"}, timeout=10)
        assert "prefill-of-model" not in [v.rule for v in provider.record.violations], response.text


def _check(*args: str) -> str:
    run = subprocess.run([sys.executable, "-m", "harness", "check", "-v", *args], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def test_model_picks_one_row_and_the_header_names_it():
    out = _check("--adapter", "harness.reference:anthropic_adapter", "--model", "claude-opus-4-7", "-k",
                 "levels_reach_the_model")
    assert "provider rules: anthropic-adaptive (claude-opus-4-7;" in out, out
    assert "test_the_levels_reach_the_model_in_order[anthropic-adaptive-gateway]" in out, out
    assert "[anthropic-budget-" not in out and "[unlisted-" not in out, out


def test_a_deepseek_row_sets_the_era_and_an_unknown_model_says_so():
    assert "deepseek era: v3.2" in _check("--model", "deepseek-v3.2", "-k", "effort_still_reaches")
    out = _check("--model", "claude-next-9", "--adapter", "harness.reference:anthropic_adapter", "-k",
                 "levels_reach_the_model")
    assert "provider rules: claude-next-9: not in the model table; judged by each format's wire rules only" in out
    assert "test_the_levels_reach_the_model_in_order[unlisted-anthropic]" in out, out


@pytest.mark.parametrize("model, budget, said", [
    ("gemini-2.5-flash", 32768, ["The thinking budget (32768) is invalid."]),
    ("gemini-2.5-flash", 0, []),
    ("gemini-2.5-pro", 0, ["Budget 0 is invalid. This model only works in thinking mode."]),
    ("gemini-2.5-pro", -1, []),
    ("gemini-2.5-flash-lite", 256, ["The thinking budget (256) is invalid."]),
])
def test_each_gemini_row_takes_its_own_budget_range(model, budget, said):
    from harness.rules import gemini_thinking

    body = {"generationConfig": {"thinkingConfig": {"thinkingBudget": budget}}}
    assert gemini_thinking.refusals(body, models.row_for(model)) == said
