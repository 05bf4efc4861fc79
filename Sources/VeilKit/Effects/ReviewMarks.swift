/// What a person checks a result by: each found or covered region boxed in
/// green, with its landmarks as red dots and its score above it, drawn on a
/// copy of the image. One drawing for `veil faces --preview` and the blur
/// job's side-by-side preview, so both show regions the same way.
public struct ReviewMark: Sendable {
    /// Pixels of the upright image, origin top-left.
    public var box: ImageRect
    public var points: [ImageRect.Point]
    public var label: String?

    public init(box: ImageRect, points: [ImageRect.Point] = [], label: String? = nil) {
        self.box = box; self.points = points; self.label = label
    }

    /// `image` with `marks` drawn over it (lines scale with the image).
    public static func draw(_ marks: [ReviewMark], on image: VeilImage) throws -> VeilImage {
        let canvas = try Canvas(image)
        let thickness = max(2, min(image.width, image.height) / 300)
        let labelHeight = max(12, min(image.width, image.height) / 40)
        for mark in marks {
            let r = mark.box.integral
            try canvas.rectangle(r, color: RGB(0, 255, 0), thickness: thickness)
            for p in mark.points {
                let dot = ImageRect(x: p.x, y: p.y, width: 0, height: 0).integral  // rounded, never trapping
                try canvas.disc(x: dot.x, y: dot.y, radius: thickness + 1, color: RGB(255, 0, 0))
            }
            if let label = mark.label {
                try canvas.label(label, x: r.x, y: max(0, r.y - labelHeight - 4), height: labelHeight, color: RGB(0, 255, 0))
            }
        }
        return try canvas.image
    }
}
