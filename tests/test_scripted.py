"""The scripted model and tools: what they report is exact, and orderings come from the script, not from time."""

from concurrent.futures import ThreadPoolExecutor

from harness.testing.scripted import OverlapProbe, Rendezvous, ScriptedModel, ScriptedTool, cut_calls, tool_outputs


def test_a_request_changed_after_sending_is_named_with_where_and_what():
    model = ScriptedModel([{"content": "one"}, {"content": "two"}])
    messages = [{"role": "user", "content": "hi"}]
    model({"model": "m", "messages": messages})
    model({"model": "m", "messages": list(messages)})
    messages[0]["content"] = "rewritten"
    assert model.changed_requests() == [
        "request #1: body['messages'][0]['content'] was \"hi\", now \"rewritten\"",
        "request #2: body['messages'][0]['content'] was \"hi\", now \"rewritten\"",
    ]
    assert model.requests[0]["messages"][0]["content"] == "hi", "requests keeps what was sent"


def test_a_batch_on_a_pool_finishes_in_the_scripted_order_with_all_calls_inside_at_once():
    calls = ('{"n":1}', '{"n":2}', '{"n":3}')
    meeting = Rendezvous(calls, finish_order=tuple(reversed(calls)))
    probe = OverlapProbe(meeting)
    tool = ScriptedTool("t", parallel_safe=True, probe=probe)
    with ThreadPoolExecutor(max_workers=3) as pool:
        list(pool.map(tool, calls))
    assert [run.arguments for run in tool.runs] == list(reversed(calls))
    assert probe.never_all_inside(meeting) is None and probe.max_in_flight == 3 and not probe.stalled


def test_a_mixed_round_called_from_the_kernels_own_thread_is_never_held():
    calls = ('{"n":1}', '{"n":2}')
    probe = OverlapProbe(Rendezvous(calls, pooled_only=True))
    tool = ScriptedTool("t", probe=probe)
    for arguments in calls:
        tool(arguments)
    assert probe.max_in_flight == 1 and not probe.stalled and not probe.overlaps


def test_tool_rounds_end_every_way_an_endpoint_ends_one_with_usage_and_without():
    from hypothesis import given, settings

    from harness.formats import SPECS
    from harness.testing.scripted import ended, endings

    for format, spec in SPECS.items():
        ends = spec.tool_round_ends
        assert ends, f"{format}: its row names no way an endpoint ends a tool round"
        key = "finish_reason" if "finish_reason" in spec.blank_turn else "stop_reason"
        variants = [ended({"blocks": []}, format, k) for k in range(2 * len(ends))]
        assert {(v[key], v["usage"] is None) for v in variants} == {(e, u) for e in ends for u in (True, False)}
        assert all(v["usage"] in (None, spec.usage) for v in variants)
        seen = set()

        @settings(max_examples=60, derandomize=True)
        @given(turn=endings({"blocks": []}, format))
        def draws(turn):
            seen.add((turn[key], turn["usage"] is None))

        draws()
        assert seen == {(v[key], v["usage"] is None) for v in variants}, f"{format}: drawn {seen}"


def test_a_kernel_that_stops_early_is_told_how_each_round_ended():
    model = ScriptedModel([{"tool_calls": [], "finish_reason": "stop", "usage": {"total_tokens": 3}}, {}])
    model({"model": "m", "messages": []})
    assert model.shortfall() == (
        "the kernel sent 1 requests for a script of 2 rounds ending with finish_reason 'stop' with a usage, 'stop': "
        "a round with calls is a tool round whatever its finish_reason says, and the turn goes on until a round "
        "without calls")
    model({"model": "m", "messages": []})
    assert model.shortfall() == ""


def test_a_calls_outputs_and_whether_its_arguments_were_cut_are_read_from_its_arguments():
    call = {"type": "tool_call", "id": "c", "name": "read", "arguments": ""}
    assert tool_outputs(call) == {"read -> ", "read -> {}"}, "a call without arguments may reach the tool as '' or '{}'"
    assert tool_outputs({**call, "arguments": '{"a": 1}'}) == {'read -> {"a": 1}'}
    cut = {**call, "arguments": '{"a": '}
    assert cut_calls([call, cut, {**call, "arguments": "[1]"}]) == [cut], "only a text that is no JSON was cut"
