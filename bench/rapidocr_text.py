#!/usr/bin/env python3
"""rapidocr 1.4.4's own pipeline (the same PP-OCRv4 models) over images, in one process.

usage: rapidocr_text.py OUT.json [--det-only] IMAGE...
Writes {"NAME": [{"corners": [[x, y] x 4], "text": "..."}]} and prints on stderr the seconds
spent in the loop (models loaded before it, one untimed warm-up call).
"""
import json, os, sys, time
from rapidocr_onnxruntime import RapidOCR

out, args = sys.argv[1], sys.argv[2:]
det_only = "--det-only" in args
images = [a for a in args if a != "--det-only"]
engine = RapidOCR()
engine(images[0], use_cls=not det_only, use_rec=not det_only)
found = {}
start = time.perf_counter()
for path in images:
    result, _ = engine(path, use_cls=not det_only, use_rec=not det_only)
    items = []
    for r in result or []:
        if det_only:
            items.append({"corners": r, "text": ""})
        else:
            items.append({"corners": r[0], "text": r[1]})
    found[os.path.basename(path)] = items
seconds = time.perf_counter() - start
json.dump(found, open(out, "w"))
print(f"seconds={seconds:.3f}", file=sys.stderr)
