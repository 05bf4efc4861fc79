#!/usr/bin/env python3
"""deface's detections on a video, and how many of them Veil's masks cover (for bench/video).

Subcommands (run them with the python of bench/.venv-deface):

  probe VIDEO
      one JSON line: frames (decoded and counted), fps, width, height, seconds, sha256.

  detect VIDEO OUT.json [--threshold 0.2] [--cache-dir DIR]
      deface 1.5.0's CenterFace on every frame, read the way deface's CLI reads a video
      (imageio.get_reader(VIDEO).iter_data(), RGB frames), at native resolution
      (in_shape=None, rounded up to a multiple of 32 inside CenterFace), backend 'auto'
      (onnxruntime), threshold 0.2 as the CLI's default. Writes
      {"frames": [{"frame": i, "detections": [[x1, y1, x2, y2, score], ...]}, ...], ...}
      to OUT.json. With --cache-dir, the result is kept there keyed by the video's sha256,
      deface and onnxruntime versions and threshold, and reused when they all match.
      Prints one JSON line: frames, detections, seconds (null when cached), cached, cache path.

  cover DETECTIONS.json VEIL_FRAMES.json [--min-score 0.5] [--show 10]
      the share of deface's detections (score >= --min-score) that fall inside Veil's masks
      in the same frame (matched by frame index). Veil's mask for a box (x, y, w, h, pixels,
      top-left origin) is, by default, a disc centred on the box centre with r = min(w, h) / 1.5
      (times the mask scale): value 1 at d <= 0.8 r, (1.1 r - d) / (0.3 r) up to 1.1 r, 0
      beyond; several boxes: the maximum. Shape, scale and profile are read from the "mask"
      header of veil's --json when present.
      A detection is covered when at least 80% of a 5x5 grid of points spread evenly over
      the central 60% of its box get a mask value >= 0.5.
      Prints one JSON line: detections, covered, coverage, frame counts and the first
      --show uncovered detections.
"""
import argparse
import contextlib
import hashlib
import json
import math
import os
import sys
import time

GRID = 5                  # 5x5 points per detection
CENTRAL = 0.6             # ... spread over the central 60% of its box
POINT_VALUE = 0.5         # a point is inside when Veil's mask there is >= 0.5
POINTS_NEEDED = 0.8       # a detection is covered when >= 80% of its points are inside


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def probe(args):
    import imageio
    import imageio_ffmpeg

    reader = imageio.get_reader(args.video)
    meta = reader.get_meta_data()
    reader.close()
    frames, seconds = imageio_ffmpeg.count_frames_and_secs(args.video)
    width, height = meta["size"]
    print(json.dumps({"frames": frames, "fps": meta["fps"], "width": width, "height": height,
                      "seconds": seconds, "sha256": sha256(args.video)}))
    return 0


def versions():
    import importlib.metadata as m
    return {p: m.version(p) for p in ("deface", "onnxruntime")}


def detect(args):
    video_sha = sha256(args.video)
    key = {"video_sha256": video_sha, "threshold": args.threshold, **versions()}
    cache = None
    if args.cache_dir:
        cache = os.path.join(args.cache_dir, f"video-deface-{video_sha[:16]}-t{args.threshold}.json")
        try:
            with open(cache) as f:
                cached = json.load(f)
            if all(cached.get(k) == v for k, v in key.items()):
                with open(args.out, "w") as f:
                    json.dump(cached, f)
                n = sum(len(fr["detections"]) for fr in cached["frames"])
                print(json.dumps({"frames": len(cached["frames"]), "detections": n, "seconds": None,
                                  "cached": True, "cache": cache, "provider": cached.get("provider")}))
                return 0
        except (OSError, ValueError):
            pass

    import imageio
    from deface.centerface import CenterFace

    start = time.perf_counter()
    # CenterFace prints "Running on <provider>." to stdout; keep stdout for the JSON.
    with contextlib.redirect_stdout(sys.stderr):
        centerface = CenterFace(in_shape=None, backend="auto")
    if centerface.backend != "onnxrt":
        print(f"video_coverage: CenterFace fell back to backend {centerface.backend!r}; "
              "install onnx and onnxruntime", file=sys.stderr)
        return 1
    provider = "+".join(centerface.sess.get_providers())

    reader = imageio.get_reader(args.video)
    frames = []
    for i, frame in enumerate(reader.iter_data()):
        dets, _ = centerface(frame, threshold=args.threshold)
        frames.append({"frame": i, "detections": [[round(float(v), 2) for v in d[:4]] + [round(float(d[4]), 4)]
                                                  for d in dets]})
    reader.close()
    seconds = time.perf_counter() - start

    result = {**key, "video": os.path.abspath(args.video), "provider": provider,
              "seconds": round(seconds, 2), "frames": frames}
    with open(args.out, "w") as f:
        json.dump(result, f)
    if cache:
        os.makedirs(args.cache_dir, exist_ok=True)
        with open(cache + ".part", "w") as f:
            json.dump(result, f)
        os.replace(cache + ".part", cache)
    n = sum(len(fr["detections"]) for fr in frames)
    print(json.dumps({"frames": len(frames), "detections": n, "seconds": round(seconds, 2),
                      "cached": False, "cache": cache, "provider": provider}))
    return 0


def mask_value(px, py, boxes, mask=None):
    """Veil's mask at (px, py): the maximum over its regions. `mask` is the
    header of veil's --json ({"shape", "scale", "inner", "outer"}); without
    it, veil's defaults (disc, scale 1, 0.8 / 1.1)."""
    mask = mask or {}
    shape, scale = mask.get("shape", "disc"), mask.get("scale", 1.0)
    inner, outer = mask.get("inner", 0.8), mask.get("outer", 1.1)
    best = 0.0
    for (x, y, w, h) in boxes:
        if shape == "disc":
            rx = ry = min(w, h) / 1.5 * scale
        else:
            rx, ry = w / 1.5 * scale, h / 1.5 * scale
        if rx <= 0 or ry <= 0:
            continue
        dx, dy = (px - (x + w / 2)) / rx, (py - (y + h / 2)) / ry
        d = max(abs(dx), abs(dy)) if shape == "box" else math.hypot(dx, dy)
        if d <= inner:
            return 1.0
        if d < outer:
            best = max(best, (outer - d) / (outer - inner))
    return best


def points_inside(det, boxes, mask=None):
    x1, y1, x2, y2 = det[:4]
    w, h = x2 - x1, y2 - y1
    margin = (1 - CENTRAL) / 2
    inside = 0
    for j in range(GRID):
        py = y1 + h * (margin + CENTRAL * j / (GRID - 1))
        for i in range(GRID):
            px = x1 + w * (margin + CENTRAL * i / (GRID - 1))
            inside += mask_value(px, py, boxes, mask) >= POINT_VALUE
    return inside


def cover(args):
    with open(args.detections) as f:
        deface_frames = {fr["frame"]: fr["detections"] for fr in json.load(f)["frames"]}
    with open(args.veil_frames) as f:
        # `veil video --json` writes JSON Lines: a {"mask": ...} line, then one line per frame.
        lines = [json.loads(line) for line in f if line.strip()]
        veil = {"frames": [line for line in lines if "frame" in line]}
    # The masks' shape and scale from that first line (read from the wrong dict before
    # 2026-11-30, which judged video masks at scale 1 instead of their 1.2).
    mask = next((line["mask"] for line in lines if "mask" in line), None)
    veil_frames = {fr["frame"]: [(b["x"], b["y"], b["width"], b["height"]) for b in fr["faces"]]
                   for fr in veil["frames"]}

    needed = math.ceil(POINTS_NEEDED * GRID * GRID)
    total = covered = 0
    uncovered = []
    for index in sorted(deface_frames):
        boxes = veil_frames.get(index, [])
        for det in deface_frames[index]:
            if det[4] < args.min_score:
                continue
            total += 1
            inside = points_inside(det, boxes, mask)
            if inside >= needed:
                covered += 1
            else:
                x1, y1, x2, y2, score = det
                cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
                near = min(boxes, key=lambda b: math.hypot(b[0] + b[2] / 2 - cx, b[1] + b[3] / 2 - cy), default=None)
                uncovered.append({"frame": index, "x": round(x1), "y": round(y1), "width": round(x2 - x1),
                                  "height": round(y2 - y1), "score": round(score, 3),
                                  "points": inside, "veil_boxes": len(boxes),
                                  "nearest": [round(v) for v in near] if near else None})
    print(json.dumps({
        "detections": total, "covered": covered,
        "coverage": covered / total if total else None,
        "min_score": args.min_score, "points_needed": needed, "grid": GRID * GRID,
        "deface_frames": len(deface_frames), "veil_frames": len(veil_frames),
        "frames_without_veil": sorted(set(deface_frames) - set(veil_frames))[:10],
        "uncovered_total": len(uncovered), "uncovered": uncovered[:args.show],
    }))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("probe")
    p.add_argument("video")
    p.set_defaults(run=probe)
    p = sub.add_parser("detect")
    p.add_argument("video")
    p.add_argument("out")
    p.add_argument("--threshold", type=float, default=0.2, help="deface's CLI default: 0.2")
    p.add_argument("--cache-dir")
    p.set_defaults(run=detect)
    p = sub.add_parser("cover")
    p.add_argument("detections")
    p.add_argument("veil_frames")
    p.add_argument("--min-score", type=float, default=0.5)
    p.add_argument("--show", type=int, default=10)
    p.set_defaults(run=cover)
    args = parser.parse_args()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
