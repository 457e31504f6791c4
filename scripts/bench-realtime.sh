#!/usr/bin/env bash
# The real-time figures of docs/benchmarks.md ("Issue #18"), measured with a release build of rawburst:
#   1. the 30 fps × 3 s burst at the default settings (fps produced, drops, frames started late);
#   2. 10 fps × 60 s with --develop jpg --develop-size 2048 (frames, drops, wall time);
#   3. the highest rate each compression holds continuously for 12 MP and 24 MP frames (no drop in 4 s);
#   4. process start → first frame with manual and with automatic settings.
# Usage: RAWBURST=.build/release/rawburst scripts/bench-realtime.sh [OUT]   (OUT: scratch folder, default /tmp/rb-bench)
# Each capture's /usr/bin/time -v figures and manifest are kept in OUT; the summary goes to standard output.
set -euo pipefail

RAWBURST=${RAWBURST:-.build/release/rawburst}
OUT=${1:-/tmp/rb-bench}
PYTHON=${PYTHON:-python3}
rm -rf "$OUT"
mkdir -p "$OUT"

# capture NAME ARGS...: runs one capture into OUT/NAME (exit status 3, frames dropped, is a result, not a failure).
capture() {
    local name=$1
    shift
    local status=0
    /usr/bin/time -v -o "$OUT/$name.time" "$RAWBURST" capture -o "$OUT/$name" "$@" --json >"$OUT/$name.json" 2>"$OUT/$name.err" || status=$?
    if [[ $status -ne 0 && $status -ne 3 ]]; then
        echo "bench-realtime: $name: exit status $status: $(head -1 "$OUT/$name.err")" >&2
        exit 1
    fi
}

# summary NAME: fps produced, written/produced, drops by reason, late frames, start → first frame, wall, peak RSS.
summary() {
    "$PYTHON" - "$OUT/$1.json" "$OUT/$1.time" <<'EOF'
import json, sys, re
m = json.load(open(sys.argv[1]))
b = m["burst"]
t = open(sys.argv[2]).read()
wall = re.search(r"Elapsed \(wall clock\) time.*: (.*)", t).group(1)
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) // 1024
drops = {}
for d in b["dropped"]:
    drops[d["reason"]] = drops.get(d["reason"], 0) + 1
s = b["statistics"]
dev = m.get("development") or {}
developed = len(dev.get("developed", []))
print(f'{s["producedFPS"]} fps produced, {b["written"]}/{b["produced"]} written, drops {drops or 0}, '
      f'{s["lateFrames"]} started >1 ms late (max {s["maxLatenessMilliseconds"]} ms), '
      f'start→first frame {b.get("processStartToFirstFrameMilliseconds")} ms, compression {b["plan"]["compression"] if b.get("plan") else "-"}, '
      f'governor {[x["level"] for x in b["degradations"]] or "-"}, '
      + (f'developed {developed} ({sum(1 for d in dev.get("developed", []) if d.get("duringBurst"))} during), ' if dev else '')
      + f'wall {wall}, peak RSS {rss} MiB')
EOF
}

# holds NAME: 0 when the burst wrote every frame it was due to make, with no drop and no governor step.
holds() {
    "$PYTHON" - "$OUT/$1.json" <<'EOF'
import json, sys
b = json.load(open(sys.argv[1]))["burst"]
sys.exit(0 if not b["dropped"] and not b["degradations"] and b["written"] == b["produced"] else 1)
EOF
}

echo "== 1. rawburst capture --fps 30 --duration 3s --memory-budget 2GiB"
capture burst30 --fps 30 --duration 3s --memory-budget 2GiB
echo "   $(summary burst30)"

echo "== 2. rawburst capture --fps 10 --duration 60s --develop jpg --develop-size 2048"
capture develop10 --fps 10 --duration 60s --develop jpg --develop-size 2048
echo "   $(summary develop10)"

echo "== 3. the highest rate held for 4 s (no drop, no governor step), --memory-budget 2GiB"
for sensor in phone-wide mirrorless-24; do
    maximum=$("$RAWBURST" sensors --json | "$PYTHON" -c "import json,sys; print(int(next(e['profile']['maximumFrameRate'] for e in json.load(sys.stdin) if e['profile']['name'] == '$sensor')))")
    for compression in lj92 packed none; do
        best=0
        for fps in 5 8 10 12 15 20 24 30; do
            [[ $fps -le $maximum ]] || break
            capture "rate-$sensor-$compression-$fps" --sensor "$sensor" --compression "$compression" --fps "$fps" \
                --duration 4s --memory-budget 2GiB --no-governor --overflow drop-newest || true
            if holds "rate-$sensor-$compression-$fps"; then best=$fps; else break; fi
        done
        echo "   $sensor $compression: holds $best fps (sensor maximum $maximum)"
    done
done

echo "== 4. process start → first frame"
capture manual --iso 100 --shutter 1/100 --focus 1.5m --wb daylight --compression none
echo "   manual (--iso 100 --shutter 1/100 --focus 1.5m --wb daylight --compression none): $(summary manual)"
capture automatic
echo "   automatic (defaults, calibration cached): $(summary automatic)"
