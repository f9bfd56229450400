"""``harness check``'s options: what it passes on to the contracts' pytest session."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness import CONTRACTS_DIR
from harness.rules import levels


@dataclass
class CheckOptions:
    """Everything ``harness check`` passes on to the contracts' pytest session."""

    adapter: str | None = None
    adapter_cmd: str | None = None
    adapter_timeout: float | None = None
    profile: str = "dev"
    junitxml: str | None = None  # written by the harness from the results, not by pytest
    verbose: bool = False
    keyword: str | None = None
    levels: tuple[str, ...] = ()
    policies: list[str] = field(default_factory=list)
    era: str | None = None
    model: str | None = None  # --model: whose provider rules (harness.rules.models)
    seed: int | None = None
    require: list[str] = field(default_factory=list)
    select: list[str] = field(default_factory=list)  # contract modules; empty: all
    markdown: str | None = None  # write the summary as Markdown here (a CI job summary)
    sarif: str | None = None  # write the failing contracts as SARIF here (code scanning)
    expectations: str | None = None  # the adapter's known failures and pending contracts (docs/expectations.md)
    strict_expectations: bool = False  # an XPASS, a pending contract that passed or a stale entry fails the run
    update_expectations: bool = False  # write the expectations file from this run

    def pytest_args(self) -> list[str]:
        targets = [str(CONTRACTS_DIR / s) for s in self.select] or [str(CONTRACTS_DIR)]
        # --assert=plain: every contract assert states its own message, which the results show; pytest's
        # explanation of a failed comparison would repr the differing adapter values whole.
        # -o addopts=: the options a project's own pytest configuration adds (a marker expression, say) are for
        # its tests, not the contracts; the levels are the check's own.
        args = [*targets, "--rootdir", str(CONTRACTS_DIR), "-o", "addopts=", "-p", "no:cacheprovider",
                "--assert=plain", "--harness-profile", self.profile]
        for flag, value in (
            ("--adapter", self.adapter),
            ("--adapter-cmd", self.adapter_cmd),
            ("--adapter-timeout", self.adapter_timeout),
            ("-k", self.keyword),
            ("--deepseek-era", self.era),
            ("--model", self.model),
            ("--hypothesis-seed", self.seed),
        ):
            if value is not None:
                args += [flag, str(value)]
        if self.levels:
            args += ["-m", levels.marker_expression(self.levels)]
        for policy in self.policies:
            args += ["--policy", policy]
        for capability in self.require:
            args += ["--require-capability", capability]
        return args
