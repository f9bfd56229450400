"""The README's adapter example, copied verbatim, passes every contract of the capabilities it has."""

import os
import re
import subprocess
import sys
from pathlib import Path

from rules_page import contract_formats, contract_of

README = Path(__file__).parent.parent / "README.md"


def _example() -> str:
    section = README.read_text().split("## Check your own adapter", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks and blocks[0].startswith("# mypkg/llm.py"), "the README's first python block should be mypkg/llm.py"
    return blocks[0]


def test_readme_adapter_passes_from_the_users_own_folder(tmp_path):
    package = tmp_path / "mypkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "llm.py").write_text(_example())
    env = {k: v for k, v in os.environ.items() if k not in ("HARNESS_ADAPTER", "PYTHONPATH")}
    run = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "--adapter", "mypkg.llm:adapter"],
        cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("adapter under test: mypkg (mypkg.llm:adapter) format: chat; capabilities: messages, stream")
    lines = [line for line in run.stdout.splitlines() if "::" in line and line.startswith(" ")]
    passed = [line for line in lines if line.split()[0] == "PASSED"]
    assert passed and all("test_reasoning" in line or "test_wire_fields" in line for line in passed), "\n".join(lines)
    streams = [line for line in lines if "test_sse_" in line or "test_stream_end" in line]
    assert streams and all(line.split()[0:2] == ["NOT", "APPLICABLE"] for line in streams), "\n".join(streams)
    # Only chat contracts are shown; the other formats' are one line.
    formats = contract_formats()
    assert [line for line in lines if "chat" not in formats[contract_of(line)]] == []
    assert len([line for line in run.stdout.splitlines() if " contracts of other formats (" in line]) == 1
    assert not (tmp_path / ".hypothesis").exists(), "check wrote an example database into the user's folder"
