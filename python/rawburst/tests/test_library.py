"""The library under the bindings: which file is loaded, its version, the ABI check, the struct layouts against the
header, and the GIL released during calls."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import threading
import time

import numpy as np
import pytest

import rawburst
from rawburst import _library
from support import REPOSITORY, mosaic

HEADER = REPOSITORY / "Sources" / "CRawBurst" / "include"
STRUCTS = {
    "rawburst_layout": _library.Layout,
    "rawburst_exif": _library.Exif,
    "rawburst_gps": _library.Gps,
    "rawburst_color": _library.Color,
    "rawburst_dng_params": _library.DngParams,
    "rawburst_dng_result": _library.DngResult,
    "rawburst_develop_params": _library.DevelopParams,
    "rawburst_develop_result": _library.DevelopResult,
    "rawburst_capture_params": _library.CaptureParams,
    "rawburst_frame": _library.Frame,
    "rawburst_capture_summary": _library.CaptureSummary,
}


def compile_c(tmp_path, source: str, *flags: str):
    """Compiles C source with the system's cc (a missing one fails the test); returns the output's path."""
    cc = shutil.which("cc")
    if cc is None:
        pytest.fail("no C compiler: make deps installs gcc")
    c_file, output = tmp_path / "probe.c", tmp_path / ("probe.so" if "-shared" in flags else "probe")
    c_file.write_text(source)
    subprocess.run([cc, *flags, f"-I{HEADER}", str(c_file), "-o", str(output)], check=True)
    return output


def test_loaded_from_rawburst_library():
    assert _library.library_path() == os.environ["RAWBURST_LIBRARY"]
    assert _library.library()._name == os.environ["RAWBURST_LIBRARY"]


def test_version_is_the_cli_version(cli):
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", rawburst.__version__)
    shown = subprocess.run([str(cli), "--version"], capture_output=True, text=True, check=True).stdout
    assert rawburst.__version__ in shown


def test_structs_match_the_header(tmp_path):
    lines = []
    for name, struct in STRUCTS.items():
        lines.append(f'printf("{name} size %zu\\n", sizeof({name}));')
        for field, _ in struct._fields_:
            lines.append(f'printf("{name} {field} %zu\\n", offsetof({name}, {field}));')
    source = "#include <stdio.h>\n#include <stddef.h>\n#include <rawburst.h>\nint main(void) {\n" \
             + "\n".join(lines) + "\nreturn 0;\n}\n"
    probe = compile_c(tmp_path, source)
    expected = {}
    for name, struct in STRUCTS.items():
        expected[f"{name} size"] = ctypes.sizeof(struct)
        for field, _ in struct._fields_:
            expected[f"{name} {field}"] = getattr(struct, field).offset
    measured = {}
    for line in subprocess.run([str(probe)], capture_output=True, text=True, check=True).stdout.splitlines():
        key, _, value = line.rpartition(" ")
        measured[key] = int(value)
    assert measured == expected


def test_another_abi_version_is_an_abi_error(tmp_path, monkeypatch):
    fake = compile_c(tmp_path, "int rawburst_abi_version(void) { return 2; }\n", "-shared", "-fPIC")
    monkeypatch.setenv("RAWBURST_LIBRARY", str(fake))
    monkeypatch.setattr(_library, "_loaded", None)
    with pytest.raises(rawburst.ABIError, match="ABI version 2") as error:
        rawburst.read(tmp_path / "any.dng")
    assert error.value.status == -6


def test_status_codes_map_to_error_classes():
    expected = {-1: rawburst.ArgumentError, -2: rawburst.ExistsError, -3: rawburst.ReadError,
                -4: rawburst.WriteError, -5: rawburst.SourceError, -6: rawburst.ABIError, -99: rawburst.Error}
    for status, kind in expected.items():
        error = rawburst.errors.error_for(status, "message")
        assert type(error) is kind and error.status == status and str(error) == "message"
    assert issubclass(rawburst.ArgumentError, ValueError) and issubclass(rawburst.ExistsError, FileExistsError)
    assert issubclass(rawburst.ReadError, OSError) and issubclass(rawburst.WriteError, OSError)


def direct_write(tmp_path, samples, width, **fields):
    """rawburst_write_dng called directly on a 12-bit frame, with `fields` of rawburst_dng_params set (`black`: one
    level); returns the status, the last error and whether a file appeared."""
    lib = _library.library()
    params = _library.DngParams()
    lib.rawburst_dng_params_init(ctypes.byref(params))
    params.bits_per_sample = 12
    if "black" in fields:
        params.black_count, params.black[0] = 1, fields.pop("black")
    for key, value in fields.items():
        setattr(params, key, value)
    path = tmp_path / "direct.dng"
    status = lib.rawburst_write_dng(os.fsencode(path), samples.ctypes.data, width, samples.shape[0],
                                    samples.shape[1], ctypes.byref(params), None)
    return status, _library.last_error(), path.exists()


@pytest.mark.parametrize("case, width, fields", [
    ("odd width", 255, {}),
    ("unknown CFA", 256, {"cfa": b"RGBX"}),
    ("black at white", 256, {"white_level": 4095, "black": 4095.0}),
    ("white above the bits", 256, {"white_level": 4096}),
    ("samples above the bits", 256, {"bits_per_sample": 10}),
])
def test_c_library_refuses_bad_values_itself(tmp_path, case, width, fields):
    """The C library's own checks (the bindings make most of them first): RAWBURST_E_ARGUMENT, a one-line message,
    no file."""
    status, message, exists = direct_write(tmp_path, mosaic(12), width, **fields)
    assert (status, exists) == (-1, False)
    assert message and "\n" not in message


def test_gil_is_released_during_a_write(tmp_path):
    """While a 12 MP frame is written in another thread, this thread keeps running: its longest pause is a small
    part of the write (with the GIL held, it would stop for the whole write)."""
    frame = mosaic(12, width=4032, height=3024)
    done = threading.Event()
    took = []

    def write():
        start = time.perf_counter()
        rawburst.write_dng(tmp_path / "big.dng", frame, bits=12, ccm=np.eye(3))
        took.append(time.perf_counter() - start)
        done.set()

    writer = threading.Thread(target=write)
    ticks = [time.perf_counter()]
    writer.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
    writer.join()
    longest = max(np.diff(ticks))
    assert took[0] > 0.02 and longest < took[0] / 2, (longest, took[0])
