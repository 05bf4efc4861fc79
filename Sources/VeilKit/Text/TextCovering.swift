import Foundation

/// What `veil blur --cover text` asks of a photo: its text regions, and with
/// a `match` only those whose reading matches covered (reading every line
/// costs the recogniser; without a match only the detector runs).
public struct TextCovering: Sendable {
    /// Reads the lines when `match` is set; its detector finds the regions either way.
    public var reader = RecognizeTextRequest()
    public var match: TextMatch?

    public init(match: TextMatch? = nil) { self.match = match }

    /// The text regions of `image` (upright), normalized for the editing state.
    func regions(in image: VeilImage, device: ComputeDevice, decoder: ImageDecoder) async throws -> EditingState.TextRegions {
        var reader = self.reader
        reader.computeDevice = device
        reader.decoder = decoder
        let rgb = try image.srgb8().materialized()
        let found = try await reader.configuredDetector.detect(in: rgb)
        let w = Double(image.width), h = Double(image.height)
        func normalized(_ text: DetectedText) -> [[Double]] { text.corners.map { [$0.x / w, $0.y / h] } }
        guard let match else {
            return EditingState.TextRegions(match: nil, items: found.map {
                EditingState.TextRegion(corners: normalized($0), confidence: $0.score, text: nil, covered: true)
            })
        }
        let read = try await reader.read(found, in: rgb)
        let covered = match.matches(read.map { (corners: $0.0.corners, text: $0.1.string) })
        return EditingState.TextRegions(match: match.spelling, items: zip(read, covered).map { line, covered in
            EditingState.TextRegion(corners: normalized(line.0), confidence: line.0.score, text: line.1.string, covered: covered)
        })
    }
}
