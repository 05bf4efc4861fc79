#!/usr/bin/env python3
"""Writes the reference outputs the converted BlazePose models are tested
against (Tests/Fixtures/pose-reference-*): MediaPipe's own runtime (the
mediapipe==0.10.21 wheel's calculator graph: ImageToTensorCalculator,
InferenceCalculator on the TFLite file Veil converts, XNNPACK as MediaPipe
runs it) on inputs of the models' own sizes, so no resampling differs.

The inputs are the sample photos halved by 2x2 means (rounded), which the
test makes the same way: the detector sees 448x448 crops halved to 224, the
landmark model whole 512x512 photos halved to 256.
  pose-reference-detector-NAME.f16   raw outputs, float16: 2254x12 boxes, then 2254 scores (logits)
  pose-reference-landmarks-NAME.json the 195 landmark numbers, the presence flag, the 117 world numbers
  pose-reference-mask-NAME.png       the person mask, sigmoid * 255 rounded
And MediaPipe's whole pose pipeline (`pose_landmark_cpu`, as `mp.solutions.pose`
runs it on a still image) on a 448x512 crop of the astronaut, which the
detector sees letterboxed:
  pose-reference-pipeline-astronaut.json  the detection (score, 4 keypoints in crop pixels),
                                          the landmark model's crop (centre, side, rotation)
  pose-reference-pipeline-mask-astronaut.png  the person mask laid back over the crop, * 255 rounded

usage: python pose_reference.py VEIL_HOME OUT_DIR     (in a venv with mediapipe==0.10.21)
"""
import json
import os
import sys

import mediapipe as mp
import numpy as np
from google.protobuf import text_format
from mediapipe.framework import calculator_pb2
from PIL import Image

# name: (sample file, crop x, y, side) for the detector; the landmark model sees the whole photo.
DETECTOR = {"astronaut": ("astronaut.png", 32, 0, 448), "cameraman": ("camera.png", 32, 64, 448)}
LANDMARKS = {"astronaut": "astronaut.png", "cameraman": "camera.png"}
# name: (sample file, crop x, y, width, height) for the whole pipeline.
PIPELINE = {"astronaut": ("astronaut.png", 64, 0, 448, 512)}


def halved(rgb):
    """2x2 means, rounded half up (as the test computes them)."""
    s = rgb.astype(np.uint32)
    total = s[0::2, 0::2] + s[1::2, 0::2] + s[0::2, 1::2] + s[1::2, 1::2]
    return ((total + 2) // 4).astype(np.uint8)


def run(model, side, low, high, rgb, outputs):
    """The model's raw output tensors, flattened, as MediaPipe's InferenceCalculator gives them."""
    path = os.path.join(os.path.dirname(os.path.dirname(mp.__file__)), model)
    streams = "\n".join(f'output_stream: "f{i}"' for i in range(outputs))
    ranges = " ".join(f"ranges: {{ begin: {i} end: {i + 1} }}" for i in range(outputs))
    splits = " ".join(f'output_stream: "t{i}"' for i in range(outputs))
    floats = "\n".join(f'node {{ calculator: "TensorsToFloatsCalculator" input_stream: "TENSORS:t{i}" output_stream: "FLOATS:f{i}" }}'
                       for i in range(outputs))
    config = f"""
input_stream: "image"
{streams}
node {{ calculator: "ImageToTensorCalculator" input_stream: "IMAGE:image" output_stream: "TENSORS:in"
  options {{ [mediapipe.ImageToTensorCalculatorOptions.ext] {{ output_tensor_width: {side} output_tensor_height: {side}
    keep_aspect_ratio: false output_tensor_float_range {{ min: {low} max: {high} }} border_mode: BORDER_ZERO }} }} }}
node {{ calculator: "InferenceCalculator" input_stream: "TENSORS:in" output_stream: "TENSORS:out"
  options {{ [mediapipe.InferenceCalculatorOptions.ext] {{ model_path: "{path}" delegate {{ xnnpack {{}} }} }} }} }}
node {{ calculator: "SplitTensorVectorCalculator" input_stream: "out" {splits}
  options {{ [mediapipe.SplitVectorCalculatorOptions.ext] {{ {ranges} }} }} }}
{floats}
"""
    graph = mp.CalculatorGraph(graph_config=text_format.Parse(config, calculator_pb2.CalculatorGraphConfig()))
    got = {}
    for i in range(outputs):
        graph.observe_output_stream(f"f{i}", lambda _, packet, i=i: got.__setitem__(i, np.array(mp.packet_getter.get_float_list(packet))))
    graph.start_run()
    graph.add_packet_to_input_stream(
        "image", mp.packet_creator.create_image_frame(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb)).at(0))
    graph.close()
    return [got[i] for i in range(outputs)]


def main():
    home, out = sys.argv[1:3]
    for name, (file, x, y, side) in DETECTOR.items():
        rgb = halved(np.asarray(Image.open(f"{home}/{file}").convert("RGB"))[y:y + side, x:x + side])
        boxes, scores = run("mediapipe/modules/pose_detection/pose_detection.tflite", 224, -1, 1, rgb, 2)
        np.concatenate([boxes, scores]).astype("<f2").tofile(f"{out}/pose-reference-detector-{name}.f16")
        best = int(np.argmax(scores))
        print(name, f"detector: best anchor {best}, score {1 / (1 + np.exp(-scores[best])):.3f}")
    for name, file in LANDMARKS.items():
        rgb = halved(np.asarray(Image.open(f"{home}/{file}").convert("RGB")))
        landmarks, flag, mask, _, world = run("mediapipe/modules/pose_landmark/pose_landmark_full.tflite", 256, 0, 1, rgb, 5)
        with open(f"{out}/pose-reference-landmarks-{name}.json", "w") as f:
            json.dump({"landmarks": [round(float(v), 3) for v in landmarks], "presence": round(float(flag[0]), 5),
                       "world": [round(float(v), 5) for v in world]}, f)
            f.write("\n")
        probability = 0.5 * (1 + np.tanh(mask.reshape(256, 256) / 2))  # the sigmoid, without overflow
        Image.fromarray(np.clip(np.rint(probability * 255), 0, 255).astype(np.uint8)).save(f"{out}/pose-reference-mask-{name}.png")
        print(name, f"landmarks: presence {flag[0]:.3f}, person fraction {(probability > 0.5).mean():.3f}")
    for name, (file, x, y, w, h) in PIPELINE.items():
        rgb = np.ascontiguousarray(np.asarray(Image.open(f"{home}/{file}").convert("RGB"))[y:y + h, x:x + w])
        pipeline(rgb, f"{out}/pose-reference-pipeline-{name}.json", f"{out}/pose-reference-pipeline-mask-{name}.png")


def pipeline(rgb, json_path, mask_path):
    """MediaPipe's pose graph on one still image: the first detection, its crop, the mask."""
    from mediapipe.python.solution_base import SolutionBase
    from mediapipe.python.solutions import pose
    graph = SolutionBase(binary_graph_path=pose._BINARYPB_FILE_PATH,
                         side_inputs={"model_complexity": 1, "smooth_landmarks": False, "enable_segmentation": True,
                                      "smooth_segmentation": False, "use_prev_landmarks": False},
                         outputs=["pose_landmarks", "segmentation_mask", "pose_detection", "pose_rect_from_detection"])
    h, w = rgb.shape[:2]
    result = graph.process({"image": rgb})
    detection, rect = result.pose_detection, result.pose_rect_from_detection
    with open(json_path, "w") as f:
        json.dump({"score": round(float(detection.score[0]), 5),
                   "keypoints": [[round(k.x * w, 3), round(k.y * h, 3)] for k in detection.location_data.relative_keypoints],
                   "centre": [round(rect.x_center * w, 3), round(rect.y_center * h, 3)], "side": round(rect.width * w, 3),
                   "rotation": round(rect.rotation, 5), "found": result.pose_landmarks is not None}, f)
        f.write("\n")
    Image.fromarray(np.clip(np.rint(result.segmentation_mask * 255), 0, 255).astype(np.uint8)).save(mask_path)
    print(os.path.basename(json_path), f"score {detection.score[0]:.3f}, person fraction {(result.segmentation_mask > 0.5).mean():.3f}")


if __name__ == "__main__":
    main()
