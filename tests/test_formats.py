"""An adapter's wire format: how it is declared, and that a contract of another format is left out of its run."""

import os
import re
import subprocess
import sys
import textwrap
from types import SimpleNamespace

import pytest

from harness.adapter import DEFAULT_FORMAT, FORMATS, AdapterError, format_of
from harness.bridge import protocol


def test_an_adapter_without_a_format_speaks_the_default_and_an_unknown_one_is_named():
    assert format_of(SimpleNamespace()) == DEFAULT_FORMAT == "chat"
    assert format_of(SimpleNamespace(format="anthropic")) == "anthropic"
    with pytest.raises(AdapterError, match=r"'anthropics'.*known formats: chat, anthropic"):
        format_of(SimpleNamespace(format="anthropics"))


def test_the_bridge_handshake_carries_the_format_or_leaves_it_to_the_default():
    base = {"protocol": protocol.PROTOCOL_VERSION, "name": "x", "capabilities": ["stream"]}
    assert protocol.hello(base).format is None
    assert protocol.hello({**base, "format": "anthropic"}).format == "anthropic"
    with pytest.raises(protocol.MalformedLine, match="'format'"):
        protocol.hello({**base, "format": ["anthropic"]})


def test_contracts_of_one_format_are_left_out_for_an_adapter_of_another(tmp_path):
    assert set(FORMATS) >= {"chat", "anthropic"}
    (tmp_path / "test_mine.py").write_text(textwrap.dedent("""
        from harness.reference import adapter as reference
        from harness.testing import AdapterContracts

        class SpeaksAnthropic:
            format = "anthropic"
            parse_stream = staticmethod(reference.parse_stream)

        class TestChat(AdapterContracts):
            adapter = reference

        class TestAnthropic(AdapterContracts):
            adapter = SpeaksAnthropic()
    """))
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--harness-profile", "ci", "-rA", "-v",
                          "--junitxml", "out.xml", "-k", "SseIndexAccumulation"], cwd=tmp_path, capture_output=True, text=True, env=env,
                         timeout=600)
    out = run.stdout
    assert run.returncode == 0, out[-4000:] + run.stderr
    passed = re.findall(r"^PASSED (\S+)", out, re.M)
    assert passed and all("::TestChat::" in p for p in passed), out[-3000:]
    assert not re.search(r"^(\S+) NOT APPLICABLE", out, re.M), out[-3000:]
    # The chat contracts of the Anthropic class: deselected, counted and (-v) listed by the plugin, in no result.
    listed = re.findall(r"^harness:   \[\w+\] (\S+) \(chat\)$", out, re.M)
    assert sorted(listed) == sorted(p.replace("::TestChat::", "::TestAnthropic::") for p in passed), out[-3000:]
    assert f"harness: {len(listed)} contracts of other formats (chat) not run:" in out, out[:3000]
    assert [line for line in out.splitlines() if "::TestAnthropic::" in line and not line.startswith("harness:   [")] == []
    junit = (tmp_path / "out.xml").read_text()
    assert "TestChat" in junit and "TestAnthropic" not in junit, junit[-3000:]
