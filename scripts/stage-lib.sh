#!/usr/bin/env bash
# Lays out the C library as it is installed: librawburst.so.N (the soname) and librawburst.so beside it, the header
# and a pkg-config file whose prefix is PREFIX.
#   scripts/stage-lib.sh BUILT_LIBRARY DESTINATION PREFIX
# BUILT_LIBRARY is SwiftPM's libCRawBurst.so (its soname is already librawburst.so.N); DESTINATION gets lib/,
# lib/pkgconfig/ and include/.
set -euo pipefail
cd "$(dirname "$0")/.."
built=$1 destination=$2 prefix=$3
abi=$(sed -nE 's/^#define RAWBURST_ABI_VERSION ([0-9]+)$/\1/p' Sources/CRawBurst/include/rawburst.h)
soname=$(readelf -d "$built" | sed -nE 's/.*Library soname: \[(.*)\]/\1/p')
if [[ $soname != "librawburst.so.$abi" ]]; then
    echo "stage-lib: $built has soname '$soname', the header's ABI is $abi (librawburst.so.$abi)" >&2
    exit 1
fi
version=$(sed -nE 's/.*public static let string = "(.*)".*/\1/p' Sources/RawCore/RawBurstVersion.swift)
mkdir -p "$destination/lib/pkgconfig" "$destination/include"
install -m 0755 "$built" "$destination/lib/$soname"
# Debug information stays in the build folder: the installed library is a quarter of the size without it.
strip --strip-unneeded "$destination/lib/$soname"
ln -sfn "$soname" "$destination/lib/librawburst.so"
install -m 0644 Sources/CRawBurst/include/rawburst.h "$destination/include/rawburst.h"
cat > "$destination/lib/pkgconfig/rawburst.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: rawburst
Description: Raw photography: read camera raws, write DNGs from your own buffers, develop, capture (C ABI $abi)
Version: $version
Libs: -L\${libdir} -lrawburst
Cflags: -I\${includedir}
PC
echo "stage-lib: $destination/lib/$soname (rawburst $version, ABI $abi)"
