#!/usr/bin/env python3
"""Judges frames the Live tab showed against pan-small's labels.

usage: judge-live.py SOURCE_VIDEO LABELS_JSON ARTIFACTS_DIR TOOLS_DIR

Each ARTIFACTS_DIR/live-N.png is matched to the source frame it shows (the
least mean difference over the whole frame: the camera pans, so every frame
differs), then each labelled face of 10 px and more on that frame is judged
by Tests/Fixtures/cover_judge.py. live-solid.png
must be magenta inside most faces. Exit 0 with a summary line, 1 otherwise.
"""
import glob
import json
import os
import subprocess
import sys

import numpy as np

source, labels, artifacts, tools = sys.argv[1:5]
sys.path.insert(0, tools)
from cover_judge import judge  # noqa: E402

frames = json.load(open(labels))["frames"]
probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", source],
                       check=True, capture_output=True, text=True).stdout.strip().split(",")
W, H = int(probe[0]), int(probe[1])


def decode(path, fmt, bands):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", fmt, "-"], check=True, capture_output=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, H, W, bands) if bands > 1 else np.frombuffer(raw, np.uint8).reshape(-1, H, W)


video = decode(source, "gray", 1).astype(np.int16)


def matched(shot):
    diffs = [float(np.abs(video[i][::4, ::4] - shot[::4, ::4]).mean()) for i in range(len(video))]
    return int(np.argmin(diffs)), min(diffs)


def patch(img, x, y, w, h):
    return img[int(y + h * 0.2):int(y + h * 0.8) + 1, int(x + w * 0.2):int(x + w * 0.8) + 1]


failures, judged, covered, seen = [], 0, 0, []
for path in sorted(glob.glob(os.path.join(artifacts, "live-[0-9].png"))):
    shot = decode(path, "gray", 1)[0].astype(np.int16)
    n, diff = matched(shot)
    seen.append(n)
    if diff > 25:
        failures.append(f"{os.path.basename(path)} matches no frame of the source (mean difference {diff:.1f})")
        continue
    for x, y, w, h in next(f["faces"] for f in frames if f["frame"] == n):
        if w < 10:
            continue
        verdict = judge(patch(video[n], x, y, w, h), patch(shot, x, y, w, h))
        if verdict is not None:
            judged += 1
            covered += verdict
share = covered / judged if judged else 0
if judged == 0 or share < 0.95:
    failures.append(f"only {covered} of {judged} labelled faces covered in the frames shown (frames {seen})")

solid = decode(os.path.join(artifacts, "live-solid.png"), "rgb24", 3)[0].astype(np.int16)
n, _ = matched(solid.mean(axis=2))
big = [f for f in next(f["faces"] for f in frames if f["frame"] == n) if f[2] >= 16]
magenta = 0
for x, y, w, h in big:
    c = patch(solid, x, y, w, h).reshape(-1, 3).mean(axis=0)
    magenta += c[0] > 180 and c[2] > 180 and c[1] < 90
if not big or magenta < 0.8 * len(big):
    failures.append(f"the solid style shows magenta on {magenta} of {len(big)} faces")
print(("judge: " + "; ".join(failures)) if failures else
      f"judge: ok ({covered}/{judged} labelled faces covered on source frames {seen}; solid magenta on {magenta}/{len(big)} faces)")
sys.exit(1 if failures else 0)
