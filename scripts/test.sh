#!/usr/bin/env bash
# Runs every test target in two passes over one build, then the Python suites and the examples, keeps one log, prints
# one summary line and exits non-zero when any pass failed:
#   1. every test but the real-time ones, in parallel (Swift Testing's default);
#   2. the real-time tests alone, one at a time (`--no-parallel`): the suites whose assertions depend on the wall
#      clock, named `...RealTimeTests` (docs/testing.md), so that nothing else competes with them for the cores;
#   3. the Python packages' pytest suites (python/rawburst over this build's C library, python/rawburst_dask), and
#   4. the Examples/ package (rawburst as a library: built in its own scratch folder, each example run; scripts/examples.sh),
#      both unless a --filter narrows the Swift passes (PYTHON_TESTS / EXAMPLES=1 runs them anyway, 0 never).
#
# Environment:
#   SWIFT            the swift driver (default: swift)
#   SWIFT_TEST_ARGS  extra arguments for `swift test` (e.g. "--scratch-path .build-ci --filter RawCoreTests"); a
#                    --filter here narrows both passes
#   TEST_LOG         where to keep the full log (default: .build-logs/test.log)
#   REALTIME_TESTS   the regular expression naming the real-time tests (default: RealTimeTests)
set -uo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
TEST_LOG=${TEST_LOG:-.build-logs/test.log}
REALTIME_TESTS=${REALTIME_TESTS:-RealTimeTests}
mkdir -p "$(dirname "$TEST_LOG")"
: > "$TEST_LOG"

# Missing external checkers must fail the tests that need them, not skip them (see TestSupport's
# ToolAvailability): `make test` installs every checker first.
export RAWBURST_REQUIRE_TOOLS=${RAWBURST_REQUIRE_TOOLS:-1}

# shellcheck disable=SC2206  # SWIFT_TEST_ARGS is a list of words on purpose
args=(${SWIFT_TEST_ARGS:-})
# The caller's own --filter patterns, if any: the second pass keeps only the real-time tests among them.
filters=()
rest=()
for ((i = 0; i < ${#args[@]}; i++)); do
    case ${args[i]} in
        --filter) filters+=("${args[i + 1]:-}"); ((i++)) ;;
        --filter=*) filters+=("${args[i]#--filter=}") ;;
        *) rest+=("${args[i]}") ;;
    esac
done
realtime_filters=()
if [[ ${#filters[@]} -eq 0 ]]; then
    realtime_filters=(--filter "$REALTIME_TESTS")
else
    # A test's identifier must match both: the real-time name and one of the caller's patterns.
    for f in "${filters[@]}"; do realtime_filters+=(--filter "^(?=.*(?:$REALTIME_TESTS)).*(?:$f)"); done
fi
caller_filters=()
for f in ${filters[@]+"${filters[@]}"}; do caller_filters+=(--filter "$f"); done

start=$(date +%s)
echo "== pass 1 of 2: every test but the real-time ones ($REALTIME_TESTS), in parallel" | tee -a "$TEST_LOG"
"$SWIFT" test ${rest[@]+"${rest[@]}"} ${caller_filters[@]+"${caller_filters[@]}"} --skip "$REALTIME_TESTS" 2>&1 \
    | tee -a "$TEST_LOG"
status1=${PIPESTATUS[0]}
log1_end=$(wc -l < "$TEST_LOG")

echo "== pass 2 of 2: the real-time tests alone, one at a time" | tee -a "$TEST_LOG"
"$SWIFT" test ${rest[@]+"${rest[@]}"} --skip-build --no-parallel "${realtime_filters[@]}" 2>&1 | tee -a "$TEST_LOG"
status2=${PIPESTATUS[0]}

# The build folder of the passes above: their --scratch-path, or SwiftPM's default.
scratch=.build
for ((i = 0; i < ${#rest[@]}; i++)); do
    case ${rest[i]} in
        --scratch-path) scratch=${rest[i + 1]:-.build} ;;
        --scratch-path=*) scratch=${rest[i]#--scratch-path=} ;;
    esac
done
python_tests=${PYTHON_TESTS:-$([[ ${#filters[@]} -eq 0 ]] && echo 1 || echo 0)}
status3=0
pytest_summary="not run"
if [[ $python_tests == 1 ]]; then
    echo "== pass 3: the Python packages (pytest) over $scratch/debug's library and CLI" | tee -a "$TEST_LOG"
    RAWBURST_LIBRARY="$PWD/$scratch/debug/libCRawBurst.so" RAWBURST="$PWD/$scratch/debug/rawburst" \
        python3 -m pytest -q -p no:cacheprovider python/rawburst/tests python/tests_dask 2>&1 | tee -a "$TEST_LOG"
    status3=${PIPESTATUS[0]}
    pytest_summary=$(tail -n 1 "$TEST_LOG" | sed -E 's/^=+ //; s/ =+$//')
fi
status4=0
examples_summary="not run"
if [[ ${EXAMPLES:-$python_tests} == 1 ]]; then
    echo "== pass 4: the Examples/ package" | tee -a "$TEST_LOG"
    SWIFT="$SWIFT" scripts/examples.sh 2>&1 | tee -a "$TEST_LOG"
    status4=${PIPESTATUS[0]}
    examples_summary=$([[ $status4 -eq 0 ]] && echo "5 ran" || echo "FAILED")
fi
elapsed=$(( $(date +%s) - start ))

# Counts from one pass's part of the log: "XCTest run, failed" and "Swift Testing run, failed, issues".
count() {
    local part=$1
    # XCTest's last "Executed N tests, with F failures" line is the grand total over all XCTest cases.
    echo "$part" | grep -E '^[[:space:]]*Executed [0-9]+ tests?, with' | tail -n 1 \
        | sed -E 's/^[[:space:]]*Executed ([0-9]+) tests?, with ([0-9]+) failures?.*/xctest \1 \2/'
    # Swift Testing's closing line: "✔ Test run with N tests in M suites passed ..." or "✘ ... failed ... with K issues".
    echo "$part" | grep -E 'Test run with [0-9]+ tests?' | tail -n 1 \
        | sed -E 's/.*Test run with ([0-9]+) tests?.* (passed|failed) after [0-9.]+ seconds?( with ([0-9]+) issues?)?.*/swifttesting \1 \2 \4/'
}
part1=$(sed -n "1,${log1_end}p" "$TEST_LOG")
part2=$(sed -n "$((log1_end + 1)),\$p" "$TEST_LOG")
read -r _ xc_run1 xc_failed1 < <(count "$part1" | grep '^xctest' || echo "xctest 0 0")
read -r _ xc_run2 xc_failed2 < <(count "$part2" | grep '^xctest' || echo "xctest 0 0")
read -r _ st_run1 st_verdict1 st_issues1 < <(count "$part1" | grep '^swifttesting' || echo "swifttesting 0 none 0")
read -r _ st_run2 st_verdict2 st_issues2 < <(count "$part2" | grep '^swifttesting' || echo "swifttesting 0 none 0")
xctest="$((xc_run1 + xc_run2)) run, $((xc_failed1 + xc_failed2)) failed"
issues=$(( ${st_issues1:-0} + ${st_issues2:-0} ))
st_verdict=passed
[[ $st_verdict1 == failed || $st_verdict2 == failed ]] && st_verdict=failed
swifttesting="$((st_run1 + st_run2)) run ($st_run2 real-time), $st_verdict"
[[ $issues -gt 0 ]] && swifttesting+=" with $issues issues"

status=$status1
[[ $status -eq 0 ]] && status=$status2
[[ $status -eq 0 ]] && status=$status3
[[ $status -eq 0 ]] && status=$status4
if [[ $status -eq 0 ]]; then
    verdict=PASSED
else
    verdict="FAILED (exit status: swift test pass 1 $status1, pass 2 $status2, pytest $status3, examples $status4)"
fi
echo
echo "== tests ${verdict} in ${elapsed}s; XCTest: ${xctest}; Swift Testing: ${swifttesting}; pytest: ${pytest_summary}; examples: ${examples_summary}; log: ${TEST_LOG}"
exit "$status"
