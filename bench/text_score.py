#!/usr/bin/env python3
"""Scores text found against bench/text_devset.py's labels.

usage: text_score.py GT.json FOUND.json LABEL

FOUND.json: {"NAME": [{"corners": [[x, y] x 4], "text": "..."}]} (pixels, origin top-left).
found:  a labelled text counts as found when at least 90% of the pixels of its central half
        (its turned rectangle, "quad", shrunk by half about its centre; without one, the box's
        middle w/2 x h/2) lie inside the union of the found quadrilaterals.
CER:    per labelled text, the readings whose quadrilateral's centre lies in the label's box
        (grown by a quarter of its height), left to right, joined; edit distance to the label
        with spaces removed, summed over all labels and divided by their characters.
Prints one line: LABEL found=F/T recall=R cer=C lines=L
"""
import json, sys
import numpy as np
from PIL import Image, ImageDraw


def edit(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


gt = json.load(open(sys.argv[1]))["images"]
found = json.load(open(sys.argv[2]))
hit = total = errors = chars = lines = 0
for name, g in gt.items():
    quads = found.get(name, [])
    lines += len(quads)
    W = max([int(t["box"][0] + t["box"][2]) + 2 for t in g["texts"]] + [int(max(p[0] for p in q["corners"])) + 2 for q in quads] + [1])
    H = max([int(t["box"][1] + t["box"][3]) + 2 for t in g["texts"]] + [int(max(p[1] for p in q["corners"])) + 2 for q in quads] + [1])
    mask = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(mask)
    for q in quads:
        d.polygon([tuple(p) for p in q["corners"]], fill=255)
    m = np.asarray(mask) > 0
    for t in g["texts"]:
        x, y, w, h = t["box"]
        total += 1
        if "quad" in t:  # the central half of the turned text: its rectangle shrunk by half about its centre
            q = np.array(t["quad"]); c = q.mean(axis=0)
            half = Image.new("L", (W, H), 0)
            ImageDraw.Draw(half).polygon([tuple(p) for p in (c + (q - c) / 2)], fill=255)
            core = m[np.asarray(half) > 0]
        else:
            core = m[int(y + h / 4):int(y + 3 * h / 4) + 1, int(x + w / 4):int(x + 3 * w / 4) + 1]
        hit += core.size > 0 and core.mean() >= 0.9
        grow = h / 4
        inside = []
        for q in quads:
            cx = sum(p[0] for p in q["corners"]) / 4; cy = sum(p[1] for p in q["corners"]) / 4
            if x - grow <= cx <= x + w + grow and y - grow <= cy <= y + h + grow:
                inside.append((cx, q.get("text", "")))
        read = "".join(s for _, s in sorted(inside)).replace(" ", "")
        label = t["text"].replace(" ", "")
        errors += edit(read, label); chars += len(label)
print(f"{sys.argv[3]} found={hit}/{total} recall={hit / max(1, total):.4f} cer={errors / max(1, chars):.4f} lines={lines}")
