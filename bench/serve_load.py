"""The load client of bench/serve: requests/s and p50/p99 latency per route
and client concurrency, Veil's routes beside rembg's /api/remove.

usage: serve_load.py IMAGES_DIR ROUNDS VEIL_PORT REMBG_PORT VEIL_PID REMBG_PID REMBG_VERSION
Standard library only; every request is its own connection (as a browser's
uploads mostly are), bodies sent as multipart/form-data.
"""
import http.client
import os
import sys
import threading
import time
import uuid

images_dir, rounds, veil_port, rembg_port, veil_pid, rembg_pid, rembg_version = sys.argv[1:8]
rounds = int(rounds)
names = sorted(n for n in os.listdir(images_dir) if n.lower().endswith((".jpg", ".jpeg", ".png")))
images = [(n, open(os.path.join(images_dir, n), "rb").read()) for n in names]


def form(name, data, field, extra):
    boundary = uuid.uuid4().hex
    parts = []
    for key, value in extra.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode())
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{name}"\r\n'
                 f'Content-Type: application/octet-stream\r\n\r\n'.encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def post(port, path, name, data, field="image", extra=None):
    body, ctype = form(name, data, field, extra or {})
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    start = time.perf_counter()
    conn.request("POST", path, body=body, headers={"Content-Type": ctype})
    response = conn.getresponse()
    response.read()
    elapsed = time.perf_counter() - start
    conn.close()
    return response.status, elapsed


def run(target, concurrency):
    port, path, field, extra = target
    for name, data in images:  # warm-up, untimed
        post(port, path, name, data, field, extra)
    work = [images[i % len(images)] for i in range(len(images) * rounds)]
    lock = threading.Lock()
    latencies, failures = [], []

    def client():
        while True:
            with lock:
                if not work:
                    return
                name, data = work.pop()
            status, elapsed = post(port, path, name, data, field, extra)
            with lock:
                (latencies if status == 200 else failures).append(elapsed if status == 200 else status)

    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else float("nan")
    return len(latencies) / wall, pick(0.50), pick(0.99), failures


def rss(pid):
    fields = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmHWM"].split()[0]) / 1024


veil_port, rembg_port = int(veil_port), int(rembg_port)
targets = [
    ("veil  POST /v1/faces", (veil_port, "/v1/faces", "image", {})),
    ("veil  POST /v1/blur", (veil_port, "/v1/blur", "image", {})),
    ("veil  POST /v1/lift", (veil_port, "/v1/lift", "image", {})),
    ("veil  POST /api/remove u2netp", (veil_port, "/api/remove", "file", {"model": "u2netp"})),
    ("rembg POST /api/remove u2netp", (rembg_port, "/api/remove", "file", {"model": "u2netp"})),
]
rows = []
for label, target in targets:
    for concurrency in (1, 2, 4, 8):
        rps, p50, p99, failures = run(target, concurrency)
        rows.append((label, concurrency, rps, p50, p99, failures))
        print(f"  {label:<32} c={concurrency}: {rps:6.2f} req/s", file=sys.stderr)

print(f"\n`veil serve` and `rembg s` ({rembg_version}) on {len(images)} images from {images_dir},")
print(f"{rounds} passes per cell after a warm-up pass; {os.cpu_count()} cores.\n")
print(f"{'route':<32} {'conc':>4} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8}  errors")
for label, concurrency, rps, p50, p99, failures in rows:
    errors = ",".join(str(s) for s in sorted(set(failures))) + f" x{len(failures)}" if failures else "-"
    print(f"{label:<32} {concurrency:>4} {rps:>7.2f} {p50:>8.1f} {p99:>8.1f}  {errors}")
lift = {c: r for l, c, r, *_ in rows if "lift" in l}
remove = {c: r for l, c, r, *_ in rows if "remove" in l and l.startswith("rembg")}
compat = {c: r for l, c, r, *_ in rows if "remove" in l and l.startswith("veil")}
print("\nlift route, veil req/s ÷ rembg req/s: " + "  ".join(f"c={c}: {lift[c] / remove[c]:.2f}x" for c in (1, 2, 4, 8) if remove.get(c)))
print("rembg's own API, veil /api/remove req/s ÷ rembg req/s: " + "  ".join(f"c={c}: {compat[c] / remove[c]:.2f}x" for c in (1, 2, 4, 8) if remove.get(c)))

# The table's cells run one after another, minutes apart: on a machine shared
# with other work, veil's and rembg's cells may not see the same load. So
# /api/remove is also measured in pairs, veil's cell and rembg's back to back
# (which goes first alternates), and the ratio taken pair by pair.
pairs = int(os.environ.get("PAIRS", "3"))
veil_remove, rembg_remove = targets[3][1], targets[4][1]
print(f"\n/api/remove in {pairs} alternated pairs per concurrency (veil ÷ rembg, pair by pair):")
print(f"{'conc':>4} {'veil req/s':>11} {'rembg req/s':>12} {'ratio':>7}  ratios")
for concurrency in (1, 2, 4, 8):
    mine, theirs, ratios = [], [], []
    for p in range(pairs):
        order = (veil_remove, rembg_remove) if p % 2 == 0 else (rembg_remove, veil_remove)
        got = {id(t): run(t, concurrency)[0] for t in order}
        mine.append(got[id(veil_remove)])
        theirs.append(got[id(rembg_remove)])
        ratios.append(mine[-1] / theirs[-1])
        print(f"  pair {p + 1}/{pairs} c={concurrency}: veil {mine[-1]:.2f}, rembg {theirs[-1]:.2f} req/s", file=sys.stderr)
    median = lambda xs: sorted(xs)[len(xs) // 2]
    print(f"{concurrency:>4} {median(mine):>11.2f} {median(theirs):>12.2f} {median(ratios):>6.2f}x  " + " ".join(f"{r:.2f}" for r in ratios))
print(f"peak RSS: veil serve {rss(veil_pid):.0f} MiB, rembg s {rss(rembg_pid):.0f} MiB")
print("\nnotes: latency = upload to last byte of the answer, one connection per request;")
print("       /v1/blur: the warm-up pass saved each photo's state, so timed passes re-render")
print("       without detecting (as the editor does after opening); /v1/lift runs u2netp once")
print("       at 384x384 (veil lift's default), rembg once at 320.")
