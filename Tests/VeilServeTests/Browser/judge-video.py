#!/usr/bin/env python3
"""Judges the Video tab's rendered download with Tests/Fixtures/cover_judge.py.

usage: judge-video.py SOURCE_VIDEO LABELS_JSON CHECK_JSON FIXTURES_DIR

CHECK_JSON (written by video-browser-test.py) names the covered video, its
state, a frame, the box of the track uncovered there, the box added there
(normalized) and a pen stroke from that frame on. On that frame: the uncovered
track's pixels follow the source (not covered), the added box is covered, the
stroke's pixels are changed (and not on the frame after its last), and every labelled face of 10 px
and more away from the uncovered track (LABELS_JSON, Tests/Fixtures/pan_clip.py's) is
covered, as cover_judge.py judges them. Exit 0 with a summary line, 1 otherwise.
"""
import json
import subprocess
import sys

import numpy as np

source, labels, check_path, tools = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
sys.path.insert(0, tools)
from cover_judge import judge  # noqa: E402

check = json.load(open(check_path))
state = json.load(open(check["state"]))
W, H, n = state["source"]["width"], state["source"]["height"], check["frame"]


def frame(path, n=n):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-vf", f"select=eq(n\\,{n})", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"],
                         check=True, capture_output=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(H, W)


a, b = frame(source), frame(check["video"])


def patch(img, box, inner=0.6):
    x, y, w, h = box[0] * W, box[1] * H, box[2] * W, box[3] * H
    m = (1 - inner) / 2
    return img[int(y + h * m):int(y + h * (1 - m)) + 1, int(x + w * m):int(x + w * (1 - m)) + 1]


failures = []
if judge(patch(a, check["dropped"]), patch(b, check["dropped"])) is not False:
    failures.append("the uncovered track is still covered")
# The added box is on no face, wherever the page found room: across a strong edge (a photo
# beside the canvas's grey) pixelation keeps the edge's coarse shape and covered.py's r stays
# near 0.85, so a box painted over is also known by how much it changed.
pa, pb = patch(a, check["added"]), patch(b, check["added"])
if judge(pa, pb) is not True and np.abs(pa.astype(np.float32) - pb.astype(np.float32)).mean() < 12:
    failures.append("the added box is not covered")
# The pen stroke: its points' pixels changed on its frames, not on the frame after its last.
pen = check["stroke"]
def along(img):
    return np.array([float(img[min(H - 1, int(y * H)), min(W - 1, int(x * W))]) for x, y in pen["stroke"]["points"]])
changed = np.abs(along(a) - along(b)).max()
after = pen["last"] + 1
moved = np.abs(along(frame(source, after)) - along(frame(check["video"], after))).mean() if after < state["source"]["frames"] else 0
if changed < 10:
    failures.append(f"the pen stroke did not change the picture on frame {n} (at most {changed:.0f} grey levels)")
if moved > 8:
    failures.append(f"the pen stroke is still painted on frame {after}, after its last ({moved:.0f} grey levels)")
# Every labelled face of the frame (LABELS: per frame, [x,y,w,h] pixels) away
# from the uncovered track stays covered.
faces = next(f["faces"] for f in json.load(open(labels))["frames"] if f["frame"] == n)
dx, dy, dw, dh = check["dropped"][0] * W, check["dropped"][1] * H, check["dropped"][2] * W, check["dropped"][3] * H
judged = covered = 0
for x, y, w, h in faces:
    near = x < dx + dw * 1.3 and dx - dw * 0.3 < x + w and y < dy + dh * 1.3 and dy - dh * 0.3 < y + h
    if w < 10 or near:
        continue
    verdict = judge(patch(a, [x / W, y / H, w / W, h / H]), patch(b, [x / W, y / H, w / W, h / H]))
    if verdict is None:
        continue
    judged += 1
    covered += verdict
if judged == 0 or covered < judged:
    failures.append(f"{judged - covered} of {judged} labelled faces are visible")
print(("judge: " + "; ".join(failures)) if failures else f"judge: ok (uncovered track follows the source, added box covered, pen stroke painted (up to {changed:.0f} grey levels) and gone on frame {after} ({moved:.1f}), {covered}/{judged} other labelled faces covered on frame {n})")
sys.exit(1 if failures else 0)
