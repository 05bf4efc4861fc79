import VeilKit

/// One image's entry in `veil faces --json` and `POST /v1/faces`: pixels of
/// the upright image (origin top-left) and Vision's normalized lower-left box.
///
/// `Codable` for clients and tests that read it back; written through
/// `JSONText` so the keys keep the documented order (JSONEncoder on Linux
/// does not keep declaration order).
public struct FacesReport: FileReport, Codable, Equatable {
    public struct Face: Codable, Sendable, Equatable {
        public var x, y, width, height: Double
        public var confidence: Double
        public var landmarks: [[Double]]
        public var boundingBox: Box
    }

    public struct Box: Codable, Sendable, Equatable {
        public var x, y, width, height: Double
    }

    public var file: String
    public var width: Int?
    public var height: Int?
    public var faces: [Face]?
    public var error: String?

    public init(file: String, size: PixelSize, faces: [FaceObservation]) {
        self.file = file
        width = size.width
        height = size.height
        self.faces = faces.map { face in
            let r = face.boundingBox.toImageCoordinates(size, origin: .upperLeft)
            let marks = (face.landmarks?.points ?? []).map { p -> [Double] in
                let q = p.toImageCoordinates(size, origin: .upperLeft)
                return [q.x, q.y]
            }
            let b = face.boundingBox
            return Face(x: r.x, y: r.y, width: r.width, height: r.height, confidence: Double(face.confidence), landmarks: marks,
                        boundingBox: Box(x: b.x, y: b.y, width: b.width, height: b.height))
        }
    }

    public init(file: String, error: String) { (self.file, self.error) = (file, error) }

    public var results: JSONText? {
        guard let width, let height, let faces else { return nil }
        return .object([("file", .string(file)), ("width", .int(width)), ("height", .int(height)), ("faces", .array(faces.map { f in
            .object([
                ("x", .number(f.x)), ("y", .number(f.y)), ("width", .number(f.width)), ("height", .number(f.height)),
                ("confidence", .number(f.confidence)),
                ("landmarks", .array(f.landmarks.map { .array($0.map(JSONText.number)) })),
                ("boundingBox", .object([("x", .number(f.boundingBox.x)), ("y", .number(f.boundingBox.y)),
                                         ("width", .number(f.boundingBox.width)), ("height", .number(f.boundingBox.height))])),
            ])
        }))])
    }
}
