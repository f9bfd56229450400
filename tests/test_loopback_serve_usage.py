"""harness serve's usage errors: a file that is not a cassette, a port out of range, a name leaving its folder,
and a non-loopback bind announced before anything else. Each is exit 2 naming what was wrong, never a traceback."""

import subprocess
import sys

import pytest

from harness import exit_codes
from harness.loopback.cassette import NotACassette, cassette_path
from harness.loopback.sources import CassetteSource


def _serve(*args, stderr=subprocess.PIPE):
    return subprocess.run([sys.executable, "-m", "harness", "serve", "--duration", "0.1", *args],
                          stdout=subprocess.PIPE, stderr=stderr, text=True, timeout=60)


@pytest.mark.parametrize("text", ["a: 1\n", "- one\n- two\n", "interactions: 5\n", "interactions: [{}]\n",
                                  "interactions: [\n"])
def test_a_yaml_file_that_is_not_a_cassette_is_a_usage_error_naming_it(tmp_path, text):
    path = tmp_path / "settings.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NotACassette, match="settings.yaml is not a vcrpy cassette"):
        CassetteSource(path)
    run = _serve("--cassette", str(path))
    assert run.returncode == exit_codes.USAGE, (run.returncode, run.stderr)
    assert f"{path} is not a vcrpy cassette" in run.stderr and "Traceback" not in run.stderr, run.stderr


@pytest.mark.parametrize("port", ["99999", "-1", "65536", "http"])
def test_a_port_outside_0_to_65535_is_a_usage_error_naming_the_argument(port):
    run = _serve("--port", port)
    assert run.returncode == exit_codes.USAGE, (run.returncode, run.stderr)
    assert f"argument --port: {port!r} is not a TCP port" in run.stderr and "Traceback" not in run.stderr, run.stderr


@pytest.mark.parametrize("name", ["../replay", "../../README", "../cassettes/../loopback/server",
                                  "/etc/hostname"])
def test_a_bundled_cassette_name_cannot_leave_its_folder(name):
    with pytest.raises(FileNotFoundError, match="cannot leave it"):
        cassette_path(name)
    run = _serve("--cassette", name)
    assert run.returncode == exit_codes.USAGE and "cannot leave it" in run.stderr, (run.returncode, run.stderr)


def test_a_bundled_cassette_is_still_found_by_name():
    assert cassette_path("openai_parallel_tool_calls").name == "openai_parallel_tool_calls.yaml"


def test_a_non_loopback_bind_is_announced_before_anything_else():
    # 192.0.2.1 (TEST-NET-1, RFC 5737) is on no interface here: the bind fails, so nothing listens beyond loopback.
    run = _serve("--host", "192.0.2.1", stderr=subprocess.STDOUT)
    first = run.stdout.splitlines()[0]
    assert first.startswith("harness serve: warning: listening on 192.0.2.1, not only on loopback"), run.stdout
