#!/usr/bin/env bash
# Lists the slowest tests and suites of a `swift test` log (default: .build-logs/test.log, as scripts/test.sh keeps
# it), by the wall time Swift Testing reports for each ("✔ Test … passed after 1.234 seconds."). Tests run in
# parallel, so a test's time includes waiting for the cores; use it to find what to shrink, and measure CPU time
# with `/usr/bin/time -v swift test --skip-build --filter SUITE` (docs/testing.md).
#
# Usage: scripts/test-times.sh [LOG] [HOW_MANY]
set -euo pipefail
log=${1:-.build-logs/test.log}
count=${2:-25}
[[ -f $log ]] || { echo "test-times: no log at $log (run make test first)" >&2; exit 2; }
for kind in Suite Test; do
    echo "== slowest ${kind,,}s"
    grep -aE "^. ${kind} .* (passed|failed) after [0-9.]+ seconds" "$log" \
        | grep -av "Test run with" \
        | sed -E "s/^. ${kind} (.*) (passed|failed) after ([0-9.]+) seconds.*/\3\t\1/" \
        | sort -t$'\t' -k1,1 -g -r | head -n "$count" \
        | awk -F'\t' '{ printf "%9.2f s  %s\n", $1, $2 }'
done
