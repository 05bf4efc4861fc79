import Foundation

/// What `--cover text` asks of a photo or a video frame: its text regions,
/// and with a `match` only those whose reading matches covered (reading every
/// line costs the recogniser; without a match only the detector runs).
public struct TextCovering: Sendable {
    /// Reads the lines when `match` is set; its detector finds the regions either way.
    public var reader = RecognizeTextRequest()
    public var match: TextMatch?

    public init(match: TextMatch? = nil) { self.match = match }

    /// The regions of `image` (upright), each with its reading (when read) and whether it is covered.
    func found(in image: VeilImage, device: ComputeDevice) async throws -> [(text: DetectedText, reading: String?, covered: Bool)] {
        var reader = self.reader
        reader.computeDevice = device
        let rgb = try image.srgb8().materialized()
        let found = try await reader.configuredDetector.detect(in: rgb)
        guard let match else { return found.map { ($0, nil, true) } }
        let read = try await reader.read(found, in: rgb)
        let covered = match.matches(read.map { (corners: $0.0.corners, text: $0.1.string) })
        return zip(read, covered).map { ($0.0.0, $0.0.1.string, $0.1) }
    }

    /// The text regions of `image` (upright), normalized for the editing state.
    func regions(in image: VeilImage, device: ComputeDevice) async throws -> EditingState.TextRegions {
        let w = Double(image.width), h = Double(image.height)
        return EditingState.TextRegions(match: match?.spelling, items: try await found(in: image, device: device).map {
            EditingState.TextRegion(corners: $0.text.corners.map { [$0.x / w, $0.y / h] }, confidence: $0.text.score,
                                    text: $0.reading, covered: $0.covered)
        })
    }
}
