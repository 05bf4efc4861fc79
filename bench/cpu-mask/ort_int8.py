"""bench/cpu-mask/ort_int8.py — ONNX Runtime's 8-bit kernels against float ones, one thread.

    python ort_int8.py [ITERATIONS]        (needs onnx, onnxruntime, numpy; e.g. bench/.venv-deface)
    LD_PRELOAD=libveil-avx2-mask.so python ort_int8.py

Builds four graphs in a temporary directory and times each over ITERATIONS runs (default 50,
after 5 untimed) with intra_op_num_threads=1:
  matmul   float MatMul          [256 x 1024] @ [1024 x 1024]
  matmul8  MatMulInteger         the same, uint8 activations x int8 weights -> int32
  conv     float Conv            1x64x112x112, 64 3x3 filters, pad 1 (a CenterFace/u2netp-like layer)
  conv8    QLinearConv           the same, uint8 activations x int8 weights -> uint8
and prints the median and mean milliseconds of a run, and float / int8 for each pair.
"""
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 50
rng = np.random.default_rng(0)
M, K, N = 256, 1024, 1024
C, H, W, F = 64, 112, 112, 64


def model(nodes, inputs, outputs, inits, path):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, path)


def build(d):
    wf = rng.standard_normal((K, N), dtype=np.float32) * 0.05
    w8 = rng.integers(-127, 128, (K, N), dtype=np.int8)
    model([helper.make_node("MatMul", ["x", "w"], ["y"])],
          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [M, K])],
          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [M, N])],
          [numpy_helper.from_array(wf, "w")], f"{d}/matmul.onnx")
    model([helper.make_node("MatMulInteger", ["x", "w", "xz"], ["y"])],
          [helper.make_tensor_value_info("x", TensorProto.UINT8, [M, K])],
          [helper.make_tensor_value_info("y", TensorProto.INT32, [M, N])],
          [numpy_helper.from_array(w8, "w"), numpy_helper.from_array(np.array(128, np.uint8), "xz")],
          f"{d}/matmul8.onnx")
    cf = rng.standard_normal((F, C, 3, 3), dtype=np.float32) * 0.05
    c8 = rng.integers(-127, 128, (F, C, 3, 3), dtype=np.int8)
    model([helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])],
          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, H, W])],
          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, F, H, W])],
          [numpy_helper.from_array(cf, "w")], f"{d}/conv.onnx")
    s = lambda v, n: numpy_helper.from_array(np.array(v, np.float32), n)
    z8 = lambda v, n, t: numpy_helper.from_array(np.array(v, t), n)
    model([helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"], pads=[1, 1, 1, 1])],
          [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, C, H, W])],
          [helper.make_tensor_value_info("y", TensorProto.UINT8, [1, F, H, W])],
          [s(0.02, "xs"), z8(128, "xz", np.uint8), numpy_helper.from_array(c8, "w"), s(0.01, "ws"),
           z8(0, "wz", np.int8), s(0.5, "ys"), z8(128, "yz", np.uint8)], f"{d}/conv8.onnx")
    return {
        "matmul": rng.standard_normal((M, K), dtype=np.float32),
        "matmul8": rng.integers(0, 256, (M, K), dtype=np.uint8),
        "conv": rng.standard_normal((1, C, H, W), dtype=np.float32),
        "conv8": rng.integers(0, 256, (1, C, H, W), dtype=np.uint8),
    }


def run(path, x):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    feed = {"x": x}
    for _ in range(5):
        sess.run(None, feed)
    times = []
    for _ in range(iterations):
        t = time.perf_counter()
        sess.run(None, feed)
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times), statistics.mean(times)


with tempfile.TemporaryDirectory() as d:
    inputs = build(d)
    res = {}
    for name, x in inputs.items():
        res[name] = run(f"{d}/{name}.onnx", x)
        print(f"{name:8s} median {res[name][0]:8.2f} ms  mean {res[name][1]:8.2f} ms", flush=True)
print(f"matmul float/int8 {res['matmul'][0] / res['matmul8'][0]:.2f}x   "
      f"conv float/int8 {res['conv'][0] / res['conv8'][0]:.2f}x   "
      f"(onnxruntime {ort.__version__}, {iterations} runs, LD_PRELOAD={os.environ.get('LD_PRELOAD', '')!r})")
