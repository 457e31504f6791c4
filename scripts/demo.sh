#!/usr/bin/env bash
# The demo behind `make demo`: a real burst on the simulated sensor (30 frames at 10 fps with an exposure
# bracket, through the frame pool and writer threads), more frames (a colour chart, a depth scene, two
# sensors developed into JPEGs with a stacked composite of each pair), the conversion of a real camera raw
# to DNG, an inspection of what was written, developed HEIF/JPEG pictures, and an analysis of the burst
# (histograms, peaking, zebra, the sharpest frames, a contact sheet), all with the release build.
#
# Input: $SHARED/samples-raw/canon-powershot-g2.crw (SHARED defaults to ../shared); when that is
# absent, the copy in samples/raw/, else the first raw found in samples/. Output: demo-out/ (overwritten on each run).
#
# Environment:
#   RAWBURST   path of the rawburst executable (default: the release build's, via `swift build --show-bin-path`)
#   SHARED     folder holding samples-raw/ (default: ../shared)
#   DEMO_OUT   output folder (default: demo-out)
set -euo pipefail

cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
DEMO_OUT=${DEMO_OUT:-demo-out}

if [[ -z ${RAWBURST:-} ]]; then
    RAWBURST="$(swift build -c release --show-bin-path)/rawburst"
fi
if [[ ! -x $RAWBURST ]]; then
    echo "demo: $RAWBURST does not exist; run 'make build' first" >&2
    exit 1
fi

input="$SHARED/samples-raw/canon-powershot-g2.crw"
[[ -f $input ]] || input="samples/raw/canon-powershot-g2.crw"
if [[ ! -f $input ]]; then
    input=$(find samples -maxdepth 2 -type f \( -iname '*.crw' -o -iname '*.cr2' -o -iname '*.nef' \
              -o -iname '*.dng' -o -iname '*.kdc' -o -iname '*.arw' -o -iname '*.raf' \) 2>/dev/null | sort | head -n 1)
    if [[ -z $input ]]; then
        echo "demo: no input raw: neither $SHARED/samples-raw/canon-powershot-g2.crw nor a raw file in samples/" >&2
        exit 1
    fi
fi

for sub in capture convert develop inspect analyze; do
    # A real subcommand answers --help with a usage text (swift-argument-parser prints "USAGE:").
    # (Read the whole text first: grep -q stops at its match, and under pipefail the writer's SIGPIPE would count.)
    help_text=$("$RAWBURST" "$sub" --help 2>&1 || true)
    if ! grep -qi 'usage' <<<"$help_text"; then
        echo "demo: this build of rawburst ($RAWBURST) has no '$sub' command yet" >&2
        exit 1
    fi
done

# A burst on a real-time clock drops a frame that cannot start on its tick (--late drop, the default) and exits 3;
# on a busy machine that can happen, and the demo goes on: every drop is counted in the manifest.
allow_drops() {
    local status=0
    "$@" || status=$?
    if [[ $status -eq 3 ]]; then
        echo "demo: some frames were dropped on this machine's clock (late, or no free slot); each is counted in the manifest"
    elif [[ $status -ne 0 ]]; then
        exit "$status"
    fi
}

mkdir -p "$DEMO_OUT"
echo "== rawburst capture --scene hdr --frames 30 --fps 10 --bracket 'ev:-1,0,+1' --name '%s-%4q-b%b' -o $DEMO_OUT/burst --overwrite"
allow_drops "$RAWBURST" capture --scene hdr --frames 30 --fps 10 --bracket 'ev:-1,0,+1' --name '%s-%4q-b%b' \
    -o "$DEMO_OUT/burst" --overwrite
echo
echo "== rawburst capture --sensor phone-wide --scene colorchart --frames 5 --fps 10 --seed 7 -o $DEMO_OUT/capture --overwrite"
allow_drops "$RAWBURST" capture --sensor phone-wide --scene colorchart --frames 5 --fps 10 --seed 7 -o "$DEMO_OUT/capture" --overwrite
echo
echo "== rawburst capture --sensor mirrorless-24 --lens 85mm-f1.8 --scene depth --focus-zone 4 --preset sunny -o $DEMO_OUT/capture --overwrite"
"$RAWBURST" capture --sensor mirrorless-24 --lens 85mm-f1.8 --scene depth --focus-zone 4 --preset sunny \
    -o "$DEMO_OUT/capture" --overwrite
echo
echo "== rawburst capture --sensor phone-wide --sensor phone-front --scene depth --frames 2 --fps 5 --develop jpg --develop-size 1600 --composite stacked --composite-split 60/40 --composite-border 8 -o $DEMO_OUT/pair --overwrite"
allow_drops "$RAWBURST" capture --sensor phone-wide --sensor phone-front --scene depth --frames 2 --fps 5 --develop jpg --develop-size 1600 \
    --composite stacked --composite-split 60/40 --composite-border 8 -o "$DEMO_OUT/pair" --overwrite
echo
echo "== rawburst capture --sensor phone-front --scene siemens-star --fps 24 --frames 24 --iso 100 --shutter 1/100 --focus 1.5m --wb daylight --compression lj92 --cinemadng --reel A001 -o $DEMO_OUT/clip --overwrite"
allow_drops "$RAWBURST" capture --sensor phone-front --scene siemens-star --fps 24 --frames 24 --iso 100 --shutter 1/100 --focus 1.5m --wb daylight \
    --compression lj92 --cinemadng --reel A001 -o "$DEMO_OUT/clip" --overwrite
echo
# A raw stream as rpicam-raw writes it (headerless 12-bit CSI-2 packed frames, rows padded to 1600 bytes), here three
# frames of noise from /dev/urandom piped into standard input.
echo "== head -c \$((3 * 1600 * 768)) /dev/urandom | rawburst capture --source - --format SRGGB12_CSI2P --size 1024x768 --stride 1600 -o $DEMO_OUT/stream --overwrite"
head -c $((3 * 1600 * 768)) /dev/urandom | allow_drops "$RAWBURST" capture --source - --format SRGGB12_CSI2P --size 1024x768 \
    --stride 1600 --memory-budget 256MiB -o "$DEMO_OUT/stream" --overwrite
echo
# Aravis's in-process fake GenICam camera with rawburst's own camera description (4032x3024, Bayer 8-16 bits).
echo "== RAWBURST_FAKE_CAMERA_XML=samples/genicam/rawburst-fake-camera.xml rawburst capture --camera aravis:Fake_1 --pixel-format BayerRG12p --crop 2048x1536+1024+768 --frames 5 -o $DEMO_OUT/camera --overwrite"
RAWBURST_FAKE_CAMERA_XML=samples/genicam/rawburst-fake-camera.xml allow_drops "$RAWBURST" capture --camera aravis:Fake_1 \
    --pixel-format BayerRG12p --crop 2048x1536+1024+768 --frames 5 -o "$DEMO_OUT/camera" --overwrite
echo
echo "== rawburst inspect $DEMO_OUT/capture/phone-wide-0000.dng"
"$RAWBURST" inspect "$DEMO_OUT/capture/phone-wide-0000.dng"
echo
echo "== rawburst convert $input -o $DEMO_OUT/ --overwrite"
"$RAWBURST" convert "$input" -o "$DEMO_OUT/" --overwrite

stem=$(basename "${input%.*}")
dng="$DEMO_OUT/$stem.dng"
if [[ ! -f $dng ]]; then
    # Fall back to the newest DNG in the output folder, whatever the converter named it.
    dng=$(ls -t "$DEMO_OUT"/*.dng 2>/dev/null | head -n 1 || true)
fi
if [[ -z $dng || ! -f $dng ]]; then
    echo "demo: convert reported success but wrote no DNG into $DEMO_OUT/" >&2
    exit 1
fi

echo
echo "== rawburst inspect $dng"
"$RAWBURST" inspect "$dng"

mkdir -p "$DEMO_OUT/developed"
echo
echo "== rawburst develop $dng $DEMO_OUT/capture/phone-wide-0000.dng -o $DEMO_OUT/developed/ --format heic --size 2048 --overwrite"
"$RAWBURST" develop "$dng" "$DEMO_OUT/capture/phone-wide-0000.dng" -o "$DEMO_OUT/developed/" --format heic --size 2048 --overwrite
echo
echo "== rawburst develop $DEMO_OUT/burst/ -o $DEMO_OUT/developed/ --look vivid --size 1600 --overwrite"
"$RAWBURST" develop "$DEMO_OUT/burst/" -o "$DEMO_OUT/developed/" --look vivid --size 1600 --overwrite

echo
echo "== rawburst analyze $DEMO_OUT/burst/ --histogram --peaking --zebra --best 3 --png $DEMO_OUT/analysis --overwrite"
"$RAWBURST" analyze "$DEMO_OUT/burst/" --histogram --peaking --zebra --best 3 --png "$DEMO_OUT/analysis" --overwrite

echo
echo "== demo output"
echo "burst:    $(cd "$DEMO_OUT/burst" && pwd)/ (30 frames at 10 fps, exposure bracket; manifest.json, journal.jsonl)"
echo "captures: $(cd "$DEMO_OUT/capture" && pwd)/ (simulated sensor: DNGs and the colour chart's measuring file)"
echo "pair:     $(cd "$DEMO_OUT/pair" && pwd)/ (two sensors triggered together; developed JPEGs and stacked composites)"
echo "clip:     $(cd "$DEMO_OUT/clip" && pwd)/ (a one-second CinemaDNG clip at 24 fps: A001_0000000.dng..., lossless JPEG, time codes)"
echo "stream:   $(cd "$DEMO_OUT/stream" && pwd)/ (three 12-bit CSI-2 packed frames read from standard input)"
echo "camera:   $(cd "$DEMO_OUT/camera" && pwd)/ (Aravis's in-process fake GenICam camera, BayerRG12p, a 2048x1536 region)"
echo "developed: $(cd "$DEMO_OUT/developed" && pwd)/ (HEIF of the converted raw and the chart; JPEGs of the burst)"
echo "analysis: $(cd "$DEMO_OUT/analysis" && pwd)/ (histograms, peaking and zebra overlays of the burst; contact-sheet.png)"
echo "input:    $input"
echo "DNG:      $(cd "$(dirname "$dng")" && pwd)/$(basename "$dng")"
echo "folder:   $(cd "$DEMO_OUT" && pwd)"
ls -l "$DEMO_OUT" "$DEMO_OUT/capture" "$DEMO_OUT/pair" "$DEMO_OUT/developed"
