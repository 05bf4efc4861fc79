/// A region of text found in an image: the answer of
/// `DetectTextRectanglesRequest`, and the place of each
/// `RecognizedTextObservation`.
///
/// As in Vision, everything is normalized to the upright image with the
/// origin at the lower-left corner. The four corners follow the line as it
/// reads (a rotated sign gives a rotated quadrilateral); `boundingBox` is the
/// axis-aligned box around them.
public struct TextObservation: Sendable, Hashable, Codable {
    public var topLeft: NormalizedPoint
    public var topRight: NormalizedPoint
    public var bottomRight: NormalizedPoint
    public var bottomLeft: NormalizedPoint
    public var boundingBox: NormalizedRect
    /// The detector's score in [0, 1]: the mean text probability inside the region.
    public var confidence: Float

    public init(topLeft: NormalizedPoint, topRight: NormalizedPoint, bottomRight: NormalizedPoint, bottomLeft: NormalizedPoint,
                confidence: Float) {
        self.topLeft = topLeft; self.topRight = topRight; self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
        self.confidence = confidence
        let xs = [topLeft.x, topRight.x, bottomRight.x, bottomLeft.x], ys = [topLeft.y, topRight.y, bottomRight.y, bottomLeft.y]
        let x0 = xs.min()!, y0 = ys.min()!
        boundingBox = NormalizedRect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }

    /// The corners in reading order (top-left, top-right, bottom-right, bottom-left).
    public var corners: [NormalizedPoint] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The corners in pixels of an image of `size`, measured from `origin`.
    public func corners(in size: PixelSize, origin: CoordinateOrigin = .lowerLeft) -> [ImageRect.Point] {
        corners.map { $0.toImageCoordinates(size, origin: origin) }
    }

    init(_ text: DetectedText, in size: PixelSize) {
        let w = Double(size.width), h = Double(size.height)
        let p = text.corners.map { NormalizedPoint(x: $0.x / w, y: 1 - $0.y / h) }
        self.init(topLeft: p[0], topRight: p[1], bottomRight: p[2], bottomLeft: p[3], confidence: text.score)
    }
}
