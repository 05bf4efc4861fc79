import Foundation

extension PhotoBlurrer {
    /// One photo covered in memory: the encoded result and its editing state.
    public struct Rendered: Sendable {
        public var data: Data
        public var format: EncodedFormat
        public var state: EditingState
        /// Whether the detector ran (false when `previous` already had the faces).
        public var detectorRan: Bool
        public var coveredRegions: Int
    }

    /// Covers the faces of encoded bytes without touching the file system, for
    /// services that receive photos over the network. `previous` is a state
    /// saved for these very bytes (same sha256): its faces are reused, so a
    /// photo is detected once; a state for other bytes is ignored. The result
    /// keeps the input's format unless `format` names another (`veil blur - -o out.png`).
    public func render(_ bytes: Data, name: String, previous: EditingState?, edits: RegionEdits = RegionEdits(),
                       format: EncodedFormat? = nil) async throws -> Rendered {
        try Task.checkCancellation()
        let digest = SHA256.hex([UInt8](bytes))
        let decoded = try detector.decoder.decode(.data(bytes))
        let image = decoded.image
        let matching = previous.flatMap { $0.source.sha256 == digest && $0.source.width == image.width && $0.source.height == image.height ? $0 : nil }
        var (state, result, detectorRan, regions) = try await cover(image, digest: digest, file: name, previous: matching, edits: edits)
        state.source.file = name
        state.original = name
        let format = format ?? decoded.format
        let encoder = ImageEncoder(format: format, quality: quality ?? JPEGQuality.estimate([UInt8](bytes)) ?? 90, keepMetadata: keepMetadata)
        let encoded = try encoder.encode(result)
        state.exported = .init(file: name, sha256: SHA256.hex([UInt8](encoded)), date: ISO8601DateFormatter().string(from: Date()))
        return Rendered(data: encoded, format: format, state: state, detectorRan: detectorRan, coveredRegions: regions.count)
    }
}

extension EditingState {
    /// The key of a source in editing states: the sha256 of its bytes, hex.
    public static func digest(of bytes: Data) -> String { SHA256.hex([UInt8](bytes)) }

    /// The state as compact JSON with sorted keys.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
