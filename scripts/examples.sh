#!/usr/bin/env bash
# Builds the Examples/ package (rawburst used as a library, through `import RawBurst`) in its own scratch folder, which
# later runs reuse, and runs each example on real inputs: a camera raw from samples/raw/, the DNG it becomes, a buffer
# of our own, a 10-frame burst. Exit status: non-zero when a build or an example fails.
#   SWIFT             the swift driver (default: swift)
#   EXAMPLES_SCRATCH  the examples' build folder (default: Examples/.build)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
scratch=${EXAMPLES_SCRATCH:-Examples/.build}
echo "examples: building Examples/ (scratch path $scratch)"
if ! log=$("$SWIFT" build --package-path Examples --scratch-path "$scratch" 2>&1); then
    echo "$log" | grep -E "error:" >&2 || echo "$log" | tail -n 30 >&2
    exit 1
fi
# The examples' own warnings (the library's are the main build's business).
echo "$log" | grep -E "Examples/Sources/.*warning:" >&2 || true
bin=$("$SWIFT" build --package-path Examples --scratch-path "$scratch" --show-bin-path)
out=$(mktemp -d -t rawburst-examples.XXXXXX)
trap 'rm -rf "$out"' EXIT
raw=samples/raw/canon-powershot-g2.crw
[[ -f ${SHARED:-../shared}/samples-raw/canon-powershot-g2.crw ]] && raw=${SHARED:-../shared}/samples-raw/canon-powershot-g2.crw
run() { echo "examples: $*"; "$@"; }
run "$bin/ConvertToDNG" "$raw" "$out/converted.dng"
run "$bin/DevelopPicture" "$out/converted.dng" "$out/developed.jpg"
run "$bin/BufferToDNG" "$out/buffer.dng"
run "$bin/AnalyseFrame" "$out/buffer.dng" | tee "$out/analysis.txt"
grep -q "^sharpness " "$out/analysis.txt" || { echo "examples: the analysis printed no sharpness" >&2; exit 1; }
run "$bin/CaptureBurst" "$out/burst" | tee "$out/burst.txt"
for file in converted.dng developed.jpg buffer.dng; do
    [[ -s $out/$file ]] || { echo "examples: $file was not written" >&2; exit 1; }
done
# Ten frames produced; on a loaded machine some may be dropped late, but each is accounted for and the rest are on disk.
written=$(sed -nE 's/^produced 10, written ([0-9]+), dropped [0-9]+$/\1/p' "$out/burst.txt")
count=$(find "$out/burst" -name '*.dng' | wc -l)
[[ -n $written && $written -ge 1 && $count -eq $written ]] || {
    echo "examples: the burst's books and folder disagree: '$(tail -n 1 "$out/burst.txt")', $count DNGs" >&2; exit 1; }
echo "examples: all five ran"
