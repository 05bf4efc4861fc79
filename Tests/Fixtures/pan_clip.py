#!/usr/bin/env python3
"""Makes the tests' panning clip from the sample photo: a camera panning over a crowd.

usage: pan_clip.py SAMPLE.png OUT.mp4

Writes OUT.mp4 (960x540, 100 frames at 25 fps, H.264, one keyframe, as the
dev set's pan-small) and beside it OUT.json, each frame's faces in the dev
set's format: {"frames": [{"frame": n, "faces": [[x, y, w, h], ...]}]}, pixels
top-left, the faces wholly inside the frame. The crowd: copies of the
sample photo (the astronaut, every other one mirrored, tinted) of 70 to 200
px in three rows, none over another, on a textured canvas of 2000x700 that a 960x540 window crosses left to
right and a little down, so faces enter and leave through the edges. The face
of each copy is the sample's face, labelled by eye (TestData.astronautFace:
180, 62, 92, 116 in the 512-px photo), scaled. Deterministic.
"""
import json
import subprocess
import sys

import numpy as np
from PIL import Image, ImageFilter

FACE = (180, 62, 92, 116)  # the astronaut's face in the 512x512 sample
W, H, FRAMES = 960, 540, 100
CANVAS = (2000, 700)


def main():
    sample, out = sys.argv[1], sys.argv[2]
    rng = np.random.default_rng(7)
    # Texture to follow: blurred noise in two scales over a gradient.
    noise = rng.integers(0, 255, (CANVAS[1] // 8, CANVAS[0] // 8), dtype=np.uint8)
    coarse = Image.fromarray(noise).resize(CANVAS, Image.BICUBIC).filter(ImageFilter.GaussianBlur(3))
    base = np.asarray(coarse, np.float32)[..., None] * np.array([0.35, 0.4, 0.45]) + np.linspace(60, 120, CANVAS[0])[None, :, None]
    canvas = Image.fromarray(np.clip(base, 0, 255).astype(np.uint8), "RGB")
    photo = Image.open(sample).convert("RGB")
    faces = []
    sizes = [200, 90, 150, 70, 120, 180, 80, 110, 160, 75, 130, 95, 140, 100]
    i = 0
    # Three rows of copies that never overlap (a face behind another copy would be labelled yet hidden).
    for row, top in enumerate([20, 250, 480]):
        x = 25 + 60 * row
        while True:
            s = sizes[i % len(sizes)]
            if x + s > CANVAS[0] - 20:
                break
            y = top + (i * 37) % (215 - s + 1)
            copy = photo.resize((s, s), Image.LANCZOS)
            mirrored = i % 2 == 1
            if mirrored:
                copy = copy.transpose(Image.FLIP_LEFT_RIGHT)
            tint = np.array([1.0, 0.9 + 0.1 * (i % 3), 0.85 + 0.05 * (i % 4)])
            copy = Image.fromarray(np.clip(np.asarray(copy, np.float32) * tint, 0, 255).astype(np.uint8))
            canvas.paste(copy, (x, y))
            k = s / 512
            fx = (512 - FACE[0] - FACE[2]) if mirrored else FACE[0]
            faces.append((x + fx * k, y + FACE[1] * k, FACE[2] * k, FACE[3] * k))
            x += s + 30 + (i * 29) % 50
            i += 1
    encoder = subprocess.Popen(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{W}x{H}", "-r", "25", "-i", "-",
                                "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-g", "1000", "-pix_fmt", "yuv420p", out], stdin=subprocess.PIPE)
    frames = []
    for n in range(FRAMES):
        left, top = n * (CANVAS[0] - W) / (FRAMES - 1), n * (CANVAS[1] - H - 20) / (FRAMES - 1)
        ox, oy = int(round(left)), int(round(top))
        encoder.stdin.write(canvas.crop((ox, oy, ox + W, oy + H)).tobytes())
        inside = [[round(fx - ox, 1), round(fy - oy, 1), round(fw, 1), round(fh, 1)] for fx, fy, fw, fh in faces
                  if fx - ox >= 0 and fy - oy >= 0 and fx - ox + fw <= W and fy - oy + fh <= H]
        frames.append({"frame": n, "faces": inside})
    encoder.stdin.close()
    if encoder.wait() != 0:
        raise SystemExit("pan_clip.py: ffmpeg failed")
    with open(out.rsplit(".", 1)[0] + ".json", "w") as f:
        json.dump({"source": "Tests/Fixtures/pan_clip.py from the sample photo", "format": "per frame: labelled faces fully inside the frame, [x,y,w,h] pixels top-left",
                   "frames": frames}, f)


if __name__ == "__main__":
    main()
