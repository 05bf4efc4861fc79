import Foundation

/// PP-OCRv4's DB detector: the image resized to multiples of 32, in BGR
/// scaled to [-1, 1], one pass, and the probability map read by `TextMap`.
struct TextDetectionNetwork: Sendable {
    let session: InferenceSession

    static func load(runtime: InferenceRuntime, device: ComputeDevice) async throws -> TextDetectionNetwork {
        TextDetectionNetwork(session: try await runtime.session(for: .textDetector, device: device))
    }

    /// Text in `image` (8-bit RGB) resampled by `scale`, in the pixels of `image`.
    /// Each side is rounded to a multiple of 32 (at least 32), as PaddleOCR does:
    /// the aspect may change by a few percent, mapped back exactly.
    func detect(in image: VeilImage, scale: Double, map: TextMap) async throws -> [DetectedText] {
        let w = max(32, Int((Double(image.width) * scale / 32).rounded()) * 32)
        let h = max(32, Int((Double(image.height) * scale / 32).rounded()) * 32)
        let pixels = try image.resized(width: w, height: h).pixelBytes()
        let input = Tensor(planarBGR: pixels, width: w, height: h, scale: 2 / 255, offset: 1)
        let outputs = try await session.run([input])
        guard let name = session.outputNames.first, let probability = outputs[name], probability.shape.count == 4,
              probability.shape[2] > 0, probability.shape[3] > 0 else {
            throw VeilError.inference("the text detector gave no probability map")
        }
        let mh = probability.shape[2], mw = probability.shape[3]
        try Task.checkCancellation()
        let found = probability.values.withUnsafeBufferPointer { map.regions(in: $0, width: mw, height: mh, isCancelled: { Task.isCancelled }) }
        try Task.checkCancellation()
        let sx = Double(image.width) / Double(mw), sy = Double(image.height) / Double(mh)
        return found.map { $0.mapped(dx: 0, dy: 0, sx: sx, sy: sy).clipped(to: image.size) }
    }
}
