/// The pen over time: a stroke painted on every frame of a range (a name
/// on a whiteboard in view for a while, a screen that must not be read),
/// what the photo pen is for a photo. Kept in the state as
/// `"strokes": [{"first": F1, "last": F2, "stroke": {"points": [[x, y], ...], "width": w}}]`,
/// normalized as the photo state's strokes are (points as fractions of the
/// frame's width and height, the width as a fraction of its longest side).
/// States written before strokes have none (the key is absent, version 1);
/// a state holding strokes is written as version 2, so a Veil that does not
/// know them refuses it rather than re-rendering without them.
extension VideoEditingState {
    public struct PenStroke: Codable, Sendable, Equatable {
        /// The first and last frame it is painted on.
        public var first: Int
        public var last: Int
        public var stroke: Stroke

        public init(first: Int, last: Int, stroke: Stroke) { self.first = first; self.last = last; self.stroke = stroke }
    }

    /// The version a state with pen strokes is written as.
    public static let strokesVersion = 2

    /// The strokes painted on `frame`, in pixels of the stored frame.
    public func strokes(at frame: Int) -> [Stroke] {
        (strokes ?? []).filter { $0.first <= frame && frame <= $0.last }
            .map { $0.stroke.inPixels(width: Double(source.width), height: Double(source.height)) }
    }

    /// Adds strokes given in pixels of the stored frame.
    mutating func paint(_ added: [PenStroke]) {
        guard !added.isEmpty else { return }
        let (w, h) = (Double(source.width), Double(source.height))
        strokes = (strokes ?? []) + added.map { p in
            let normalized = Stroke(points: p.stroke.points.map { ImageRect.Point(x: $0.x / w, y: $0.y / h) }, width: p.stroke.width / max(w, h))
            return PenStroke(first: min(p.first, p.last), last: max(p.first, p.last), stroke: normalized)
        }
        version = max(version, Self.strokesVersion)
    }

    /// Strokes are checked as the photo state's are (finite points near the
    /// frame, widths above 0 and at most 2, counts bounded), and their
    /// frames must be frames of the video.
    func validateStrokes(lastFrame: Int, fail: (String) -> VeilError) throws {
        guard let strokes else { return }
        for pen in strokes {
            guard (0...lastFrame).contains(pen.first), (0...lastFrame).contains(pen.last), pen.first <= pen.last else {
                throw fail("a pen stroke on frames \(pen.first)...\(pen.last) of a \(source.frames)-frame video")
            }
            guard !pen.stroke.filled else { throw fail("a pen stroke cannot be filled") }
        }
        try EditingState.validate(strokes: strokes.map(\.stroke), fail: fail)
    }
}
