#!/usr/bin/env bash
# The steps of the harness's GitHub Action (action.yml), one subcommand each:
#
#   run.sh prepare   check the inputs, make the report folder and the action's state folder
#   run.sh install   install the harness (and the team's own packages) with pip
#   run.sh check     harness check against the team's adapter
#   run.sh mutate    harness mutate with the team's own catalogue of known bugs
#   run.sh finish    the count of annotations left off, and the action's part of the job summary
#
# Every input arrives as an environment variable (HARNESS_*), never spliced into
# the script, so no input is ever read as shell. The steps share state through
# GITHUB_OUTPUT and the state folder that `prepare` makes under RUNNER_TEMP.
set -euo pipefail

# GitHub keeps the first 10 annotations of each level per step. The harness caps
# each command's own; the whole action is held to the same cap here, because
# check and mutate run as steps of one action and may be counted as one step.
CAP=10

usage_error() {  # an ::error and exit 2, the harness's own code for a usage error
    echo "::error title=agent-contract-harness action::$1" >&2
    exit 2
}

output() {  # a step output (GITHUB_OUTPUT's name=value lines)
    echo "$1=$2" >>"$GITHUB_OUTPUT"
}

state_dir() {
    [[ -n "${HARNESS_STATE:-}" && -d "$HARNESS_STATE" ]] || usage_error "the prepare step's state folder is missing"
    printf '%s\n' "$HARNESS_STATE"
}

annotate() {
    # Passes a command's output through, holding its workflow annotations to the
    # action's budget: per level, the first CAP in the order they come (the
    # harness prints its own most important first), the rest counted. The
    # harness's own "N more ... not annotated" notices are counted, not shown:
    # `finish` prints one notice for everything left off.
    local budget
    budget="$(state_dir)/annotations"
    awk -v budget="$budget" -v cap="$CAP" '
        BEGIN {
            while ((getline entry < budget) > 0) { split(entry, f, " "); shown[f[1]] = f[2] }
            close(budget)
        }
        /^::(error|warning|notice)[ :]/ {
            level = substr($0, 3, index(substr($0, 3), ":") - 1)
            sub(/ .*/, "", level)
            if (level == "notice" && match($0, /title=[0-9]+ more /)) {
                shown["left"] += substr($0, RSTART + 6, RLENGTH - 12)
                next
            }
            # one notice is kept back for the count of what was left off
            if (shown[level] < cap - (level == "notice")) { shown[level]++; print; fflush() }
            else shown["left"]++
            next
        }
        { print; fflush() }
        END {
            printf "error %d\nwarning %d\nnotice %d\nleft %d\n",
                shown["error"], shown["warning"], shown["notice"], shown["left"] > budget
        }'
}

run_harness() {  # run.sh's way to start a harness command: its output kept whole, annotated within the budget
    local log="$1"
    shift
    mkdir -p "$(dirname "$log")"
    echo "harness $*"
    set +e
    harness "$@" 2>&1 | tee "$log" | annotate
    local codes=("${PIPESTATUS[@]}")
    set -e
    if [[ "${codes[0]}" == 2 ]] && ! grep -q '^::error' "$log"; then
        # A usage error is told on the run's last line; without an annotation the job page shows only "exit 2".
        local said
        said=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)
        echo "::error title=harness $1: usage error (exit 2)::${said//%/%25}" | annotate >&2
    fi
    return "${codes[0]}"
}

prepare() {
    case "${HARNESS_CHECK:-true}" in
        true | false) ;;
        *) usage_error "the input check is 'true' or 'false', got '${HARNESS_CHECK}'" ;;
    esac
    if [[ "${HARNESS_CHECK:-true}" == "true" ]]; then
        [[ -n "${HARNESS_ADAPTER:-}" || -n "${HARNESS_ADAPTER_CMD:-}" ]] ||
            usage_error "set the input adapter (MODULE:ATTR) or adapter-cmd (a bridge program) to check"
        [[ -z "${HARNESS_ADAPTER:-}" || -z "${HARNESS_ADAPTER_CMD:-}" ]] ||
            usage_error "set adapter or adapter-cmd, not both: one run checks one adapter"
    elif [[ -z "${HARNESS_MUTANTS:-}" ]]; then
        usage_error "check is off and no mutants catalogue is given: nothing to run"
    fi
    local reports="${HARNESS_REPORT_DIR:-harness-reports}"
    mkdir -p "$reports"
    local state
    state="$(mktemp -d "${RUNNER_TEMP:?RUNNER_TEMP is set by the runner}/agent-contract-harness.XXXXXX")"
    output report-dir "$(cd "$reports" && pwd)"
    output state-dir "$state"
}

install() {
    # Empty: the action's own checkout, so `uses: OWNER/REPO@REF` runs the harness of that ref.
    # A bare version: that release. Anything else: a pip requirement as written.
    local version="${HARNESS_VERSION:-}" requirement
    if [[ -z "$version" ]]; then
        requirement="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is set by the runner}"
    elif [[ "$version" =~ ^[0-9][0-9A-Za-z.!+-]*$ ]]; then
        requirement="agent-contract-harness==$version"
    else
        requirement="$version"
    fi
    local extra=()
    # The team's own pip arguments, split on whitespace like a command line (no globbing).
    read -r -a extra <<<"${HARNESS_INSTALL:-}"
    echo "python -m pip install $requirement ${extra[*]}"
    python -m pip install --disable-pip-version-check "$requirement" "${extra[@]}"
}

check() {
    local reports="${HARNESS_REPORTS:?the prepare step gives the report folder}/check"
    local args=(check --hypothesis-profile "${HARNESS_HYPOTHESIS_PROFILE:-ci}")
    if [[ -n "${HARNESS_ADAPTER:-}" ]]; then args+=(--adapter "$HARNESS_ADAPTER"); fi
    if [[ -n "${HARNESS_ADAPTER_CMD:-}" ]]; then args+=(--adapter-cmd "$HARNESS_ADAPTER_CMD"); fi
    if [[ -n "${HARNESS_LEVELS:-}" ]]; then args+=(--levels "$HARNESS_LEVELS"); fi
    if [[ -n "${HARNESS_EXPECTATIONS:-}" ]]; then args+=(--expectations "$HARNESS_EXPECTATIONS"); fi
    args+=(--junitxml "$reports/junit.xml" --markdown "$reports/summary.md" --sarif "$reports/check.sarif")
    local code=0
    run_harness "$reports/console.log" "${args[@]}" || code=$?
    code=$(format_guard "$reports/console.log" "$code")
    output exit-code "$code"
    return "$code"
}

format_guard() {
    # The adapter names its format (a `format` attribute, or the bridge's
    # handshake) and the header of the run shows it. A workflow that says
    # another one is misconfigured: the contracts it meant to run would all be
    # not applicable. Prints the exit code the step ends with.
    local log="$1" code="$2" spoken
    spoken=$(sed -n 's/^adapter under test: .* format: \([A-Za-z0-9_-]*\);.*$/\1/p' "$log" | head -n 1)
    if [[ -n "${HARNESS_FORMAT:-}" && -n "$spoken" && "$spoken" != "$HARNESS_FORMAT" ]]; then
        echo "::error title=format mismatch::the workflow says format '$HARNESS_FORMAT'; the adapter speaks" \
            "'$spoken' (its format attribute, or its bridge handshake)" | annotate >&2
        code=2
    fi
    echo "$code"
}

mutate() {
    local reports="${HARNESS_REPORTS:?the prepare step gives the report folder}/mutate"
    local args=(mutate --config "${HARNESS_MUTANTS:?the input mutants names the catalogue}" --report-dir "$reports")
    # A Python adapter's catalogue patches the adapter's own project (harness mutate --adapter).
    if [[ -n "${HARNESS_ADAPTER:-}" ]]; then args+=(--adapter "$HARNESS_ADAPTER"); fi
    local code=0
    run_harness "$reports/console.log" "${args[@]}" || code=$?
    output exit-code "$code"
    return "$code"
}

meaning() {  # the harness's own words for an exit code
    python -c 'import sys; from harness.exit_codes import MEANINGS; print(MEANINGS.get(int(sys.argv[1]), "unknown"))' "$1"
}

row() {  # the summary's line for a command that ran: its exit code and what the code means
    if [[ -n "$2" ]]; then echo "| \`harness $1\` | $2 | $(meaning "$2") |"; fi
}

finish() {
    local budget left=0 entry count
    budget="$(state_dir)/annotations"
    if [[ -f "$budget" ]]; then
        while read -r entry count; do
            if [[ "$entry" == left ]]; then left=$count; fi
        done <"$budget"
    fi
    if ((left > 0)); then
        echo "::notice title=$left more not annotated::$left more problems not annotated (GitHub shows $CAP" \
            "per level in a step): the job summary lists every one, the report folder holds them all"
    fi
    output annotations-left-off "$left"
    [[ -n "${GITHUB_STEP_SUMMARY:-}" ]] || return 0
    {
        echo "### agent-contract-harness"
        echo
        echo "| command | exit | meaning |"
        echo "|---|---|---|"
        row check "${HARNESS_CHECK_EXIT:-}"
        row mutate "${HARNESS_MUTATE_EXIT:-}"
        echo
        echo "Reports: the artifact \`${HARNESS_ARTIFACT:-harness-reports}\`."
        if ((left > 0)); then echo "$left more problems than GitHub annotates: every one is listed above."; fi
    } >>"$GITHUB_STEP_SUMMARY"
}

case "${1:-}" in
    prepare | install | check | mutate | finish) "$1" ;;
    *) usage_error "run.sh: expected prepare, install, check, mutate or finish; got '${1:-}'" ;;
esac
