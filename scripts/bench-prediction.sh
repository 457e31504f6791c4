#!/usr/bin/env bash
# The prediction figures of docs/benchmarks.md ("Issue #33: predictions"), measured with a release build of rawburst:
# how well the plan's promise holds on this machine, quiet and with one core taken by another process (a busy loop
# this script starts and stops), for
#   1. the demo's first burst: capture --scene hdr --frames 30 --fps 10 --bracket 'ev:-1,0,+1'
#   2. the default 30 fps burst: capture --fps 30 --duration 3s --memory-budget 2GiB
# Each is run RUNS times (default 3) per condition. Per run it prints the compression, the in-burst factor the plan
# counted (what earlier bursts at the rate measured a frame to cost over the standalone figures; "-" for none, as in a
# first burst), frames produced and written, dropped `late`
# (the engine's), `sensor-late` (the simulated sensor's rendering fell behind) and for other reasons, the governor's
# first step (frame and seconds) against the prediction, the prediction error and the verdict (burst.predictionCheck).
#
# Usage: RAWBURST=.build/release/rawburst scripts/bench-prediction.sh [OUT]   (OUT: scratch folder, default /tmp/rb-prediction)
# Environment: RUNS (3), PYTHON (python3). The calibration cache is OUT/cache (fresh at the start; later runs use what
# the first measured, within its 24 h and unless a burst doubts it, and the factors the bursts kept, as a user's
# bursts would).
set -euo pipefail

RAWBURST=${RAWBURST:-.build/release/rawburst}
OUT=${1:-/tmp/rb-prediction}
RUNS=${RUNS:-3}
PYTHON=${PYTHON:-python3}
rm -rf "$OUT"
mkdir -p "$OUT"
export XDG_CACHE_HOME="$OUT/cache"

busy_pid=""
stop_busy() {
    if [[ -n $busy_pid ]]; then
        kill "$busy_pid" 2>/dev/null || true
        wait "$busy_pid" 2>/dev/null || true
        busy_pid=""
    fi
}
trap stop_busy EXIT

# capture NAME ARGS...: one capture into OUT/NAME (exit status 3, frames dropped, is a result, not a failure).
capture() {
    local name=$1
    shift
    local status=0
    "$RAWBURST" capture -o "$OUT/$name" "$@" --json >"$OUT/$name.json" 2>"$OUT/$name.err" || status=$?
    if [[ $status -ne 0 && $status -ne 3 ]]; then
        echo "bench-prediction: $name: exit status $status: $(head -1 "$OUT/$name.err")" >&2
        exit 1
    fi
}

# row CONDITION RUN NAME: one markdown table row from the capture's report.
row() {
    "$PYTHON" - "$1" "$2" "$OUT/$3.json" <<'EOF'
import json, sys
condition, run, path = sys.argv[1], sys.argv[2], sys.argv[3]
b = json.load(open(path))["burst"]
drops = {}
for d in b["dropped"]:
    drops[d["reason"]] = drops.get(d["reason"], 0) + 1
late, sensor = drops.pop("late", 0), drops.pop("sensor-late", 0)
p = b.get("prediction") or {}
c = b.get("predictionCheck") or {}
kind = p.get("kind", "-")
predicted = f'{kind} ~{p["framesBeforeFirstEvent"]} ({p["secondsBeforeFirstEvent"]} s)' if kind == "holds" else kind
step = f'{c["firstStepFrame"]} ({c["firstStepSeconds"]} s)' if c.get("firstStepFrame") is not None else "-"
drop = f'{c["firstDropFrame"]} ({c["firstDropSeconds"]} s, {c["firstDropReason"]})' if c.get("firstDropFrame") is not None else "-"
error = f'{c["error"]:+.0%}' if c.get("error") is not None else "-"
plan = b.get("plan") or {}
factor = plan.get("inBurstFactor") or "-"
print(f'| {condition} | {run} | {plan.get("compression", "-")} | {factor} | {b["produced"]} | {b["written"]} | {late} | {sensor} | '
      f'{sum(drops.values()) or 0} | {predicted} | {step} | {drop} | {error} | {c.get("verdict", "-")} |')
EOF
}

header() {
    echo "| machine | run | DNGs | in-burst factor | produced | written | late | sensor-late | other drops | predicted | first step after | first drop after | error | verdict |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
}

bursts=(
    "demo:--scene hdr --frames 30 --fps 10 --bracket ev:-1,0,+1 --name %s-%4q-b%b"
    "30fps:--fps 30 --duration 3s --memory-budget 2GiB"
)
echo "rawburst: $RAWBURST ($("$RAWBURST" --version 2>/dev/null || echo '?')), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for burst in "${bursts[@]}"; do
    name=${burst%%:*}
    read -r -a arguments <<<"${burst#*:}"
    echo
    echo "== $name: rawburst capture ${arguments[*]}"
    header
    for condition in quiet one-core-busy; do
        if [[ $condition == one-core-busy ]]; then
            ( while :; do :; done ) &
            busy_pid=$!
            sleep 1
        fi
        for run in $(seq 1 "$RUNS"); do
            capture "$name-$condition-$run" "${arguments[@]}"
            row "$condition" "$run" "$name-$condition-$run"
        done
        stop_busy
    done
done
