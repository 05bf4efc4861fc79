import Foundation

/// PaddleOCR's text-line classifier: 0 or 180 degrees, from the line's
/// first 192 x 48 pixels (narrower lines padded). A line is turned only when
/// the network is at least `threshold` sure (0.9, as rapidocr ships it).
struct TextOrientationNetwork: Sendable {
    let session: InferenceSession
    var threshold: Float = 0.9
    static let rows = 48, columns = 192, batch = 6

    static func load(runtime: InferenceRuntime, device: ComputeDevice) async throws -> TextOrientationNetwork {
        TextOrientationNetwork(session: try await runtime.session(for: .textOrientation, device: device))
    }

    /// For each line (reading corners), whether it is upside down.
    func upsideDown(_ lines: [[ImageRect.Point]], crop: TextLineCrop) async throws -> [Bool] {
        var result = [Bool](repeating: false, count: lines.count)
        let rows = Self.rows, stride = Self.columns
        for start in Swift.stride(from: 0, to: lines.count, by: Self.batch) {
            try Task.checkCancellation()
            let group = Array(lines[start..<min(lines.count, start + Self.batch)])
            var values = [Float](repeating: 0, count: group.count * 3 * rows * stride)
            values.withUnsafeMutableBufferPointer { all in
                for (k, line) in group.enumerated() {
                    let columns = min(stride, Int((Double(rows) * TextLineCrop.aspect(line)).rounded(.up)))
                    let slice = UnsafeMutableBufferPointer(rebasing: all[(k * 3 * rows * stride)..<((k + 1) * 3 * rows * stride)])
                    crop.sample(line, rows: rows, columns: max(1, columns), stride: stride, into: slice)
                }
            }
            let outputs = try await session.run([Tensor(shape: [group.count, 3, rows, stride], values: values)])
            guard let name = session.outputNames.first, let scores = outputs[name], scores.values.count == 2 * group.count else {
                throw VeilError.inference("the text orientation model gave no scores")
            }
            for k in group.indices {
                let p0 = scores.values[2 * k], p1 = scores.values[2 * k + 1]
                result[start + k] = p1 > p0 && p1 > threshold
            }
        }
        return result
    }
}
