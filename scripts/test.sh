#!/usr/bin/env bash
# Runs every test target (XCTest cases and Swift Testing suites, which `swift test` runs one after the
# other), keeps a log, prints one summary line and exits with swift test's status.
#
# Environment:
#   SWIFT            the swift driver (default: swift)
#   SWIFT_TEST_ARGS  extra arguments for `swift test` (e.g. "--scratch-path .build-ci --filter RawCoreTests")
#   TEST_LOG         where to keep the full log (default: .build-logs/test.log)
set -uo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
TEST_LOG=${TEST_LOG:-.build-logs/test.log}
mkdir -p "$(dirname "$TEST_LOG")"

# Missing external checkers must fail the tests that need them, not skip them (see TestSupport's
# ToolAvailability): `make test` installs every checker first.
export RAWBURST_REQUIRE_TOOLS=${RAWBURST_REQUIRE_TOOLS:-1}

start=$(date +%s)
# shellcheck disable=SC2086  # SWIFT_TEST_ARGS is a list of words on purpose
"$SWIFT" test ${SWIFT_TEST_ARGS:-} 2>&1 | tee "$TEST_LOG"
status=${PIPESTATUS[0]}
elapsed=$(( $(date +%s) - start ))

# XCTest's last "Executed N tests, with F failures" line is the grand total over all XCTest cases.
xctest=$(grep -E '^[[:space:]]*Executed [0-9]+ tests?, with' "$TEST_LOG" | tail -n 1 \
         | sed -E 's/^[[:space:]]*Executed ([0-9]+) tests?, with ([0-9]+) failures?.*/\1 run, \2 failed/')
# Swift Testing's closing line: "✔ Test run with N tests in M suites passed ..." or "✘ ... failed ... with K issues".
swifttesting=$(grep -E 'Test run with [0-9]+ tests?' "$TEST_LOG" | tail -n 1 \
               | sed -E 's/.*Test run with ([0-9]+) tests?.* (passed|failed) after [0-9.]+ seconds?(.*)\.[[:space:]]*$/\1 run, \2\3/')

if [[ $status -eq 0 ]]; then verdict=PASSED; else verdict="FAILED (swift test exit status $status)"; fi
echo
echo "== tests ${verdict} in ${elapsed}s; XCTest: ${xctest:-none}; Swift Testing: ${swifttesting:-none}; log: ${TEST_LOG}"
exit "$status"
