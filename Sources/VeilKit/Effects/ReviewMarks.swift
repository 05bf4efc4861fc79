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
        let boxes = marks.map(\.box.integral)
        for (mark, r) in zip(marks, boxes) {
            let color = mark.uncovered ? RGB(255, 40, 40) : RGB(0, 255, 0)
            try canvas.rectangle(r, color: color, thickness: thickness)
            for p in mark.points {
                let dot = ImageRect(x: p.x, y: p.y, width: 0, height: 0).integral  // rounded, never trapping
                try canvas.disc(x: dot.x, y: dot.y, radius: thickness + 1, color: RGB(255, 0, 0))
            }
        }
        // Labels last, each where it overlaps no other (a crowd's numbers stacked
        // on each other could not be read: "52 15 50"), joined to its box by a
        // leader line when it had to move away from it.
        let labelled = marks.indices.filter { marks[$0].label != nil }
        let texts = try labelled.map { try Canvas.Text(marks[$0].label!, height: labelHeight) }
        let places = placeLabels(boxes: labelled.map { boxes[$0] }, sizes: texts.map { PixelSize(width: $0.width, height: $0.height) },
                                 within: PixelSize(width: image.width, height: image.height), avoiding: boxes)
        for ((i, text), place) in zip(zip(labelled, texts), places) {
            let color = marks[i].uncovered ? RGB(255, 40, 40) : RGB(0, 255, 0)
            if place.leader {
                let r = boxes[i]
                let from = (x: r.x + r.width / 2, y: place.rect.y > r.y ? r.y + r.height : r.y)
                let to = (x: min(max(from.x, place.rect.x), place.rect.x + place.rect.width), y: place.rect.y > r.y ? place.rect.y : place.rect.y + place.rect.height)
                try canvas.line(from: from, to: to, color: color)
            }
            try canvas.label(text, x: place.rect.x, y: place.rect.y, color: color)
        }
        return try canvas.image
    }

    /// Where each label goes (`sizes[i]` for `boxes[i]`), in order: the first
    /// of its candidate places — above its box, below, then shifted sideways,
    /// then rows further above and below — that stays inside the picture and
    /// overlaps no label placed before it, preferring places that cover no
    /// other box (`avoiding`). `leader`: placed away from its box. When every
    /// candidate is taken, the first row free of labels above the box.
    static func placeLabels(boxes: [PixelRect], sizes: [PixelSize], within bounds: PixelSize, avoiding: [PixelRect]) -> [(rect: PixelRect, leader: Bool)] {
        func meets(_ a: PixelRect, _ b: PixelRect) -> Bool {
            a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
        }
        var placed: [PixelRect] = []
        var out: [(rect: PixelRect, leader: Bool)] = []
        for (r, size) in zip(boxes, sizes) {
            let (w, h) = (size.width, size.height)
            func at(_ x: Int, _ y: Int) -> PixelRect {
                PixelRect(x: min(max(0, x), max(0, bounds.width - w)), y: min(max(0, y), max(0, bounds.height - h)), width: w, height: h)
            }
            var candidates: [(PixelRect, Bool)] = [(at(r.x, r.y - h - 2), false), (at(r.x, r.y + r.height + 2), false)]
            for k in 1...3 {
                for dx in [k * w / 2 + 2, -(k * w / 2 + 2)] {
                    candidates += [(at(r.x + dx, r.y - h - 2), true), (at(r.x + dx, r.y + r.height + 2), true)]
                }
            }
            for m in 1...8 {
                for dx in [0, w / 2 + 2, -(w / 2 + 2)] {
                    candidates += [(at(r.x + dx, r.y - h - 2 - m * (h + 2)), true), (at(r.x + dx, r.y + r.height + 2 + m * (h + 2)), true)]
                }
            }
            let free = candidates.filter { c in !placed.contains { meets($0, c.0) } }
            let chosen = free.first { c in !avoiding.contains { $0 != r && meets($0, c.0) } } ?? free.first
                ?? (at(r.x, r.y - h - 2), false)
            placed.append(chosen.0)
            out.append((chosen.0, chosen.1))
        }
        return out
    }
}
