import Foundation

/// The CenterFace network: preprocessing, one inference pass, and decoding
/// of its heatmap, scale, offset and landmark maps (stride 4).
struct CenterFace: FaceDetector {
    let session: InferenceSession
    /// In 8 bits the network takes the image's bytes and hands back its last
    /// features instead of the float maps (`ByteInterface`).
    let takesBytes: Bool

    /// The pinned file's tensors: the heatmap, the maps of box sizes, offsets and
    /// landmarks, and the features those three read.
    static let (heatName, scaleName, offsetName, landmarksName, featuresName) = ("537", "538", "539", "540", "535")

    /// In 8 bits the repaired file is rewritten with `Int8Calibration.centerFace` (its own
    /// session beside the float one): 0.5x the network's time on this CPU kind, at the same
    /// recall (docs/design/faces.md#centerface-in-8-bits), and its ends in bytes.
    static func load(runtime: InferenceRuntime, device: ComputeDevice, precision: ModelPrecision) async throws -> CenterFace {
        let weights = precision == .int8 ? runtime.eightBitWeights : nil
        let int8 = weights != nil
        let session = try await runtime.session(for: .centerFace, variant: int8 ? "int8" : nil, device: device) {
            let repaired = try ONNXGraphRepair.repair($0, symbolicAxes: [0, 2, 3])
            guard let weights else { return repaired }
            // The calibration names the pinned file; the rewriter reads the repaired one.
            let quantized = try QDQRewriter.quantize(repaired, with: .centerFace, source: $0, weightPeak: weights.peak)
            return try ByteInterface.apply(quantized, input: "input.1", inputChannels: 4, features: featuresName, calibration: .centerFace)
        }
        return CenterFace(session: session, takesBytes: int8)
    }

    /// Detects faces in `image` (8-bit RGB) resized by `scale`, returning boxes
    /// in the pixels of `image`. The resized image is padded with black to a
    /// multiple of 32, as the network needs, instead of being distorted.
    func detect(in image: VeilImage, scale: Double, threshold: Float) async throws -> [DetectedFace] {
        let (w, h, pw, ph) = Self.networkSize(of: image, scale: scale)
        // Resampled linearly, not by libvips' default Lanczos 3: the network
        // needs no finer resampling (the same faces covered on the three dev
        // sets) and the finer passes' 1.5x upsampling cost a fifth of their time.
        let heat: Tensor, heads: CenterFaceHeads
        if takesBytes {
            // RGB and a band of zeros: the network's first convolution is faster on four bands.
            let pixels = try image.networkBytes(width: w, height: h, paddedWidth: pw, paddedHeight: ph)
            let outputs = try await session.run([.bytes(ByteTensor(shape: [1, ph, pw, 4], values: pixels))])
            guard let map = outputs[Self.heatName], let features = outputs.bytes("\(Self.featuresName)_nhwc"),
                  let range = Int8Calibration.centerFace.activations[Self.featuresName],
                  let head = ConvolutionHead(outputs, names: [Self.scaleName, Self.offsetName, Self.landmarksName],
                                             features: features, range: range), head.outputs == 14,
                  map.shape.count == 4, head.cells == map.shape[2] * map.shape[3] else {
                throw VeilError.inference("CenterFace in 8 bits gave outputs \(session.outputNames), not its heatmap, features and heads")
            }
            heat = map
            heads = .features(head)
        } else {
            let pixels = try image.resized(width: w, height: h, kernel: .linear).padded(toWidth: pw, height: ph).pixelBytes()
            let outputs = try await session.run([Tensor(planarRGB: pixels, width: pw, height: ph)])  // raw 0...255, no normalization
            guard let map = outputs[Self.heatName], let scales = outputs[Self.scaleName],
                  let offsets = outputs[Self.offsetName], let marks = outputs[Self.landmarksName] else {
                throw VeilError.inference("CenterFace gave outputs \(session.outputNames), not its four maps")
            }
            heat = map
            heads = .maps(scale: scales, offset: offsets, landmarks: marks)
        }
        let faces = CenterFace.decode(heat: heat, heads: heads, threshold: threshold, width: Double(w), height: Double(h))
        let sx = Double(image.width) / Double(w), sy = Double(image.height) / Double(h)
        return faces.map { $0.mapped(dx: 0, dy: 0, sx: sx, sy: sy) }
    }

    /// Decodes the heatmap and the box and landmark values at its peaks into
    /// faces in the pixels of the network's input.
    static func decode(heat: Tensor, heads: CenterFaceHeads, threshold: Float, width: Double, height: Double) -> [DetectedFace] {
        let h = heat.shape[2], w = heat.shape[3]
        var faces: [DetectedFace] = []
        var v = [Float](repeating: 0, count: 14)
        for r in 0..<h {
            for c in 0..<w {
                let i = r * w + c
                let score = heat.values[i]
                guard score > threshold else { continue }
                heads.values(at: i, cells: h * w, into: &v)
                let s0 = Double(expf(v[0])) * 4, s1 = Double(expf(v[1])) * 4
                let o0 = Double(v[2]), o1 = Double(v[3])
                let x1 = max(0, (Double(c) + o1 + 0.5) * 4 - s1 / 2)
                let y1 = max(0, (Double(r) + o0 + 0.5) * 4 - s0 / 2)
                let x2 = min(x1 + s1, width), y2 = min(y1 + s0, height)
                let points = (0..<5).map { j in
                    (x: Double(v[4 + 2 * j + 1]) * s1 + x1, y: Double(v[4 + 2 * j]) * s0 + y1)
                }
                faces.append(DetectedFace(box: ImageRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1),
                                          score: score, landmarks: points))
            }
        }
        return nonMaximumSuppression(faces, iou: 0.3)
    }
}

/// Where CenterFace's box sizes (2), offsets (2) and landmarks (10) are read
/// at a heatmap cell: the float maps the network wrote, or its 8-bit features
/// through the convolutions it handed out.
enum CenterFaceHeads {
    case maps(scale: Tensor, offset: Tensor, landmarks: Tensor)
    case features(ConvolutionHead)

    /// The 14 values at cell `i` of `cells` into `v`.
    func values(at i: Int, cells: Int, into v: inout [Float]) {
        switch self {
        case let .maps(scale, offset, landmarks):
            v[0] = scale.values[i]; v[1] = scale.values[cells + i]
            v[2] = offset.values[i]; v[3] = offset.values[cells + i]
            for k in 0..<10 { v[4 + k] = landmarks.values[k * cells + i] }
        case let .features(head):
            head.values(at: i, into: &v)
        }
    }
}
