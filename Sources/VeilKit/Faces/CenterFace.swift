import Foundation

/// The CenterFace network: preprocessing, one inference pass, and decoding
/// of its heatmap, scale, offset and landmark maps (stride 4).
struct CenterFace: FaceDetector {
    let session: InferenceSession

    /// In 8 bits the repaired file is rewritten with `Int8Calibration.centerFace` (its own
    /// session beside the float one): 0.5x the network's time on this CPU kind, at the same
    /// recall (README, "Photos: detection where faces can be").
    static func load(runtime: InferenceRuntime, device: ComputeDevice, precision: ModelPrecision) throws -> CenterFace {
        let session = try runtime.session(for: .centerFace, variant: precision == .int8 ? "int8" : nil, device: device) {
            let repaired = try ONNXGraphRepair.repair($0, symbolicAxes: [0, 2, 3])
            // The calibration names the pinned file; the rewriter reads the repaired one.
            return precision == .int8 ? try QDQRewriter.quantize(repaired, with: .centerFace, source: $0) : repaired
        }
        return CenterFace(session: session)
    }

    /// Detects faces in `image` (8-bit RGB) resized by `scale`, returning boxes
    /// in the pixels of `image`. The resized image is padded with black to a
    /// multiple of 32, as the network needs, instead of being distorted.
    func detect(in image: VeilImage, scale: Double, threshold: Float) async throws -> [DetectedFace] {
        let (w, h, pw, ph) = Self.networkSize(of: image, scale: scale)
        // Linear, not libvips' default Lanczos 3: the network needs no finer
        // resampling (the same faces covered on the three dev sets) and the
        // finer passes' 1.5x upsampling cost a fifth of their time.
        let pixels = try image.resized(width: w, height: h, kernel: .linear).padded(toWidth: pw, height: ph).pixelBytes()
        let input = Tensor(planarRGB: pixels, width: pw, height: ph)  // raw 0...255, no normalization
        let outputs = try await session.run([input])
        let names = session.outputNames
        guard names.count == 4, let heat = outputs[names[0]], let scales = outputs[names[1]],
              let offsets = outputs[names[2]], let marks = outputs[names[3]] else {
            throw VeilError.inference("CenterFace gave \(names.count) outputs, expected 4")
        }
        let faces = CenterFace.decode(heat: heat, scale: scales, offset: offsets, landmarks: marks,
                                      threshold: threshold, width: Double(w), height: Double(h))
        let sx = Double(image.width) / Double(w), sy = Double(image.height) / Double(h)
        return faces.map { $0.mapped(dx: 0, dy: 0, sx: sx, sy: sy) }
    }

    /// Decodes the network's maps into faces in the pixels of the network's input.
    static func decode(heat: Tensor, scale: Tensor, offset: Tensor, landmarks: Tensor,
                       threshold: Float, width: Double, height: Double) -> [DetectedFace] {
        let h = heat.shape[2], w = heat.shape[3], plane = h * w
        var faces: [DetectedFace] = []
        for r in 0..<h {
            for c in 0..<w {
                let i = r * w + c
                let score = heat.values[i]
                guard score > threshold else { continue }
                let s0 = Double(expf(scale.values[i])) * 4, s1 = Double(expf(scale.values[plane + i])) * 4
                let o0 = Double(offset.values[i]), o1 = Double(offset.values[plane + i])
                let x1 = max(0, (Double(c) + o1 + 0.5) * 4 - s1 / 2)
                let y1 = max(0, (Double(r) + o0 + 0.5) * 4 - s0 / 2)
                let x2 = min(x1 + s1, width), y2 = min(y1 + s0, height)
                let points = (0..<5).map { j in
                    (x: Double(landmarks.values[(2 * j + 1) * plane + i]) * s1 + x1,
                     y: Double(landmarks.values[(2 * j) * plane + i]) * s0 + y1)
                }
                faces.append(DetectedFace(box: ImageRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1),
                                          score: score, landmarks: points))
            }
        }
        return nonMaximumSuppression(faces, iou: 0.3)
    }
}
