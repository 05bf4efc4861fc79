import Foundation

/// Everything needed to re-render a covered photo without detecting again:
/// the photo app's data model, stored as a JSON sidecar beside the output.
///
/// All coordinates are normalized to the upright source image with the origin
/// at the upper left (as a UI sends them); stroke widths are fractions of the
/// image's longest side. The schema: docs/design/editing-state.md#photos.
public struct EditingState: Codable, Sendable, Equatable {
    public static let formatName = "veil-editing-state"

    public var format = EditingState.formatName
    public var version = 1
    public var source: Source
    /// Where the untouched original is (the source itself unless it was overwritten).
    public var original: String
    public var faces: Detection
    public var regions: Regions
    public var strokes: [Stroke]
    public var style: CoverStyle
    public var shape: CoverRegion.Shape
    public var maskScale: Double
    public var exported: Export?
    /// The text found in the photo, and which of it is covered (nil: text
    /// was never asked for; states written before text are read so).
    public var texts: TextRegions?
    /// The people found in the photo (`--cover people`), and which are
    /// covered (nil: people were never asked for).
    public var people: PeopleRegions?

    public struct Source: Codable, Sendable, Equatable {
        /// The path from the sidecar's folder (`RelativePath`), never absolute.
        public var file: String
        public var sha256: String
        public var width: Int
        public var height: Int
        /// Bytes (nil in states written before it, and for photos sent over HTTP).
        public var size: Int? = nil
    }

    /// A rectangle normalized to the image, origin upper-left.
    public struct Box: Codable, Sendable, Equatable {
        public var x, y, width, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) { self.x = x; self.y = y; self.width = width; self.height = height }
    }

    public struct Face: Codable, Sendable, Equatable {
        public var box: Box
        public var confidence: Float
    }

    /// Whether the detector has run on this source, and what it found.
    public enum Detection: Sendable, Equatable {
        case notYet
        case recognized(threshold: Float, faces: [Face])
    }

    /// One region the user wants covered: a detected face (by index) or a box they drew.
    public struct Region: Codable, Sendable, Equatable {
        public var box: Box
        /// Index into the detected faces, nil for a manual box.
        public var face: Int?
    }

    /// `notYet`: cover every detected face. `confirmed`: exactly this list.
    public enum Regions: Sendable, Equatable {
        case notYet
        case confirmed([Region])
    }

    /// The text regions of a photo and the rule that chose which are covered.
    public struct TextRegions: Codable, Sendable, Equatable {
        /// The `--text-match` that chose them (nil: every region is covered when found).
        public var match: String?
        public var items: [TextRegion]
        public init(match: String?, items: [TextRegion]) { self.match = match; self.items = items }
    }

    /// One region of text: its quadrilateral (normalized, origin upper-left,
    /// corners in reading order), the detector's score, the reading when it
    /// was read, and whether it is covered (`--drop tN` / `--undrop tN`).
    public struct TextRegion: Codable, Sendable, Equatable {
        public var corners: [[Double]]
        public var confidence: Float
        public var text: String?
        public var covered: Bool
        public init(corners: [[Double]], confidence: Float, text: String?, covered: Bool) {
            self.corners = corners; self.confidence = confidence; self.text = text; self.covered = covered
        }
    }

    public struct Export: Codable, Sendable, Equatable {
        public var file: String
        public var sha256: String
        public var date: String
    }
}

// MARK: - JSON shape of the enums: {"status": "...", ...fields}

extension EditingState.Detection: StatusCoded {
    struct Recognized: Codable { var threshold: Float; var faces: [EditingState.Face] }

    static let doneStatus = "recognized"
    init(done fields: Recognized) { self = .recognized(threshold: fields.threshold, faces: fields.faces) }
    var doneFields: Recognized? {
        guard case let .recognized(threshold, faces) = self else { return nil }
        return Recognized(threshold: threshold, faces: faces)
    }
}

extension EditingState.Regions: StatusCoded {
    struct Confirmed: Codable { var regions: [EditingState.Region] }

    static let doneStatus = "confirmed"
    init(done fields: Confirmed) { self = .confirmed(fields.regions) }
    var doneFields: Confirmed? {
        guard case let .confirmed(regions) = self else { return nil }
        return Confirmed(regions: regions)
    }
}

/// The state's two-phase enums (`notYet`, then done with fields) are written
/// `{"status": CASE, ...fields}`: the fields of the case sit beside its name.
/// One coder for both.
protocol StatusCoded: Codable {
    associatedtype Fields: Codable
    static var notYet: Self { get }
    /// The done case's name ("recognized", "confirmed").
    static var doneStatus: String { get }
    init(done fields: Fields)
    /// nil while `notYet`.
    var doneFields: Fields? { get }
}

enum StatusKey: String, CodingKey {
    case status
}

extension StatusCoded {
    public init(from decoder: Decoder) throws {
        let status = try decoder.container(keyedBy: StatusKey.self).decode(String.self, forKey: .status)
        switch status {
        case "notYet": self = .notYet
        case Self.doneStatus: self.init(done: try Fields(from: decoder))
        default: throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown status \(status)"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: StatusKey.self)
        try container.encode(doneFields == nil ? "notYet" : Self.doneStatus, forKey: .status)
        try doneFields?.encode(to: encoder)
    }
}

// MARK: - Reading, writing and using

extension EditingState {
    /// Writes the sidecar atomically.
    public func write(to url: URL) throws {
        try AtomicFile.write(sidecarData(), to: url)
    }

    /// The sidecar's bytes, keys sorted for stable diffs.
    func sidecarData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    var size: PixelSize { PixelSize(width: source.width, height: source.height) }

    /// The regions to cover now: the confirmed list, or every detected face.
    public var effectiveRegions: [Region] {
        switch regions {
        case let .confirmed(list): return list
        case .notYet:
            guard case let .recognized(_, faces) = faces else { return [] }
            return faces.enumerated().map { Region(box: $0.element.box, face: $0.offset) }
        }
    }

    /// The regions and strokes in pixels, ready for `FaceCover`. A box the
    /// user drew (no face index) is covered as drawn, to its corners, whatever
    /// the faces' shape: through a disc inscribed in it, "World's Largest
    /// Selfie" boxed whole came out with only "d's L" covered.
    public func coverInput() -> (regions: [CoverRegion], strokes: [VeilKit.Stroke]) {
        let w = Double(source.width), h = Double(source.height)
        let regions = effectiveRegions.map {
            CoverRegion(rect: ImageRect(x: $0.box.x * w, y: $0.box.y * h, width: $0.box.width * w, height: $0.box.height * h),
                        shape: $0.face == nil ? .box : shape)
        }
        let strokes = self.strokes.map { $0.inPixels(width: w, height: h) }
        return (regions, strokes + coveredText() + coveredPeople())
    }

    /// The covered text regions as filled polygons, in pixels: the mask
    /// follows each quadrilateral, at any angle, to its corners.
    public func coveredText() -> [VeilKit.Stroke] {
        let w = Double(source.width), h = Double(source.height)
        return (texts?.items ?? []).filter(\.covered).map { item in
            VeilKit.Stroke(points: item.corners.compactMap { $0.count == 2 ? ImageRect.Point(x: $0[0] * w, y: $0[1] * h) : nil },
                           width: 0, filled: true)
        }
    }
}

extension EditingState.Box {
    /// The box for a pixel rectangle (origin top-left) in an image of `size`.
    public init(_ rect: ImageRect, in size: PixelSize) {
        let w = Double(size.width), h = Double(size.height)
        self.init(x: rect.x / w, y: rect.y / h, width: rect.width / w, height: rect.height / h)
    }
}

extension EditingState {
    /// The photo's detection alone, as a fresh state for a photo named
    /// `file`: every face found, none dropped, no box drawn, no pen, the
    /// text regions found with each covered as its match rule says (not as
    /// anyone toggled it), the default cover. What may be shared between
    /// people who send the same bytes, where edits never may.
    public func detectionsOnly(file: String) -> EditingState {
        var state = EditingState(source: .init(file: file, sha256: source.sha256, width: source.width, height: source.height),
                                 original: file, faces: faces, regions: .notYet, strokes: [],
                                 style: .default, shape: .disc, maskScale: 1, exported: nil)
        if let texts {
            let (w, h) = (Double(source.width), Double(source.height))
            let rule: [Bool]
            if let spelling = texts.match {
                let match = try? TextMatch(spelling)
                rule = match?.matches(texts.items.map { item in
                    (corners: item.corners.map { ImageRect.Point(x: $0[0] * w, y: $0[1] * h) }, text: item.text ?? "")
                }) ?? texts.items.map { _ in true }
            } else {
                rule = texts.items.map { _ in true }
            }
            state.texts = TextRegions(match: texts.match, items: zip(texts.items, rule).map {
                TextRegion(corners: $0.0.corners, confidence: $0.0.confidence, text: $0.0.text, covered: $0.1)
            })
        }
        state.people = people
        state.resetPeople()
        return state
    }
}
