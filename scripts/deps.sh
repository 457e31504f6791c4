#!/usr/bin/env bash
# Installs what rawburst needs to build and test, and nothing when it is all there already.
#
#   - Debian packages: the C libraries rawburst links (Aravis for GenICam cameras; its pkg-config file requires
#     libusb-1.0) and the external checkers its tests run (GNU time measures the peak memory of the CLI runs on
#     hostile files; aravis-tools has arv-fake-gv-camera-0.8, the GigE Vision camera the camera tests talk to;
#     chromium and chromium-driver run the live viewfinder's page headless under Selenium — no browser download);
#   - PyPI packages: independent readers/writers (rawpy, tifffile, imagecodecs, PiDNG, numpy, dngpy: Adobe's DNG SDK)
#     and what the tests' Python checks import besides (Pillow; pillow-heif, whose bundled libheif is a second,
#     newer HEIF reader; scipy, selenium for the viewfinder's browser test; dask, distributed, fsspec and psutil
#     for python/rawburst_dask and its tests in Tests/Dask, run from the checkout). Every module a test or a
#     benchmark script imports must be listed here: CI runs the suite in a fresh virtual environment that only this
#     script fills (.ci/run), so a missing entry fails there as it would on a fresh machine.
#
# Idempotent and quick: with everything present it only queries dpkg and Python (well under 2 s).
# `apt-get update` runs at most once, and only when a Debian package is missing.
# Uses sudo only when not root and sudo exists.
set -euo pipefail

BUILD_LIBS=(libraw-dev libtiff-dev libexif-dev liblcms2-dev libheif-dev libjpeg62-turbo-dev libpng-dev pkg-config
            libaravis-dev libusb-1.0-0-dev libssl-dev)
CHECKERS=(libimage-exiftool-perl dcraw libraw-bin libheif-examples exiv2 darktable time libtiff-tools
          aravis-tools chromium chromium-driver)
# IMPORT_NAME=PYPI_DISTRIBUTION, one per module the tests import.
PY_PACKAGES=(rawpy=rawpy tifffile=tifffile imagecodecs=imagecodecs pidng=pidng numpy=numpy dngpy=dngpy
             PIL=Pillow pillow_heif=pillow-heif scipy=scipy selenium=selenium dask=dask distributed=distributed fsspec=fsspec
             psutil=psutil pytest=pytest)
PYTHON=${PYTHON:-python3}

say() { printf 'deps: %s\n' "$*"; }

as_root() {
    if [[ $(id -u) -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        say "need root to run: $*  (not root, and sudo is not installed)" >&2
        exit 1
    fi
}

# --- Debian packages --------------------------------------------------------------------------
missing_debs=()
for pkg in "${BUILD_LIBS[@]}" "${CHECKERS[@]}"; do
    # "ii " = wanted and installed. `dpkg -s` alone also succeeds for removed packages that left config files.
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
    [[ $status == "ii "* ]] || missing_debs+=("$pkg")
done

if ((${#missing_debs[@]})); then
    say "installing Debian packages: ${missing_debs[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing_debs[@]}"
fi

# --- Python packages --------------------------------------------------------------------------
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    say "$PYTHON is not on PATH" >&2
    exit 1
fi
# find_spec only locates the modules (importing numpy and rawpy would cost several tenths of a second).
missing_py=$("$PYTHON" - "${PY_PACKAGES[@]}" <<'PY'
import importlib.util, sys
pairs = (arg.split("=", 1) for arg in sys.argv[1:])
print(" ".join(dist for module, dist in pairs if importlib.util.find_spec(module) is None))
PY
)
if [[ -n $missing_py ]]; then
    say "installing PyPI packages: $missing_py"
    pip_args=(install --quiet --disable-pip-version-check)
    if [[ $(id -u) -eq 0 ]]; then
        pip_args+=(--root-user-action=ignore)
    elif "$PYTHON" -c 'import sys; sys.exit(0 if sys.prefix == sys.base_prefix else 1)' \
         && [[ ! -w $("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') ]]; then
        pip_args+=(--user)   # a system Python we cannot write to, outside a virtualenv
    fi
    # shellcheck disable=SC2086  # word splitting of the module list is intended
    "$PYTHON" -m pip "${pip_args[@]}" $missing_py
fi

if ((${#missing_debs[@]})) || [[ -n $missing_py ]]; then
    say "done"
else
    say "everything is already installed"
fi
