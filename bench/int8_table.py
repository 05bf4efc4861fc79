"""What bench/quantize_u2netp.py and bench/quantize_centerface.py both write: the calibrated
ranges of a QDQ model made by onnxruntime.quantization, as the Swift `Int8Calibration` that
Veil's QDQRewriter reads (one writer, so the two tables cannot drift apart in form)."""
import numpy as np
from onnx import numpy_helper


def ranges(q):
    """`"tensor": .init(scale, zero),` for every quantized activation of the QDQ model `q`."""
    init = {i.name: numpy_helper.to_array(i) for i in q.graph.initializer}
    out = []
    for n in q.graph.node:
        if n.op_type == "QuantizeLinear" and n.input[0] not in init:
            s, z = init[n.input[1]], init[n.input[2]]
            assert s.size == z.size == 1 and z.dtype == np.uint8
            out.append(f'"{n.input[0]}": .init({np.float32(s).item()!r}, {int(z)}),')
    return out


def quantized_convolutions(q):
    """The Conv nodes of `q` whose weights come through a DequantizeLinear, with that node."""
    made = {t: n for n in q.graph.node for t in n.output}
    return [(n, made[n.input[1]]) for n in q.graph.node
            if n.op_type == "Conv" and made.get(n.input[1]) is not None and made[n.input[1]].op_type == "DequantizeLinear"]


def write_swift(path, header, static, model, doc, sha, convs, table, sha_comment=None, convolutions_comment=None):
    """The generated Swift file: `header` lines (comments), then `static let STATIC = Int8Calibration(...)`,
    each optional comment on its own line before the field it speaks of."""
    def comment(text):
        return f"        // {text}\n" if text else ""
    with open(path, "w") as f:
        f.write("".join(f"// {line}\n" for line in header) + "\n")
        f.write(f"extension Int8Calibration {{\n    /// {doc}\n    static let {static} = Int8Calibration(\n"
                f'        model: "{model}",\n' + comment(sha_comment) + f'        sourceSHA256: "{sha}",\n'
                + comment(convolutions_comment) + "        convolutions: [\n")
        for i in range(0, len(convs), 8):
            f.write("            " + ", ".join(f'"{c}"' for c in convs[i:i + 8]) + ",\n")
        f.write("        ],\n        activations: [\n")
        f.write("\n".join("            " + r for r in table) + "\n        ])\n}\n")
