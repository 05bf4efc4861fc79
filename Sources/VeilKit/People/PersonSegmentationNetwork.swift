import Foundation

/// MediaPipe's selfie segmentation (converted from TFLite at install): the
/// probability that each pixel of a 256x256 view shows a person. Trained on
/// people filling the frame, it marks swans and cars as readily as people
/// when shown a whole scene, so it is only ever shown crops round a person
/// found by their face (`PersonSegmenter`).
struct PersonSegmentationNetwork: Sendable {
    static let side = 256
    let session: InferenceSession

    static func load(home: VeilHome, device: ComputeDevice) async throws -> PersonSegmentationNetwork {
        let runtime = try InferenceRuntime.shared(home: home)
        return PersonSegmentationNetwork(session: try await runtime.session(for: .selfieSegmentation, device: device))
    }

    /// The person map of `rgb` (8-bit RGB, any size, squeezed to 256x256 as
    /// MediaPipe squeezes its input): 256x256 row-major values in 0...1.
    func map(for rgb: VeilImage) async throws -> [Float] {
        let side = Self.side
        let small = try rgb.resized(width: side, height: side, kernel: .linear).asUChar()
        let input = Tensor(planarRGB: try small.pixelBytes(), width: side, height: side,
                           scale: [1 / 255, 1 / 255, 1 / 255])
        let outputs = try await session.run([input])
        guard let name = session.outputNames.first, let map = outputs[name], map.values.count == side * side else {
            throw VeilError.inference("the person model gave no \(side)x\(side) map")
        }
        return map.values
    }
}
