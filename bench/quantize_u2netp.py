#!/usr/bin/env python3
"""Static INT8 quantization of u2netp's convolutions, reproducibly (issue 19, item 4).

usage: quantize_u2netp.py U2NETP.onnx CALIB_DIR... OUT.onnx [--swift-table PATH] [options]
  bench/quantize-u2netp wraps it with the defaults that Veil ships (bench/.venv-quant).

U2NETP.onnx is rembg's file (sha256 309c8469..., Veil's pinned asset). Its input/output axes
0, 2, 3 are made symbolic (as Veil's ONNXGraphRepair does), the opset raised to 13, then
onnxruntime.quantization.quantize_static (MinMax calibration, U8 activations, S8 symmetric
per-channel weights) quantizes the op types in --ops, calibrated on every .jpg/.png in the
CALIB_DIRs (sorted; never the dev set), each preprocessed as Veil does: Lanczos-3 to NxN
(--side, default 384), divided by its brightest value, ImageNet mean and std, NCHW.

The defaults are what measured best on subjects-dev (docs/design/lift.md#u2netp-in-8-bits):
  --format qdq --ops Conv,Relu,MaxPool,Add,Resize: QDQ pairs that ONNX Runtime fuses into
    QLinearConv (ReLU folded), QLinearAdd and uint8 MaxPool/Resize; Concat and Sigmoid in float;
  --exclude Conv_765,Conv_787: stage 2d's last two convolutions stay in float (Conv_787's
    input spans 0..228, and one 8-bit scale over it took mean J from 0.747 to 0.53).
--swift-table PATH writes the calibrated scale and zero point of every quantized activation,
and the quantized convolutions, as Swift (Sources/VeilKit/Subjects/U2NetpInt8Calibration.swift):
Veil rewrites the pinned FP32 file into this same QDQ graph at load time (Inference/QDQRewriter.swift),
quantizing the weights itself, so no second model is shipped. Deterministic: same inputs and onnxruntime -> same bytes."""
import argparse, glob, hashlib, os, tempfile
import numpy as np, onnx, onnxruntime
onnxruntime.set_default_logger_severity(3)
from PIL import Image
from onnx import version_converter
import int8_table
from onnxruntime.quantization import CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process

ap = argparse.ArgumentParser()
ap.add_argument("src"); ap.add_argument("paths", nargs="+")
ap.add_argument("--side", type=int, default=384)
ap.add_argument("--format", choices=["qdq", "qop"], default="qdq")
ap.add_argument("--ops", default="Conv,Relu,MaxPool,Add,Resize", help="comma-separated op types to quantize ('' = all ORT can)")
ap.add_argument("--exclude", default="Conv_765,Conv_787", help="comma-separated node names kept in float")
ap.add_argument("--method", choices=["minmax", "entropy", "percentile"], default="minmax")
ap.add_argument("--swift-table", help="write the activation ranges and quantized convolutions as Swift here (needs --format qdq)")
a = ap.parse_args()
calib_dirs, out = a.paths[:-1], a.paths[-1]
source_sha = hashlib.sha256(open(a.src, "rb").read()).hexdigest()

m = onnx.load(a.src)
for v in list(m.graph.input) + list(m.graph.output):
    for axis, d in enumerate(v.type.tensor_type.shape.dim):
        if axis in (0, 2, 3):
            d.ClearField("dim_value"); d.dim_param = f"{'in' if v in m.graph.input else 'out'}_{axis}"
del m.graph.value_info[:]
if m.opset_import[0].version < 13:
    m = version_converter.convert_version(m, 13)
tmp = tempfile.mkdtemp()
fixed = os.path.join(tmp, "fixed.onnx"); onnx.save(m, fixed)
pre = os.path.join(tmp, "pre.onnx")
quant_pre_process(fixed, pre, skip_symbolic_shape=True)

mean = np.array([0.485, 0.456, 0.406], np.float32); std = np.array([0.229, 0.224, 0.225], np.float32)
def tensor(path):
    rgb = np.asarray(Image.open(path).convert("RGB").resize((a.side, a.side), Image.LANCZOS), dtype=np.float32)
    x = (rgb / max(rgb.max(), 1) - mean) / std
    return x.transpose(2, 0, 1)[None].astype(np.float32).copy()

paths = sorted(p for d in calib_dirs for p in glob.glob(os.path.join(d, "*")) if p.lower().endswith((".jpg", ".jpeg", ".png")))
class Reader(CalibrationDataReader):
    def __init__(self): self.it = iter(paths)
    def get_next(self):
        p = next(self.it, None)
        return None if p is None else {"input.1": tensor(p)}

quantize_static(pre, out, Reader(), quant_format=QuantFormat.QDQ if a.format == "qdq" else QuantFormat.QOperator,
                per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                nodes_to_exclude=[n for n in a.exclude.split(",") if n],
                op_types_to_quantize=a.ops.split(",") if a.ops else None,
                calibrate_method={"minmax": CalibrationMethod.MinMax, "entropy": CalibrationMethod.Entropy,
                                  "percentile": CalibrationMethod.Percentile}[a.method],
                # Histograms of every activation over all images at once exhaust memory: flush every 5.
                extra_options={} if a.method == "minmax" else {"CalibMaxIntermediateOutputs": 5})
print(hashlib.sha256(open(out, "rb").read()).hexdigest(), out, f"({len(paths)} calibration images)")

if a.swift_table:
    assert a.format == "qdq", "the Swift table describes a QDQ graph"
    q = onnx.load(out)
    table = int8_table.ranges(q)
    convs = [n.name for n, _ in int8_table.quantized_convolutions(q)]
    kept = sorted(n.name for n in q.graph.node if n.op_type == "Conv" and n.name not in convs)
    int8_table.write_swift(
        a.swift_table,
        ["Generated by bench/quantize-u2netp (bench/quantize_u2netp.py --swift-table); do not edit.",
         f"onnxruntime {onnxruntime.__version__}, MinMax calibration at {a.side}x{a.side} over {len(paths)} images",
         f"({', '.join(os.path.relpath(d, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')) for d in calib_dirs)}),",
         f"ops {a.ops or 'all'}; convolutions kept in float: {', '.join(kept) or 'none'}."],
        "u2netp", "u2netp", 'u2netp\'s 8-bit ranges (docs/design/lift.md#u2netp-in-8-bits).', source_sha,
        convs, table, sha_comment="The pinned `Asset.u2netp`.")
    print(f"{len(convs)} convolutions, {len(table)} activations ->", a.swift_table)
