"""The bridge: adapters in other processes, their faults, and the two examples that pass through it."""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from harness.adapter import AdapterError
from harness.bridge import BridgeError, RemoteError, RemoteInputError, load_bridge
from harness.bridge.process import AdapterProcess
from harness.testing.scripted import ScriptedModel, ScriptedTool, ScriptExhausted

REPO = Path(__file__).parent.parent
BRIDGES = Path(__file__).parent / "bridges"
NODE_ADAPTER = REPO / "examples" / "node-adapter"
CONTRACTS = REPO / "harness" / "contracts"
PYTHON = sys.executable



def _bridge(script: str, *args: str) -> str:
    return " ".join([PYTHON, str(BRIDGES / script), *args])


def _check(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    return subprocess.run(
        [PYTHON, "-m", "harness", "check", "--hypothesis-profile", "ci", *args],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=600,
    )


def _pytest_contract(module: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "-m", "pytest", str(CONTRACTS / module), "-p", "no:cacheprovider", "--harness-profile", "ci",
         "-rA", *args],
        capture_output=True, text=True, cwd=REPO, timeout=600,
    )


def _lines(output: str, status: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.strip().startswith(status)]


# --- faults: each an ERROR naming the request and the reply line; the run goes on ----------


def test_crash_is_an_error_and_errors_are_counted_apart_from_failures():
    run = _check("--adapter-cmd", _bridge("crash.py", "--fold-reasoning"))
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    errors = [line for line in _lines(out, "ERROR") if re.fullmatch(r"ERROR  \[\w+\] \S+", line)]  # not the summary's
    # Four contracts send the incident's twelve-call stream (two of them in other shapes); each meets the crash
    # on its own.
    assert errors == ["ERROR  [wire] test_sse_index_accumulation.py::test_twelve_parallel_calls_of_the_incident",
                      "ERROR  [wire] test_stream_shapes.py::test_a_stream_in_any_shape_of_its_format_decodes_to_its_turn",
                      "ERROR  [robust] test_stream_shapes.py::"
                      "test_a_stream_in_a_relays_shape_decodes_to_its_turn_or_is_refused",
                      "ERROR  [wire] test_stream_turns.py::test_a_stream_decodes_to_its_turn"], out
    assert re.search(r"bridge error on request #\d+ parse_stream\(body=b'data: ", out), out
    assert "the adapter process exited with code 2 before replying; reply line: none" in out
    assert "panic: index out of range [11] with length 1" in out, "the adapter's stderr is quoted"
    # The run went on: a new process answered the stream contract that comes after the crash.
    assert "PASSED  [wire] test_sse_index_accumulation.py::test_any_interleaving_keeps_each_calls_arguments" in out
    failed = [line for line in _lines(out, "FAILED") if re.fullmatch(r"FAILED  \[\w+\] \S+", line)]
    assert failed and all("test_reasoning_top_level.py" in line for line in failed), out
    summary = out.strip().splitlines()[-1]
    assert re.fullmatch(rf"\d+ passed, {len(failed)} failed, 4 error, \d+ not applicable", summary), summary


def test_hang_is_an_error_after_the_timeout_with_the_adapters_stderr():
    run = _pytest_contract("test_sse_index_accumulation.py", "--adapter-cmd", _bridge("hang.py"),
                           "--adapter-timeout", "1")
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "no reply within 1s (--adapter-timeout)" in out and "reply line: none" in out, out
    assert "Captured stderr adapter" in out and "waiting for a lock that is never released" in out, out
    assert re.search(r"^ERROR .*test_twelve_parallel_calls_of_the_incident", out, re.M), out
    assert re.search(r"4 passed, 1 error", out), out


def test_garbage_on_stdout_is_an_error_quoting_the_line():
    run = _pytest_contract("test_sse_index_accumulation.py", "--adapter-cmd", _bridge("garbage.py"))
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "malformed reply line: not JSON" in out and "reply line: 'DEBUG accumulating 12 calls'" in out, out
    assert re.search(r"4 passed, 1 error", out), out


# --- the channel itself -------------------------------------------------------------------------


@pytest.fixture
def echo():
    loaded = load_bridge(_bridge("echo.py"), timeout=5)
    yield loaded.obj
    loaded.obj.close()


def test_bytes_that_are_not_utf8_arrive_intact(echo):
    body = b"data: \xff\xfe\xc3\x28 caf\xe9\r\n\x00\n\n"
    got = echo.parse_stream(body)["content"]
    assert base64.b64decode(got) == body


def test_handshake_names_the_adapter_and_its_capabilities():
    loaded = load_bridge(_bridge("echo.py"))
    try:
        assert loaded.capabilities == {"stream", "messages", "request", "kernel"}
        assert loaded.describe().startswith("echo bridge (--adapter-cmd ")
    finally:
        loaded.obj.close()


def test_timeout_zero_lifts_the_silence_limit():
    # The known-bug runs pass 0 so that a slow machine's slow reply is never a bridge error; a
    # reply cannot be waiting in the queue the instant a request is sent, so a 0 s limit would fail it.
    loaded = load_bridge(_bridge("echo.py"), timeout=0)
    try:
        assert loaded.obj.parse_stream(b"slow")["content"] == base64.b64encode(b"slow").decode()
        assert loaded.obj.run_turn("hello", ScriptedModel([{"content": "one"}, {"content": "two"}]), [])["replies"]
    finally:
        loaded.obj.close()


def test_a_refused_tool_and_model_rounds_go_through_callbacks(echo):
    model = ScriptedModel([{"content": "one"}, {"content": "two"}])
    result = echo.run_turn("hello", model, [ScriptedTool("lookup")])
    tool_reply, first, second = result["replies"]
    assert tool_reply["error"]["type"] == "invalid_request" and "no_such_tool" in tool_reply["error"]["message"]
    assert [first["result"]["content"], second["result"]["content"]] == ["one", "two"]
    assert model.requests == [{"messages": [{"role": "user", "content": "hello"}]}] * 2


def test_the_harness_assertion_in_a_callback_wins_over_the_adapters_reply(echo):
    with pytest.raises(ScriptExhausted, match="the script has 1 rounds"):
        echo.run_turn("hello", ScriptedModel([{"content": "only one"}]), [])


def test_an_adapter_error_reply_is_a_remote_error_and_the_process_lives_on(echo):
    with pytest.raises(RemoteError, match="no_such_method|KeyError"):
        echo._channel.call("no_such_method", {})
    assert echo.parse_stream(b"ok")["content"] == base64.b64encode(b"ok").decode()


def test_a_callback_the_request_does_not_serve_is_a_fault(echo):
    with pytest.raises(BridgeError) as caught:
        echo.parse_stream(b"ask the model")
    message = str(caught.value)
    assert "sent a 'model' request, which this request does not serve (served: none)" in message
    assert "parse_stream(body=b'ask the model')" in message and '"method": "model"' in message
    assert echo.parse_stream(b"again")["content"], "a new process answers after the fault"


def test_an_adapter_that_stops_reading_never_blocks_the_harness():
    process = AdapterProcess(f"{PYTHON} -c 'import time; time.sleep(600)'")
    try:
        sender = threading.Thread(target=process.send, args=(b"x" * 4_000_000 + b"\n",), daemon=True)
        sender.start()  # far more than a pipe holds
        sender.join(timeout=60)  # a hang guard only: a send that waits for the reader never returns
        assert not sender.is_alive(), "sending to an adapter that stops reading blocked the harness"
    finally:
        process.kill()
    assert process.exit_code() is not None


def test_bridge_error_is_not_an_assertion_nor_an_ordinary_exception():
    assert not issubclass(BridgeError, Exception)
    assert issubclass(RemoteInputError, ValueError)


@pytest.mark.parametrize(
    "command, message",
    [
        (f"{PYTHON} -c \"import sys; sys.stdin.readline(); print('{{}}')\"", "malformed reply line"),
        (
            f"{PYTHON} -c \"import sys; sys.stdin.readline(); "
            "print('{\\\"id\\\": 1, \\\"result\\\": {\\\"protocol\\\": 2, \\\"name\\\": \\\"x\\\", \\\"capabilities\\\": []}}')\"",
            "the adapter speaks protocol 2; this harness speaks 1",
        ),
        ("no-such-adapter-command --flag", "cannot start it"),
    ],
    ids=["garbage-handshake", "other-protocol", "missing-command"],
)
def test_a_failed_start_is_an_adapter_error(command, message):
    with pytest.raises(AdapterError, match=re.escape(message)):
        load_bridge(command, timeout=5)


def test_adapter_and_adapter_cmd_together_are_a_usage_error():
    run = _check("--adapter", "harness.reference:adapter", "--adapter-cmd", _bridge("echo.py"))
    assert run.returncode == 2, run.stdout + run.stderr
    assert "give --adapter or --adapter-cmd, not both" in run.stdout + run.stderr


# --- the examples --------------------------------------------------------------------------------


def test_node_example_passes_every_codec_contract():
    run = _check("--adapter-cmd", "node examples/node-adapter/bridge.js")
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    assert out.startswith("adapter under test: node example adapter"), out
    assert not _lines(out, "FAILED") and not _lines(out, "ERROR"), out
    passed = _lines(out, "PASSED")
    for module in ("test_sse_index_accumulation.py", "test_reasoning_top_level.py", "test_thinking_switch.py"):
        assert any(module in line for line in passed), f"no {module} contract passed:\n{out}"
    assert any("test_batch_pairing.py" in line for line in _lines(out, "NOT APPLICABLE")), out


def test_node_example_refuses_bytes_that_are_not_utf8():
    loaded = load_bridge("node examples/node-adapter/bridge.js")
    try:
        with pytest.raises(RemoteInputError, match="not valid UTF-8"):
            loaded.obj.parse_stream(b'data: {"choices":[{"delta":{"content":"caf\xe9"}}]}\n\n')
    finally:
        loaded.obj.close()


def test_example_kernel_passes_the_kernel_contracts_with_overlap_evidence():
    run = _check("--adapter-cmd", f"{PYTHON} examples/bridge-kernel/kernel.py")
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    passed = _lines(out, "PASSED")
    assert "PASSED  [wire] test_batch_pairing.py::test_batch_path_pairs_calls_and_results" in passed, out
    assert any("test_reasoning_attribution.py" in line for line in passed), out


def test_example_kernel_uses_only_the_standard_library():
    source = (REPO / "examples" / "bridge-kernel" / "kernel.py").read_text()
    assert not re.search(r"^\s*(from|import)\s+harness\b", source, re.M)


# --- the Node example's own tests catch both incident bugs ----------------------------------------

INCIDENT_LINES = {
    "accumulate-by-position": ("this.accs[index]", "this.accs[i]"),
    "reasoning-emitted-when-empty": ("if (msg.reasoning)", "if (msg.reasoning !== null)"),
}


def test_each_incident_line_occurs_once_in_the_codec():
    source = (NODE_ADAPTER / "src" / "codec.js").read_text()
    for find, _ in INCIDENT_LINES.values():
        assert source.count(find) == 1, f"{find!r} occurs {source.count(find)} times in src/codec.js"


@pytest.mark.parametrize("bug", sorted(INCIDENT_LINES))
def test_node_tests_catch_each_incident_bug_on_an_assertion(tmp_path, bug):
    copy = tmp_path / "node-adapter"
    shutil.copytree(NODE_ADAPTER, copy, ignore=shutil.ignore_patterns("node_modules", "lcov.info"))
    codec = copy / "src" / "codec.js"
    find, replace = INCIDENT_LINES[bug]
    codec.write_text(codec.read_text().replace(find, replace))
    run = subprocess.run(["node", "--test"], cwd=copy, capture_output=True, text=True, timeout=300)
    assert run.returncode != 0, run.stdout
    assert "AssertionError" in run.stdout, run.stdout


def test_node_tests_pass_unpatched():
    run = subprocess.run(["node", "--test"], cwd=NODE_ADAPTER, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
