/// What a person checks a result by: each found or covered region boxed in
/// green, with its landmarks as red dots and its score above it, drawn on a
/// copy of the image. One drawing for `veil faces --preview` and the blur
/// job's side-by-side preview, so both show regions the same way.
public struct ReviewMark: Sendable {
    /// Pixels of the upright image, origin top-left.
    public var box: ImageRect
    public var points: [ImageRect.Point]
    public var label: String?
    /// Drawn in red: a region found but not covered (dropped), to be undone if wrong.
    public var uncovered = false

    public init(box: ImageRect, points: [ImageRect.Point] = [], label: String? = nil, uncovered: Bool = false) {
        self.box = box; self.points = points; self.label = label; self.uncovered = uncovered
    }

    /// `image` with `marks` drawn over it (lines scale with the image), and
    /// each pen stroke traced along its middle in yellow over a dark edge, so
    /// a stroke over any picture shows.
    public static func draw(_ marks: [ReviewMark], strokes: [Stroke] = [], on image: VeilImage) throws -> VeilImage {
        let canvas = try Canvas(image)
        let thickness = max(2, min(image.width, image.height) / 300)
        for stroke in strokes {
            let points = stroke.points.map { ImageRect(x: $0.x, y: $0.y, width: 0, height: 0).integral }
            for (a, b) in zip(points, points.dropFirst()) {
                for (offset, color) in [(thickness, RGB(0, 0, 0)), (-thickness, RGB(0, 0, 0)), (0, RGB(255, 230, 0))] {
                    for d in (offset == 0 ? -thickness / 2...thickness / 2 : offset...offset) {
                        try canvas.line(from: (a.x, a.y + d), to: (b.x, b.y + d), color: color)
                    }
                }
            }
        }
        let labelHeight = max(12, min(image.width, image.height) / 40)
        for mark in marks {
            let r = mark.box.integral
            let color = mark.uncovered ? RGB(255, 40, 40) : RGB(0, 255, 0)
            try canvas.rectangle(r, color: color, thickness: thickness)
            for p in mark.points {
                let dot = ImageRect(x: p.x, y: p.y, width: 0, height: 0).integral  // rounded, never trapping
                try canvas.disc(x: dot.x, y: dot.y, radius: thickness + 1, color: RGB(255, 0, 0))
            }
            if let label = mark.label {
                try canvas.label(label, x: r.x, y: max(0, r.y - labelHeight - 4), height: labelHeight, color: color)
            }
        }
        return try canvas.image
    }
}
