#!/usr/bin/env python3
"""Mean Jaccard (IoU of alpha > 0.5 against the 0/255 ground truth) over a folder.

usage: score_masks.py PRED_DIR GT_DIR
PRED_DIR holds NAME.png per ground-truth NAME.png: a greyscale mask, or an
RGBA cut-out whose alpha is the mask. A missing prediction scores 0.
Prints the mean J, then (with -v) one line per image.
"""
import os
import sys

import numpy as np
from PIL import Image


def mask_of(path):
    im = Image.open(path)
    if im.mode in ("RGBA", "LA"):
        a = np.asarray(im.getchannel("A"))
    else:
        a = np.asarray(im.convert("L"))
    return a > 127


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    verbose = "-v" in sys.argv
    pred_dir, gt_dir = args
    scores = []
    for name in sorted(os.listdir(gt_dir)):
        if not name.endswith(".png"):
            continue
        gt = np.asarray(Image.open(os.path.join(gt_dir, name)).convert("L")) > 127
        p = os.path.join(pred_dir, name)
        if not os.path.exists(p):
            j = 0.0
        else:
            pred = mask_of(p)
            if pred.shape != gt.shape:
                raise SystemExit(f"{name}: prediction {pred.shape} vs ground truth {gt.shape}")
            union = np.logical_or(pred, gt).sum()
            j = 1.0 if union == 0 else np.logical_and(pred, gt).sum() / union
        scores.append(j)
        if verbose:
            print(f"{name} {j:.4f}")
    print(f"{np.mean(scores):.4f}")


if __name__ == "__main__":
    main()
