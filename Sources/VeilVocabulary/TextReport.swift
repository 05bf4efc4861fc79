import VeilKit

/// One image's entry in `veil text --json`: each line's reading, its
/// confidence, its corners (pixels of the upright image, origin top-left,
/// in reading order) and Vision's normalized lower-left bounding box.
public struct TextReport: FileReport, Codable, Equatable {
    public struct Line: Codable, Sendable, Equatable {
        public var text: String
        public var confidence: Double
        public var detectorConfidence: Double
        public var corners: [[Double]]
        public var upsideDown: Bool
        public var boundingBox: FacesReport.Box
    }

    public var file: String
    public var width: Int?
    public var height: Int?
    public var texts: [Line]?
    public var error: String?

    public init(file: String, size: PixelSize, lines: [RecognizedTextObservation]) {
        self.file = file
        width = size.width
        height = size.height
        texts = lines.map { line in
            let b = line.boundingBox
            return Line(text: line.topCandidates(1).first?.string ?? "", confidence: Double(line.confidence),
                        detectorConfidence: Double(line.region.confidence),
                        corners: line.region.corners(in: size, origin: .upperLeft).map { [$0.x, $0.y] }, upsideDown: line.upsideDown,
                        boundingBox: FacesReport.Box(x: b.x, y: b.y, width: b.width, height: b.height))
        }
    }

    public init(file: String, error: String) { (self.file, self.error) = (file, error) }

    public var results: JSONText? {
        guard let width, let height, let texts else { return nil }
        return .object([("file", .string(file)), ("width", .int(width)), ("height", .int(height)), ("texts", .array(texts.map { t in
            .object([
                ("text", .string(t.text)), ("confidence", .number(t.confidence)), ("detectorConfidence", .number(t.detectorConfidence)),
                ("corners", .array(t.corners.map { .array($0.map(JSONText.number)) })), ("upsideDown", .bool(t.upsideDown)),
                ("boundingBox", .object([("x", .number(t.boundingBox.x)), ("y", .number(t.boundingBox.y)),
                                         ("width", .number(t.boundingBox.width)), ("height", .number(t.boundingBox.height))])),
            ])
        }))])
    }
}
