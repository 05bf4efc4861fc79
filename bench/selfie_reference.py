#!/usr/bin/env python3
"""Writes the reference outputs the converted person model is tested against
(Tests/Fixtures/selfie-reference-*.png): MediaPipe's own runtime (the
mediapipe==0.10.21 wheel's SelfieSegmentation, model_selection=0, the TFLite
file Veil converts) on 256x256 crops of the sample photos, so its input is
the model's size and no resampling differs. 8-bit grey, mask * 255 rounded.

usage: python selfie_reference.py VEIL_HOME OUT_DIR     (in a venv with mediapipe==0.10.21)
"""
import sys

import mediapipe as mp
import numpy as np
from PIL import Image

# name: (sample file, crop x, y) — each crop 256x256.
CROPS = {"astronaut": ("astronaut.png", 128, 0), "cameraman": ("camera.png", 96, 64)}


def main():
    home, out = sys.argv[1:3]
    for name, (file, x, y) in CROPS.items():
        rgb = np.asarray(Image.open(f"{home}/{file}").convert("RGB"))[y:y + 256, x:x + 256]
        with mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=0) as model:
            mask = model.process(np.ascontiguousarray(rgb)).segmentation_mask
        Image.fromarray(np.clip(np.rint(mask * 255), 0, 255).astype(np.uint8)).save(f"{out}/selfie-reference-{name}.png")
        print(name, f"person fraction {(mask > 0.5).mean():.3f}")


if __name__ == "__main__":
    main()
