#!/usr/bin/env python3
"""How much of each labelled person `veil blur --cover people` covers, and how
much of a frame with nobody it touches: read from the editing states' spans
(the exact pixels the cover is drawn through), not from changed pixels (a
mosaic over a flat shirt changes little).

usage: people_cover.py OUT_DIR GT_DIR
OUT_DIR holds NAME.jpg.veil.json (or NAME.png.veil.json) per GT_DIR/NAME.png.
Prints per sequence the mean covered fraction of the labelled person and the
covered fraction of the frame; the people sequences' figure is the one
`--cover people` promises (at least 0.95); on DAVIS the crowd round a
labelled person is unlabelled, so the frame fraction there is not collateral.
"""
import glob
import json
import os
import sys

import numpy as np
from PIL import Image


def covered(state):
    h, w = state["source"]["height"], state["source"]["width"]
    mask = np.zeros((h, w), bool)
    for person in (state.get("people") or {}).get("items", []):
        if not person["covered"]:
            continue
        gw, gh = person["grid"]
        for span in filter(None, person["spans"].split(";")):
            y, sh, x, sw = map(int, span.split())
            mask[int(y * h / gh):int(np.ceil((y + sh) * h / gh)), int(x * w / gw):int(np.ceil((x + sw) * w / gw))] = True
    return mask


def main():
    out, gt = sys.argv[1:3]
    rows = {}
    for path in sorted(glob.glob(os.path.join(out, "*.veil.json"))):
        name = os.path.basename(path).split(".")[0]
        truth = np.asarray(Image.open(os.path.join(gt, name + ".png")).convert("L")) > 127
        mask = covered(json.load(open(path)))
        rows.setdefault(name.rsplit("-", 1)[0], []).append(((mask & truth).sum() / max(truth.sum(), 1), mask.mean()))
    for seq, v in rows.items():
        v = np.array(v)
        print(f"  {seq:15s} labelled person covered {v[:, 0].mean():.3f} (min {v[:, 0].min():.3f})  frame covered {v[:, 1].mean():.3f}")


if __name__ == "__main__":
    main()
