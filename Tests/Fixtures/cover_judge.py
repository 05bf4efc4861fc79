#!/usr/bin/env python3
"""Whether a face is covered in an output, and how many of a clip's labelled faces are.

As a module: judge(patch_in, patch_out) -> True (covered), False (shown), None
(the input patch has too little detail to tell). As a command:

usage: cover_judge.py LABELS.json INPUT.mp4 OUTPUT.mp4 [--min-w 12]

prints `frames=N/M faces>=12px covered=C/T frames_with_uncovered_face=U` and
`share=S`, judging the central half of each labelled face of LABELS.json
(Tests/Fixtures/pan_clip.py's format) frame by frame, in grey.

The rule (the one the dev set's judges use, so figures agree): an output patch
is covered when it has lost most of the input's detail (its standard deviation
under half the input's) or no longer follows the input (Pearson r < 0.8);
re-encoding noise leaves r near 1, a pixelation or blur drops it.
"""
import json
import subprocess
import sys

import numpy as np


def judge(patch_in, patch_out):
    a = np.asarray(patch_in, np.float32).ravel()
    b = np.asarray(patch_out, np.float32).ravel()
    if a.std() < 2:
        return None
    if b.std() < 0.5 * a.std():
        return True
    return float(np.corrcoef(a, b)[0, 1]) < 0.8


def _frames(path, w, h):
    reader = subprocess.Popen(["ffmpeg", "-v", "error", "-i", path, "-vf", f"scale={w}:{h}", "-f", "rawvideo", "-pix_fmt", "gray", "-"],
                              stdout=subprocess.PIPE)
    while True:
        data = reader.stdout.read(w * h)
        if len(data) < w * h:
            break
        yield np.frombuffer(data, np.uint8).reshape(h, w)
    reader.wait()


def _size(path):
    out = subprocess.check_output(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                   "-of", "csv=p=0", path]).decode().strip().split(",")
    return int(out[0]), int(out[1])


def main():
    labels, source, output = sys.argv[1], sys.argv[2], sys.argv[3]
    min_w = float(sys.argv[sys.argv.index("--min-w") + 1]) if "--min-w" in sys.argv else 12
    frames = json.load(open(labels))["frames"]
    w, h = _size(source)
    covered = total = uncovered_frames = n = 0
    for faces, a, b in zip(frames, _frames(source, w, h), _frames(output, w, h)):
        n += 1
        missed = False
        for x, y, fw, fh in faces["faces"]:
            if fw < min_w:
                continue
            x0, y0 = int(x + fw / 4), int(y + fh / 4)
            x1, y1 = max(x0 + 1, int(x + 3 * fw / 4)), max(y0 + 1, int(y + 3 * fh / 4))
            verdict = judge(a[y0:y1, x0:x1], b[y0:y1, x0:x1])
            if verdict is None:
                continue
            total += 1
            covered += verdict
            missed |= not verdict
        uncovered_frames += missed
    print(f"frames={n}/{len(frames)} faces>={min_w:g}px covered={covered}/{total} frames_with_uncovered_face={uncovered_frames}")
    print(f"share={covered / max(total, 1):.4f}")


if __name__ == "__main__":
    main()
