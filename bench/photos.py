#!/usr/bin/env python3
"""The timed and judged part of bench/photos: usage photos.py VEIL DEFACE SHARED TMP RUNS."""
import glob, os, re, shutil, statistics, subprocess, sys

veil, deface, shared, tmp, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
dev = f"{shared}/data/faces-dev"

def timed(cmd):
    """(wall seconds, peak RSS MiB) of one whole process under /usr/bin/time -v."""
    out = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"bench/photos: {' '.join(cmd[:3])}... failed: {out.stderr[-600:]}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (.*)", out.stderr)[1]
    secs = 0.0
    for part in wall.split(":"):
        secs = secs * 60 + float(part)
    return secs, int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr)[1]) / 1024

def fresh(name, photos):
    d = f"{tmp}/{name}"
    shutil.rmtree(d, ignore_errors=True); os.makedirs(d)
    copies = []
    for p in photos:
        q = f"{d}/{os.path.basename(os.path.dirname(p))}-{os.path.basename(p)}"
        shutil.copy(p, q); copies.append(q)
    return d, copies

def pair(label, photos):
    """Veil and deface alternated, `runs` each: medians, paired ratios, RSS."""
    v, d, ratios = [], [], []
    for i in range(runs):
        out = f"{tmp}/veil-out"; shutil.rmtree(out, ignore_errors=True)
        vt = timed([veil, "blur", "--out-dir", out] + photos)
        _, copies = fresh("deface-in", photos)
        dt = timed([deface, "--replacewith", "mosaic"] + copies)
        v.append(vt); d.append(dt); ratios.append(dt[0] / vt[0])
    n = len(photos)
    vm, dm = statistics.median(t for t, _ in v), statistics.median(t for t, _ in d)
    vr, dr = max(r for _, r in v), max(r for _, r in d)
    print(f"{label:<28} veil {vm:6.2f} s ({n / vm:5.2f} photos/s, {vr:5.0f} MiB)   deface {dm:6.2f} s ({n / dm:5.2f} photos/s, {dr:5.0f} MiB)"
          f"   speed ratio (paired median) {statistics.median(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}], memory deface/veil {dr / vr:.2f}x")

print()
print(f"{'set':<28} timings: {runs} alternated runs of each, whole processes")
photos = sorted(glob.glob(f"{dev}/images/*.jpg")) + sorted(glob.glob(f"{dev}/unlabeled/*.jpg"))
pair(f"{len(photos)} dev photos", photos)
big = f"{tmp}/crowd-6000.jpg"
from PIL import Image
Image.open(f"{dev}/unlabeled/17.jpg").resize((6000, 3368), Image.LANCZOS).save(big, quality=92)
pair("one 6000x3368 crowd photo", [big])
print("goals: >= 3x deface's photos/s at <= 1/2 its memory (dev photos); >= 3x at <= 1/5 (crowd photo)")

print()
print(f"{'set':<12} {'tool':<22} {'covered (>= 10 px)':<22} collateral")
for name in ["faces-small", "faces-dev"]:
    d = f"{shared}/data/{name}"
    imgs = sorted(glob.glob(f"{d}/images/*.jpg"))
    vo = f"{tmp}/cover-veil-{name}"; shutil.rmtree(vo, ignore_errors=True)
    subprocess.run([veil, "blur", "--out-dir", vo] + imgs, check=True, capture_output=True)
    do, copies = fresh(f"cover-deface-{name}", imgs)
    subprocess.run([deface, "--replacewith", "mosaic"] + copies, check=True, capture_output=True)
    # deface writes NAME_anonymized.jpg beside its copy, named dir-NAME: back to NAME for the judge.
    dj = f"{tmp}/cover-deface-{name}-judged"; shutil.rmtree(dj, ignore_errors=True); os.makedirs(dj)
    for p in imgs:
        shutil.copy(f"{do}/images-{os.path.splitext(os.path.basename(p))[0]}_anonymized.jpg", f"{dj}/{os.path.basename(p)}")
    for tool, out in [("veil blur (defaults)", vo), ("deface --replacewith mosaic", dj)]:
        line = subprocess.run([sys.executable, f"{shared}/tools/collateral.py", f"{d}/ground-truth.json", f"{d}/images", out],
                              check=True, capture_output=True, text=True).stdout.strip()
        m = re.search(r"covered=(\S+) share=(\S+) collateral=(\S+)", line)
        print(f"{name:<12} {tool:<22} {m[1] + ' (' + m[2] + ')':<22} {m[3]}")
print("goals: faces-small >= 0.99 and faces-dev 1.00 covered, collateral no more than deface's")
