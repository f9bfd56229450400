"""The ``harness`` command line."""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

from harness import exit_codes
from harness.cli import durations
from harness.formats import FORMATS  # with the formats plugged in by entry points
from harness.config import hypothesis_profiles as profiles
from harness.mutation.shard import Shard
from harness.nightly.explore_budget import DEFAULT_BUDGET
from harness.processes import signal_seen
from harness.rules.levels import parse_levels
from harness.rules.reasoning import ERAS


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="harness", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="run the contracts against an adapter")
    check.add_argument("--adapter", metavar="MODULE:ATTR", help="adapter under test (default: the reference)")
    check.add_argument(
        "--adapter-cmd", metavar="COMMAND", help="adapter under test as a bridge process (docs/adapter-protocol.md)"
    )
    check.add_argument(
        "--adapter-timeout", type=durations.non_negative, metavar="SECONDS", help="per-request silence limit for --adapter-cmd (0: none)"
    )
    check.add_argument("--junitxml", metavar="PATH", help="also write a JUnit XML report")
    check.add_argument(
        "--hypothesis-profile", default=profiles.DEFAULT_PROFILE, choices=sorted(profiles.PROFILES)
    )
    check.add_argument("--hypothesis-seed", type=int, metavar="SEED", help="replay a run's examples (its header prints the seed)")
    check.add_argument("-k", dest="keyword", metavar="EXPR", help="only contracts whose names match (pytest's -k)")
    check.add_argument(
        "--levels", type=_levels, default=(), metavar="LEVEL[,LEVEL]",
        help="only contracts of these rule levels: wire, robust, provider, policy (default: all)",
    )
    check.add_argument(
        "--policy", action="append", default=[], metavar="KEY=VALUE",
        help="set a policy (repeatable; also [tool.harness.policy] in ./pyproject.toml)",
    )
    check.add_argument("--deepseek-era", choices=ERAS, help="DeepSeek's reasoning_content rule (default: current)")
    check.add_argument("--model", metavar="NAME",
                       help="judge provider rules for this model (an id, or a row of harness/rules/models.py; "
                       "default: every row)")
    check.add_argument(
        "--require", action="append", default=[], metavar="CAP[,CAP]",
        help="a usage error unless the adapter offers these capabilities",
    )
    check.add_argument("--markdown", metavar="PATH", help="also write the summary as Markdown (a CI job summary)")
    check.add_argument("--sarif", metavar="PATH", help="also write the failing contracts as SARIF 2.1.0 (code scanning)")
    check.add_argument(
        "--expectations", metavar="FILE",
        help="this adapter's known failures and pending contracts, TOML or JSON (docs/expectations.md)",
    )
    check.add_argument(
        "--strict-expectations", action="store_true",
        help="an expected failure that passes (XPASS), a pending contract that passed or a stale entry fails the run",
    )
    check.add_argument(
        "--update-expectations", action="store_true", help="write the --expectations file from this run (reasons kept)"
    )
    check.add_argument("-v", "--verbose", action="store_true", help="show every contract's message, and list the contracts of other formats")

    for name, help_text in (
        ("mutate", "re-apply one catalogue's known bugs in isolated copies and check the contracts catch each one"),
        ("gate", "every format's baseline plus its known bugs, in one report: the CI regression gate"),
    ):
        cmd = sub.add_parser(name, help=help_text)
        if name == "mutate":
            cmd.add_argument("--only", nargs="+", metavar="ID", help="run only these known bugs")
            cmd.add_argument("--config", type=Path, metavar="PATH", help="catalogue (default: the bundled mutants.toml)")
            cmd.add_argument(
                "--adapter", metavar="MODULE:ATTR",
                help="your own Python adapter: the catalogue's files are in its project (the catalogue's folder or "
                     "root); or a bundled reference of another format (harness.reference:gemini_adapter)",
            )
        else:
            cmd.add_argument(
                "--format", dest="formats", type=_formats, action="extend", default=[], metavar="F[,F]",
                help=f"only these formats' rows (repeatable; default: every one): {', '.join(FORMATS)}",
            )
        cmd.add_argument("--report-dir", type=Path, metavar="DIR", help="write JSON, JUnit and Markdown reports here")
        cmd.add_argument("--shard", type=_shard, metavar="K/N", help="run a deterministic slice for CI matrices")
        cmd.add_argument("--jobs", type=_positive, metavar="N", help="parallel mutant runs (default: all cores)")
        cmd.add_argument("--timeout", type=durations.positive, metavar="SECONDS", help="per-mutant budget (default: from baseline)")
        cmd.add_argument(
            "--baseline-timeout", type=durations.positive, metavar="SECONDS", help="budget of the unpatched run (default: 900)"
        )
        from harness.cli.mutate import add_diff_options, add_incremental_options  # --in-diff, --base; the store

        add_diff_options(cmd)
        add_incremental_options(cmd)
        if name == "gate":
            cmd.add_argument("--pinned-only", action="store_true",
                             help="run each contract on its pinned examples alone (no drawn one): a known bug that "
                                  "survives is killed only by draws, which another install may draw differently")

    nightly = sub.add_parser("nightly", help="contracts (nightly profile), known bugs and mutmut: one mutation report")
    nightly.add_argument("--report-dir", type=Path, metavar="DIR", help="write JSON, HTML, Markdown and JUnit here")
    nightly.add_argument("--shard", type=_shard, metavar="K/N", help="run a deterministic slice for CI matrices")
    nightly.add_argument("--jobs", type=_positive, metavar="N", help="parallel mutant runs (default: all cores)")
    nightly.add_argument("--hypothesis-seed", type=int, metavar="SEED", help="replay a nightly run's contracts")
    nightly.add_argument(
        "--format", dest="formats", type=_formats, action="extend", default=[], metavar="F[,F]",
        help="only these formats' contracts and known bugs (repeatable); mutmut's score covers every bundled "
             "reference, so it runs only when no bundled format is left out",
    )
    from harness.cli.mutate import add_incremental_options

    add_incremental_options(nightly)  # the baseline, the known bugs, mutmut's mutants, a green exploration
    nightly.add_argument(
        "--explore-budget", type=_seconds, default=DEFAULT_BUDGET, metavar="SECONDS",
        help=f"wall seconds the property contracts' exploration may take, every format's together (default: "
             f"{DEFAULT_BUDGET:g}; 0: no exploration); each property's examples are what its share buys",
    )
    report = sub.add_parser("report", help="work with mutation reports")
    report_sub = report.add_subparsers(dest="report_command", required=True)
    merge = report_sub.add_parser("merge", help="join shard reports into one report directory")
    merge.add_argument("inputs", nargs="+", type=Path, metavar="REPORT.json")
    merge.add_argument("-o", "--output", type=Path, required=True, metavar="DIR", help="write the merged reports here")
    from harness.cli.loopback import add_subcommands  # serve, probe, record

    add_subcommands(sub)
    from harness.cli.conform import add_subcommand as add_conform

    add_conform(sub)
    return parser


def _shard(value: str) -> Shard:
    try:
        return Shard.parse(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _formats(value: str) -> list[str]:
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in FORMATS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown format {', '.join(unknown) or repr(value)}; formats: {', '.join(FORMATS)}")
    return names


def _levels(value: str) -> tuple[str, ...]:
    try:
        return parse_levels(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds, 0 or more, got {value!r}")
    return seconds


def _positive(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}")
    return int(value)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        code = _run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        code = exit_codes.INTERRUPTED
    except Exception:  # a bug in the harness: say so, with the traceback, under its own code
        traceback.print_exc()
        print(f"harness: internal error (exit {exit_codes.INTERNAL}); please report it with the traceback above",
              file=sys.stderr)
        return exit_codes.INTERNAL
    # SIGTERM's run ends 143, SIGINT's 130, whichever command's code said "interrupted".
    return exit_codes.interrupted_by(signal_seen()) if code == exit_codes.INTERRUPTED else code


def _run(args: argparse.Namespace) -> int:
    if args.command == "check":
        from harness.cli.check import CheckOptions, run_check

        return run_check(
            CheckOptions(
                adapter=args.adapter,
                adapter_cmd=args.adapter_cmd,
                adapter_timeout=args.adapter_timeout,
                profile=args.hypothesis_profile,
                junitxml=args.junitxml,
                verbose=args.verbose,
                keyword=args.keyword,
                levels=args.levels,
                policies=args.policy,
                era=args.deepseek_era,
                model=args.model,
                seed=args.hypothesis_seed,
                require=args.require,
                markdown=args.markdown,
                sarif=args.sarif,
                expectations=args.expectations,
                strict_expectations=args.strict_expectations,
                update_expectations=args.update_expectations,
            )
        )
    if args.command == "mutate":
        from harness.cli.mutate import run_known_bugs

        return run_known_bugs(
            args.config, args.only, args.report_dir, args.shard, args.jobs, args.timeout,
            adapter=args.adapter, baseline_timeout=args.baseline_timeout, in_diff=args.in_diff, base=args.base,
            mutmut=args.mutmut, store=args.verdict_store,
        )
    if args.command == "gate":
        from harness.cli.mutate import run_gate

        return run_gate(
            args.formats, args.report_dir, args.shard, args.jobs, args.timeout,
            baseline_timeout=args.baseline_timeout, in_diff=args.in_diff, base=args.base, mutmut=args.mutmut,
            store=args.verdict_store, profile="pinned" if args.pinned_only else "ci",
        )
    if args.command == "nightly":
        from harness.cli.nightly import run_nightly

        return run_nightly(args.report_dir, args.shard, args.jobs, args.hypothesis_seed, args.formats,
                           args.explore_budget, store=args.verdict_store)
    if args.command == "report":
        from harness.cli.nightly import run_merge

        return run_merge(args.inputs, args.output)
    if args.command == "conform":
        from harness.cli.conform import run_conform

        return run_conform(args)
    if args.command in ("serve", "probe", "record"):
        from harness.cli.loopback import run

        return run(args)
    raise AssertionError(f"unhandled command {args.command}")
