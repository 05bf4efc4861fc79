import VeilKit

/// One image's entry in `veil saliency --json`: each salient object's box in
/// pixels of the upright image (origin top-left), Vision's normalized
/// lower-left `boundingBox`, and the heat map's peak inside it.
public struct SaliencyReport: FileReport, Equatable {
    public struct Object: Sendable, Equatable {
        public var x, y, width, height: Double
        public var confidence: Double
        public var boundingBox: FacesReport.Box
    }

    public var file: String
    public var kind: String?
    public var width: Int?
    public var height: Int?
    public var objects: [Object]?
    public var error: String?

    public init(file: String, kind: String, observation: SaliencyImageObservation) {
        self.file = file
        self.kind = kind
        let size = observation.imageSize
        width = size.width
        height = size.height
        objects = observation.salientObjects.map { object in
            let b = object.boundingBox
            let r = b.toImageCoordinates(size, origin: .upperLeft)
            return Object(x: r.x, y: r.y, width: r.width, height: r.height, confidence: Double(object.confidence),
                          boundingBox: FacesReport.Box(x: b.x, y: b.y, width: b.width, height: b.height))
        }
    }

    public init(file: String, error: String) { (self.file, self.error) = (file, error) }

    public var results: JSONText? {
        guard let width, let height, let objects, let kind else { return nil }
        return .object([("file", .string(file)), ("kind", .string(kind)), ("width", .int(width)), ("height", .int(height)),
                        ("objects", .array(objects.map { o in
            .object([("x", .number(o.x)), ("y", .number(o.y)), ("width", .number(o.width)), ("height", .number(o.height)),
                     ("confidence", .number(o.confidence)),
                     ("boundingBox", .object([("x", .number(o.boundingBox.x)), ("y", .number(o.boundingBox.y)),
                                              ("width", .number(o.boundingBox.width)), ("height", .number(o.boundingBox.height))]))])
        }))])
    }
}
