/// A text region in pixels of the image searched (origin top-left): the
/// four corners in reading order (top-left, top-right, bottom-right,
/// bottom-left) and the detector's score. What the requests turn into
/// observations and the editing state keeps.
struct DetectedText: Sendable, Hashable {
    var corners: [ImageRect.Point]
    var score: Float

    /// The axis-aligned box around the corners.
    var bounds: ImageRect {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = xs.min() ?? 0, y0 = ys.min() ?? 0
        return ImageRect(x: x0, y: y0, width: (xs.max() ?? 0) - x0, height: (ys.max() ?? 0) - y0)
    }

    /// The text's height across its line (the shorter side of the quadrilateral).
    var lineHeight: Double {
        func distance(_ a: ImageRect.Point, _ b: ImageRect.Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        return min(distance(corners[0], corners[3]), distance(corners[0], corners[1]))
    }

    func mapped(dx: Double, dy: Double, sx: Double, sy: Double) -> DetectedText {
        DetectedText(corners: corners.map { ImageRect.Point(x: $0.x * sx + dx, y: $0.y * sy + dy) }, score: score)
    }

    /// Clipped to an image of `size` (corners held inside it, as PaddleOCR does).
    func clipped(to size: PixelSize) -> DetectedText {
        let w = Double(size.width), h = Double(size.height)
        return DetectedText(corners: corners.map { ImageRect.Point(x: min(max($0.x, 0), w), y: min(max($0.y, 0), h)) }, score: score)
    }
}

extension Array where Element == DetectedText {
    /// The same text found by two passes (tiles overlap) kept once: the
    /// higher-scoring of any two whose boxes overlap by more than `iou`, or
    /// whose smaller box lies mostly inside the larger.
    func withoutDuplicates(iou: Double = 0.5) -> [DetectedText] {
        var kept: [DetectedText] = []
        for text in sorted(by: { $0.score > $1.score }) {
            let box = text.bounds
            let duplicate = kept.contains { other in
                let o = other.bounds
                guard let overlap = box.intersection(o) else { return false }
                return box.iou(o) > iou || overlap.area > 0.8 * Swift.min(box.area, o.area)
            }
            if !duplicate { kept.append(text) }
        }
        return kept
    }
}
