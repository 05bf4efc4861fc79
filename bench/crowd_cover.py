#!/usr/bin/env python3
"""Share of labelled faces an anonymised photo set covers (for bench/crowd).

usage: crowd_cover.py GROUND_TRUTH.json IMAGES_DIR OUT_DIR SUFFIX [--min-w 10]
For each image NAME.EXT in the ground truth, the output is OUT_DIR/NAME{SUFFIX} (e.g.
"-veil.jpg" or "_anonymized.jpg"). A labelled face (not ignored, w >= --min-w) counts as
covered when shared/tools/covered.py's judge says the central half of its box is obscured
(grey levels; faces with no detail to judge are left out). Prints one JSON line: faces,
covered, share, judged, missing outputs, and the first uncovered faces."""
import json, os, sys
import numpy as np
import imageio.v2 as iio
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "tools"))
from covered import judge

gt_path, images, out_dir, suffix = sys.argv[1:5]
min_w = float(sys.argv[sys.argv.index("--min-w") + 1]) if "--min-w" in sys.argv else 10
gt = json.load(open(gt_path))["images"]
def grey(p):
    a = iio.imread(p).astype(np.float32)
    return a[..., :3].mean(axis=2) if a.ndim == 3 else a
faces = covered = unjudged = missing = 0; misses = []
for name, info in sorted(gt.items()):
    out = os.path.join(out_dir, os.path.splitext(name)[0] + suffix)
    care = [f for f in info["faces"] if not f.get("ignore") and f["w"] >= min_w]
    if not os.path.exists(out):
        missing += 1; faces += len(care); continue
    a, b = grey(os.path.join(images, name)), grey(out)
    if a.shape != b.shape:
        missing += 1; faces += len(care); continue
    for f in care:
        cx, cy = f["x"] + f["w"] / 2, f["y"] + f["h"] / 2
        x0, x1 = int(round(cx - f["w"] / 4)), int(round(cx + f["w"] / 4))
        y0, y1 = int(round(cy - f["h"] / 4)), int(round(cy + f["h"] / 4))
        x0, y0 = max(0, x0), max(0, y0)
        if x1 - x0 < 2 or y1 - y0 < 2: unjudged += 1; continue
        j = judge(a[y0:y1, x0:x1], b[y0:y1, x0:x1])
        if j is None: unjudged += 1; continue
        faces += 1; covered += j
        if not j and len(misses) < 5: misses.append([name, round(f["x"]), round(f["y"]), round(f["w"], 1)])
print(json.dumps({"faces": faces, "covered": covered, "share": round(covered / max(1, faces), 4),
                  "unjudged": unjudged, "missing_outputs": missing, "first_uncovered": misses}))
