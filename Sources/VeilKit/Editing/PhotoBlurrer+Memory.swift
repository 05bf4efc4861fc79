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
    /// keeps the input's format (HEIF becomes JPEG).
    public func render(_ bytes: Data, name: String, previous: EditingState?, edits: RegionEdits = RegionEdits()) async throws -> Rendered {
        try Task.checkCancellation()
        let digest = SHA256.hex([UInt8](bytes))
        let decoded = try detector.decoder.decode(.data(bytes))
        let image = decoded.image
        var state: EditingState
        if let previous, previous.source.sha256 == digest,
           previous.source.width == image.width, previous.source.height == image.height {
            state = previous
        } else {
            state = EditingState(
                source: .init(file: name, sha256: digest, width: image.width, height: image.height),
                original: name, faces: .notYet, regions: .notYet, strokes: [],
                style: .default, shape: .disc, maskScale: 1, exported: nil)
        }
        state.source.file = name
        state.original = name
        if let style { state.style = style }
        if let shape { state.shape = shape }
        if let maskScale { state.maskScale = maskScale }

        var detectorRan = false
        if case .notYet = state.faces {
            let found = try await detector.detect(in: image)
            state.faces = .recognized(threshold: detector.confidenceThreshold, faces: found.map {
                EditingState.Face(box: EditingState.Box($0.box, in: image.size), confidence: $0.score)
            })
            detectorRan = true
        }
        try state.apply(edits)
        try Task.checkCancellation()

        let (regions, strokes) = state.coverInput()
        let cover = FaceCover(style: state.style, profile: MaskProfile(scale: state.maskScale))
        let result = try cover.apply(to: image, regions: regions, strokes: strokes)
        let format = decoded.format
        let encoder = ImageEncoder(format: format, quality: quality ?? JPEGQuality.estimate([UInt8](bytes)) ?? 90, keepMetadata: keepMetadata)
        let encoded = try encoder.encode(result)
        state.exported = .init(file: name, sha256: SHA256.hex([UInt8](encoded)), date: ISO8601DateFormatter().string(from: Date()))
        return Rendered(data: encoded, format: format, state: state, detectorRan: detectorRan, coveredRegions: regions.count)
    }
}

extension EditingState {
    /// The key of a source in editing states: the sha256 of its bytes, hex.
    public static func digest(of bytes: Data) -> String { SHA256.hex([UInt8](bytes)) }

    /// Decodes a state sent as JSON (e.g. by a web editor); one-line errors.
    public static func decode(_ data: Data) throws -> EditingState {
        let state: EditingState
        do { state = try JSONDecoder().decode(EditingState.self, from: data) } catch let error as VeilError {
            throw error
        } catch {
            throw VeilError.invalidArgument("damaged editing state (\(error.localizedDescription))")
        }
        guard state.format == formatName else { throw VeilError.invalidArgument("not a Veil editing state") }
        return state
    }

    /// The state as compact JSON with sorted keys.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
