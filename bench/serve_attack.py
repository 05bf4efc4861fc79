#!/usr/bin/env python3
"""The attacks of bench/serve-attack against a release `veil serve` (loopback).

usage: serve_attack.py VEIL PHOTO TMPDIR
"""
import base64
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time

veil, photo_path, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
photo = open(photo_path, "rb").read()
problems = []


class Server:
    def __init__(self, *args):
        self.log = open(os.path.join(tmp, "serve.log"), "ab")
        states = os.path.join(tmp, f"states-{random.randrange(1 << 30)}")
        self.process = subprocess.Popen([veil, "serve", "--port", "0", "--state-dir", states, *args],
                                        stdout=subprocess.PIPE, stderr=self.log)
        line = self.process.stdout.readline().decode()
        self.port = int(line.split("127.0.0.1:")[1].split("/")[0])

    def rss(self, field="VmRSS"):
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith(field + ":"):
                return int(line.split()[1]) // 1024
        return 0

    def stop(self):
        start = time.time()
        self.process.terminate()
        try:
            code = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = "killed after 60 s"
        return code, time.time() - start


def request(port, method, path, body=b"", headers=None, timeout=60):
    """(status, seconds, headers, body); status -1 when there was no answer."""
    start = time.time()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, time.time() - start, dict(r.getheaders()), data
    except (OSError, http.client.HTTPException):
        return -1, time.time() - start, {}, b""


def form(parts):
    boundary = "veil-attack-boundary"
    out = bytearray()
    for name, filename, data in parts:
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"'
        if filename:
            head += f'; filename="{filename}"'
        out += (head + "\r\n\r\n").encode() + data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return bytes(out), f"multipart/form-data; boundary={boundary}"


def health_probe(port, seconds, every=0.5):
    """Asks /healthz every `every` s for `seconds` s: (asked, answered, latencies)."""
    latencies, asked = [], 0
    end = time.time() + seconds
    while time.time() < end:
        asked += 1
        status, took, _, _ = request(port, "GET", "/healthz", timeout=5)
        if status == 200:
            latencies.append(took)
        time.sleep(every)
    return asked, len(latencies), latencies


def describe(latencies):
    if not latencies:
        return "no answers"
    return f"p50 {statistics.median(latencies) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"


def slowloris(port, count, seconds):
    """`count` connections sending a request's headers a byte a second, reconnecting when closed."""
    stop = time.time() + seconds
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
    counts = {"connections": 0, "closed by server": 0}
    lock = threading.Lock()

    def one():
        while time.time() < stop:
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
            except OSError:
                time.sleep(0.2)
                continue
            with lock:
                counts["connections"] += 1
            try:
                for b in head:
                    if time.time() >= stop:
                        break
                    s.send(bytes([b]))
                    time.sleep(1)
            except OSError:
                with lock:
                    counts["closed by server"] += 1
            s.close()

    threads = [threading.Thread(target=one, daemon=True) for _ in range(count)]
    for t in threads:
        t.start()
    return threads, counts


print("bench/serve-attack: veil serve over loopback under attack (release build)")

# 1. slowloris, one polling thread vs a pool of two.
for threads_arg in ("1", "2"):
    server = Server("--http-threads", threads_arg)
    attackers, counts = slowloris(server.port, 200, 30)
    time.sleep(1)
    asked, answered, lat = health_probe(server.port, 28)
    for t in attackers:
        t.join()
    _, _, _, metrics = request(server.port, "GET", "/metrics")
    transport = {l.split('"')[1]: l.split()[-1] for l in metrics.decode().splitlines() if l.startswith("veil_http_transport{")}
    code, took = server.stop()
    print(f"  slowloris (200 connections, 1 byte/s, 30 s), --http-threads {threads_arg}: /healthz answered {answered}/{asked}, "
          f"{describe(lat)}; attacker connections {counts['connections']}, closed by the server {counts['closed by server']} "
          f"(evicted {transport.get('evicted')}, too slow {transport.get('slow_closed')}); exit {code}")
    if answered < asked:
        problems.append(f"/healthz unanswered under slowloris (--http-threads {threads_arg})")

server = Server("--concurrency", "1", "--timeout", "5s")
# 2. 20,000 parts in 1.5 MB.
parts = [("image", "a.png", photo)] + [(f"f{i}", None, b"x" * 20) for i in range(20000)]
body, ctype = form(parts)
status, took, _, text = request(server.port, "POST", "/v1/faces", body, {"Content-Type": ctype})
print(f"  multipart of 20,000 parts ({len(body) / 1e6:.1f} MB): {status} in {took * 1000:.0f} ms ({text.decode().strip()[:70]})")
for n in (60, 64):
    body, ctype = form([("image", "a.png", photo)] + [(f"f{i}", None, b"x" * 20) for i in range(n - 1)])
    status, took, _, _ = request(server.port, "POST", "/v1/faces", body, {"Content-Type": ctype})
    print(f"  multipart of {n} parts (allowed, up to 64): {status} in {took * 1000:.0f} ms")

# 3. a pathological stroke state, --timeout 5s.
first = request(server.port, "POST", "/v1/blur?keep=1", photo)
state = json.loads(request(server.port, "GET", first[2]["X-Veil-State-URL"])[3])
state["strokes"] = [{"width": 2.0, "points": [[random.random(), random.random()] for _ in range(100)]} for _ in range(1000)]
body, ctype = form([("image", "a.png", photo), ("state", None, json.dumps(state).encode())])
result = {}
t = threading.Thread(target=lambda: result.update(r=request(server.port, "POST", "/v1/blur", body, {"Content-Type": ctype})))
start = time.time()
t.start()
_, answered, lat = health_probe(server.port, 4, every=0.25)
t.join()
status, took = result["r"][0], result["r"][1]
print(f"  pathological pen state (1,000 strokes x 100 points, width 2), --timeout 5s: {status} after {took:.1f} s; "
      f"/healthz meanwhile {answered} answers, {describe(lat)}")
# When is the slot free again? With --concurrency 1, a small request succeeds only once the work stopped.
free_after = None
while time.time() - start < 90:
    s1 = request(server.port, "POST", "/v1/faces", photo)[0]
    if s1 == 200:
        free_after = time.time() - start
        break
    time.sleep(0.5)
print(f"  a /v1/faces after it: {'200 after %.1f s' % free_after if free_after else 'no free slot within 90 s'} "
      f"(the slot is released when the rendering really stops: it observes cancellation only as often as VeilKit checks)")
code, took = server.stop()
print(f"  stop (SIGTERM) with that work maybe still running: exit {code} after {took:.1f} s")
if code != 0:
    problems.append(f"veil serve exited {code} on SIGTERM")

# 4. 20 concurrent maximal bodies.
server = Server("--max-body", "42MB", "--concurrency", "2")
rest = server.rss()
big = bytes(random.getrandbits(8) for _ in range(1 << 16)) * (42_000_000 >> 16)
statuses = []
lock = threading.Lock()


def send_big():
    status = request(server.port, "POST", "/v1/faces", big, {"Content-Type": "application/octet-stream"}, timeout=120)[0]
    with lock:
        statuses.append(status)


clients = [threading.Thread(target=send_big) for _ in range(20)]
for c in clients:
    c.start()
for c in clients:
    c.join()
peak = server.rss("VmHWM")
summary = ", ".join(f"{statuses.count(s)} x {s}" for s in sorted(set(statuses)))
print(f"  20 concurrent 42 MB bodies, budget 168 MB (4 x --max-body): {summary}; RSS at rest {rest} MB, peak {peak} MB "
      f"(the bodies alone would be {20 * 42} MB)")
health = request(server.port, "GET", "/healthz")[0]
code, took = server.stop()
if health != 200 or code != 0:
    problems.append(f"after the bodies: /healthz {health}, exit {code}")

if problems:
    print("bench/serve-attack: PROBLEMS: " + "; ".join(problems))
    sys.exit(1)
print("bench/serve-attack: every attack answered, /healthz always answered, clean stops")
