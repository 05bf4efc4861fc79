#!/usr/bin/env python3
"""Scores person masks on DAVIS-style frames: the people sequences' labelled
person and the frames with no person at all.

usage: people_score.py PRED_DIR GT_DIR [--people a,b] [--none c,d]
PRED_DIR holds NAME.png (grey mask or RGBA cut-out) per GT_DIR/NAME.png.
Prints, per sequence: mean J (alpha > 0.5 against the label), the recall of
the labelled pixels (what covering people needs), the marked fraction of the
frame; then the people frames' mean J and recall and the no-person frames'
mean and largest marked fraction (the target: at most 0.02).
DAVIS labels one person a sequence: on breakdance the crowd round the dancer
is unlabelled, so a person mask that marks it scores low J there by design;
recall is the fair figure for those frames.
"""
import os
import sys

import numpy as np
from PIL import Image

PEOPLE = "breakdance,bmx-trees,kite-surf"
NONE = "blackswan,dog,car-roundabout"


def mask_of(path, shape):
    if not os.path.exists(path):
        return np.zeros(shape, bool)
    im = Image.open(path)
    a = np.asarray(im.getchannel("A")) if im.mode in ("RGBA", "LA") else np.asarray(im.convert("L"))
    return a > 127


def main():
    args = sys.argv[1:]
    opts = {"--people": PEOPLE, "--none": NONE}
    for key in list(opts):
        if key in args:
            i = args.index(key)
            opts[key] = args[i + 1]
            del args[i:i + 2]
    pred, gt = args
    people, none = opts["--people"].split(","), opts["--none"].split(",")
    rows = {}
    for name in sorted(os.listdir(gt)):
        seq = name.rsplit("-", 1)[0]
        if seq not in people and seq not in none:
            continue
        truth = np.asarray(Image.open(os.path.join(gt, name)).convert("L")) > 127
        p = mask_of(os.path.join(pred, name), truth.shape)
        j = (p & truth).sum() / max((p | truth).sum(), 1)
        recall = (p & truth).sum() / max(truth.sum(), 1)
        rows.setdefault(seq, []).append((j, recall, p.mean()))
    for seq, v in rows.items():
        v = np.array(v)
        print(f"  {seq:15s} J {v[:, 0].mean():.3f}  recall {v[:, 1].mean():.3f}  marked {v[:, 2].mean():.3f}")
    pv = np.array([r for s in people if s in rows for r in rows[s]])
    nv = np.array([r for s in none if s in rows for r in rows[s]])
    if len(pv):
        print(f"  people frames ({len(pv)}): mean J {pv[:, 0].mean():.3f}, recall {pv[:, 1].mean():.3f}")
    if len(nv):
        print(f"  no-person frames ({len(nv)}): marked mean {nv[:, 2].mean():.4f}, max {nv[:, 2].max():.4f}")


if __name__ == "__main__":
    main()
