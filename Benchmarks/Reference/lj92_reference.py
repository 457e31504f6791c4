"""Reference lossless-JPEG encoders for the LosslessJPEG benchmark (docs/benchmarks.md, issue #7).

Usage: python3 lj92_reference.py FRAME.u16 WIDTH HEIGHT BITS {pidng|imagecodecs} [REPEATS]

Encodes the same frame the Swift benchmark encodes (little-endian 16-bit samples, row-major) with
- pidng: the lj92 C encoder PiDNG ships (ljpegCompress.lj92_encode), called with the arguments PiDNG's
  RAW2DNG passes (two Bayer rows per JPEG row, predictor 6). PiDNG's own Python binding fails on
  Python >= 3.10 (built without PY_SSIZE_T_CLEAN), so the same C function is called through ctypes;
- imagecodecs: imagecodecs.ljpeg_encode (liblj92), the whole frame as one component.
Prints JSON: the best encode time of REPEATS (default 3) in milliseconds on this thread, the stream's size, and
whether imagecodecs decodes the stream back to the frame.
"""
import ctypes, json, sys, time
import numpy as np

path, width, height, bits, which = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
repeats = int(sys.argv[6]) if len(sys.argv) > 6 else 3
frame = np.fromfile(path, dtype='<u2').reshape(height, width)

if which == "pidng":
    import ljpegCompress
    so = ctypes.CDLL(ljpegCompress.__file__)
    so.lj92_encode.restype = ctypes.c_int
    so.lj92_encode.argtypes = [ctypes.POINTER(ctypes.c_uint16), ctypes.c_int, ctypes.c_int, ctypes.c_int,
                               ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_uint16), ctypes.c_int,
                               ctypes.POINTER(ctypes.POINTER(ctypes.c_uint8)), ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    libc = ctypes.CDLL(None)
    data = np.ascontiguousarray(frame)
    pointer = data.ctypes.data_as(ctypes.POINTER(ctypes.c_uint16))

    def encode():
        out, n = ctypes.POINTER(ctypes.c_uint8)(), ctypes.c_int(0)
        # As pidng.core.RAW2DNG calls pack16tolj: width*2, height//2, bpp, 0, 0, no table, predictor 6.
        rc = so.lj92_encode(pointer, width * 2, height // 2, bits, 0, 0, None, 0, ctypes.byref(out), ctypes.byref(n), 6)
        if rc != 0:
            raise RuntimeError("lj92_encode failed: %d" % rc)
        stream = ctypes.string_at(out, n.value)
        libc.free(out)
        return stream
elif which == "imagecodecs":
    import imagecodecs

    def encode():
        return imagecodecs.ljpeg_encode(frame, bitspersample=bits)
else:
    raise SystemExit("unknown encoder " + which)

best, stream = None, b""
for _ in range(repeats):
    start = time.perf_counter()
    stream = encode()
    elapsed = time.perf_counter() - start
    best = elapsed if best is None else min(best, elapsed)
try:
    import imagecodecs
    decoded = imagecodecs.ljpeg_decode(stream)
    exact = bool(decoded.size == frame.size and (decoded.reshape(-1) == frame.reshape(-1)).all())
except Exception:
    exact = False
print(json.dumps({"encoder": which, "milliseconds": best * 1000, "bytes": len(stream), "exact": exact}))
