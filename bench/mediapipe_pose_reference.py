#!/usr/bin/env python3
"""The attainable figure for people found by their bodies: MediaPipe's own
BlazePose solution (mediapipe==0.10.21, `mp.solutions.pose.Pose`, static
images, segmentation on, model_complexity 1: the full landmark model Veil
converts) on DAVIS-style frames, its segmentation mask thresholded at 0.5 and
scored as bench/people_score.py scores Veil's (mean J on the people frames,
the marked fraction on the frames with nobody).

usage: mediapipe_pose_reference.py DIR [OUT_DIR] [--json FILE]
  DIR/images/*.jpg and DIR/masks/*.png; OUT_DIR receives NAME.png masks (0/255)
  and is scored with people_score.py; --json FILE writes each frame's detection
  (MediaPipe's ROI from the detector and the landmarks) for comparing pipelines.
Run in the venv with mediapipe==0.10.21 (bench/.venv-mediapipe).
"""
import json
import os
import subprocess
import sys
import tempfile

import mediapipe as mp
import numpy as np
from PIL import Image


def main():
    args = sys.argv[1:]
    dump = None
    if "--json" in args:
        i = args.index("--json")
        dump = args[i + 1]
        del args[i:i + 2]
    data = args[0]
    out = args[1] if len(args) > 1 else tempfile.mkdtemp(prefix="mediapipe-pose-")
    os.makedirs(out, exist_ok=True)
    frames = {}
    with mp.solutions.pose.Pose(static_image_mode=True, enable_segmentation=True, model_complexity=1) as pose:
        for name in sorted(os.listdir(os.path.join(data, "images"))):
            rgb = np.asarray(Image.open(os.path.join(data, "images", name)).convert("RGB"))
            result = pose.process(rgb)
            h, w = rgb.shape[:2]
            mask = np.zeros((h, w), np.uint8)
            record = {"found": result.pose_landmarks is not None}
            if result.segmentation_mask is not None:
                mask = np.where(result.segmentation_mask > 0.5, 255, 0).astype(np.uint8)
            if result.pose_landmarks is not None:
                record["landmarks"] = [(p.x * w, p.y * h, p.visibility) for p in result.pose_landmarks.landmark]
            record["marked"] = float((mask > 0).mean())
            frames[os.path.splitext(name)[0]] = record
            Image.fromarray(mask).save(os.path.join(out, os.path.splitext(name)[0] + ".png"))
    if dump:
        with open(dump, "w") as f:
            json.dump(frames, f)
    print(f"MediaPipe pose (mediapipe {mp.__version__}, static images, segmentation, model_complexity 1): {len(frames)} frames, "
          f"a body on {sum(r['found'] for r in frames.values())}")
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run(["/usr/bin/python3", os.path.join(here, "people_score.py"), out, os.path.join(data, "masks")], check=True)


if __name__ == "__main__":
    main()
