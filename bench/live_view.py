#!/usr/bin/env python3
"""bench/live_view.py — `veil serve --live` watched, on a loaded machine: every frame it shows judged.

usage: live_view.py CLIP.mp4 LABELS.json [--veil BIN]... [--seconds S] [--load N] [--runs R] [--keep DIR]

For each veil binary (several: A/B in one invocation, runs alternated): ffmpeg sends CLIP looped
and paced at its rate over UDP to 127.0.0.1 (`-re -stream_loop -1 -c copy`, no encoding while
timed), `BIN serve --live clip=udp://...` covers it, and this script reads the MJPEG of
/v1/live/clip for S seconds (default 12) as a browser's <img> would. `--load N` starts N busy
processes beside it (as the other half of the test suite or other tenants would: on 2 cores,
N=24 leaves Veil about a tenth of the CPU and it drops most frames). Every JPEG received is
matched to the source frame it shows (least mean grey difference; pans make every frame differ)
and each labelled face of 10 px and more on it is judged by the shared judge (its central 60%:
covered when its detail is gone or it no longer follows the source). Printed per run: frames
shown, dropped (from /v1/live), latency p50/p99, faces judged, covered share, and frames shown
with a face left bare; `--keep DIR` saves each frame with a bare face there (BUILD-N-fFRAME-X-Y-W.jpg, BUILD
the --veil's position) and names the face on stderr. Nothing leaves 127.0.0.1.
"""
import argparse
import io
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import numpy as np
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "Tests", "Fixtures"))
from cover_judge import judge  # noqa: E402


def free_port(kind):
    s = socket.socket(socket.AF_INET, kind)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def decode_clip(path):
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                            "-of", "csv=p=0", path], check=True, capture_output=True, text=True).stdout.strip().split(",")
    w, h = int(probe[0]), int(probe[1])
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "gray", "-"], check=True,
                         capture_output=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, h, w).astype(np.int16)


def read_mjpeg(url, seconds):
    """The JPEGs of a multipart/x-mixed-replace stream for `seconds`."""
    shots, buf = [], b""
    end = time.time() + seconds
    with urllib.request.urlopen(url, timeout=30) as r:
        while time.time() < end:
            chunk = r.read1(1 << 16)
            if not chunk:
                break
            buf += chunk
            while True:
                a = buf.find(b"\xff\xd8")
                b = buf.find(b"\xff\xd9", a + 2) if a >= 0 else -1
                if a < 0 or b < 0:
                    break
                shots.append(buf[a:b + 2])
                buf = buf[b + 2:]
    return shots


def one_run(veil, clip, labels, video, seconds, scratch, keep=None, label="0"):
    udp = free_port(socket.SOCK_DGRAM)
    http = free_port(socket.SOCK_STREAM)
    sender = subprocess.Popen(["ffmpeg", "-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", clip, "-c", "copy",
                               "-f", "mpegts", f"udp://127.0.0.1:{udp}?pkt_size=1316"])
    server = subprocess.Popen([veil, "serve", "--port", str(http), "--state-dir", scratch, "--live", f"clip=udp://127.0.0.1:{udp}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{http}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/v1/live", timeout=2).read()
                break
            except OSError:
                time.sleep(0.1)
        shots = read_mjpeg(base + "/v1/live/clip", seconds)
        status = json.loads(urllib.request.urlopen(base + "/v1/live", timeout=5).read())["live"][0]
    finally:
        for p in (server, sender):
            p.send_signal(signal.SIGTERM)
        for p in (server, sender):
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
    judged = covered = bare_frames = 0
    for jpeg in shots[2:]:  # the first frames arrive before the stream settles
        shot = np.asarray(Image.open(io.BytesIO(jpeg)).convert("L"), np.int16)
        if shot.shape != video[0].shape:
            continue
        diffs = [float(np.abs(v[::4, ::4] - shot[::4, ::4]).mean()) for v in video]
        n = int(np.argmin(diffs))
        if diffs[n] > 25:
            continue
        bare = False
        for x, y, w, h in labels[n]:
            if w < 10:
                continue
            ys, xs = slice(int(y + h * 0.2), int(y + h * 0.8) + 1), slice(int(x + w * 0.2), int(x + w * 0.8) + 1)
            verdict = judge(video[n][ys, xs], shot[ys, xs])
            if verdict is None:
                continue
            judged += 1
            covered += verdict
            bare |= not verdict
            if not verdict and keep:
                os.makedirs(keep, exist_ok=True)
                name = f"{label}-{len(os.listdir(keep))}-f{n}-{int(x)}-{int(y)}-{int(w)}"
                open(os.path.join(keep, name + ".jpg"), "wb").write(jpeg)
                print(f"    bare: frame {n} face {x:.0f},{y:.0f} {w:.0f}x{h:.0f}", file=sys.stderr)
        bare_frames += bare
    return dict(shown=len(shots), dropped=status.get("dropped"), p50=status.get("p50"), p99=status.get("p99"),
                judged=judged, covered=covered, bare=bare_frames)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("clip")
    ap.add_argument("labels")
    ap.add_argument("--veil", action="append", default=[])
    ap.add_argument("--seconds", type=float, default=12)
    ap.add_argument("--load", type=int, default=0)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--keep")
    args = ap.parse_args()
    veils = args.veil or [os.path.join(here, "..", ".build", "release", "veil")]
    frames = json.load(open(args.labels))["frames"]
    labels = {f["frame"]: f["faces"] for f in frames}
    video = decode_clip(args.clip)
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model = next((l.split(":", 1)[1].strip() for l in lscpu.splitlines() if l.startswith("Model name")), "?")
    print(f"live_view: {model}, {os.cpu_count()} cores, {'AVX-512 VNNI' if 'avx512_vnni' in lscpu else 'AVX2 only'}; "
          f"load: {args.load} busy processes; {args.seconds:.0f} s a run")
    hogs = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(args.load)]
    totals = {v: [0, 0, 0, 0] for v in veils}
    try:
        with tempfile.TemporaryDirectory() as scratch:
            for run in range(args.runs):
                for veil in veils:
                    r = one_run(veil, args.clip, labels, video, args.seconds, scratch, args.keep, str(veils.index(veil)))
                    t = totals[veil]
                    t[0] += r["judged"]; t[1] += r["covered"]; t[2] += r["shown"]; t[3] += r["bare"]
                    p50 = f"{r['p50'] * 1000:.0f}" if r["p50"] is not None else "-"
                    p99 = f"{r['p99'] * 1000:.0f}" if r["p99"] is not None else "-"
                    print(f"  run {run + 1} {veil}: {r['shown']} shown, {r['dropped']} dropped, p50 {p50} ms, p99 {p99} ms; "
                          f"faces covered {r['covered']}/{r['judged']}; frames with a bare face {r['bare']}")
    finally:
        for h in hogs:
            h.kill()
    for veil, (judged, covered, shown, bare) in totals.items():
        print(f"live_view: {veil}: faces covered {covered}/{judged} = {covered / max(1, judged):.4f}, "
              f"frames with a bare face {bare} of {shown} shown")


if __name__ == "__main__":
    main()
