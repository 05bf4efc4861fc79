/// A face in pixel coordinates (origin top-left) while detection works on it,
/// before it is normalized into a `FaceObservation`.
struct DetectedFace: Sendable {
    var box: ImageRect
    var score: Float
    var landmarks: [(x: Double, y: Double)]

    /// The face moved by (dx, dy) and scaled by (sx, sy): from a pass's
    /// resized tile back to the full image.
    func mapped(dx: Double, dy: Double, sx: Double, sy: Double) -> DetectedFace {
        DetectedFace(
            box: ImageRect(x: box.x * sx + dx, y: box.y * sy + dy, width: box.width * sx, height: box.height * sy),
            score: score,
            landmarks: landmarks.map { (x: $0.x * sx + dx, y: $0.y * sy + dy) })
    }

    func observation(in size: PixelSize) -> FaceObservation {
        let h = Double(size.height), w = Double(size.width)
        return FaceObservation(
            boundingBox: NormalizedRect(imageRect: box, in: size, origin: .upperLeft),
            confidence: score,
            landmarks: FaceLandmarks(points: landmarks.map { NormalizedPoint(x: $0.x / w, y: 1 - $0.y / h) }))
    }
}

/// Greedy non-maximum suppression: keeps the best-scoring face of each group
/// overlapping by more than `iou`. Kept faces are filed in a grid of cells the
/// size of the median face, each in every cell it touches, so a candidate is
/// compared only with the kept faces in its own cells (boxes that overlap
/// share a cell): comparing each with every kept face was 1% of a crowd
/// photo's time, and grows with the square of the faces.
func nonMaximumSuppression(_ faces: [DetectedFace], iou threshold: Double) -> [DetectedFace] {
    guard faces.count > 1 else { return faces }
    let sides = faces.map { max($0.box.width, $0.box.height) }.sorted()
    let cell = max(8, sides[sides.count / 2])
    /// The cells a box touches; nil for one too far out to file (a network's overflow).
    func cells(_ b: ImageRect) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
        let edges = [b.x, b.y, b.x + max(0, b.width), b.y + max(0, b.height)].map { ($0 / cell).rounded(.down) }
        guard edges.allSatisfy({ $0.isFinite && abs($0) < 1e9 }) else { return nil }
        let (x0, y0) = (Int(edges[0]), Int(edges[1]))
        return (x0...max(x0, Int(edges[2])), y0...max(y0, Int(edges[3])))
    }
    var kept: [DetectedFace] = []
    var grid: [SIMD2<Int>: [Int]] = [:]
    // Faces many cells wide (a portrait's face among a crowd's) are not filed
    // cell by cell: each candidate checks them all, and they check every kept face.
    var large: [Int] = []
    for face in faces.sorted(by: { $0.score > $1.score }) {
        let filed = cells(face.box)
        let (xs, ys) = filed ?? (0...0, 0...0)
        let isLarge = filed == nil || xs.count > 16 || ys.count > 16
        func overlaps(_ k: Int) -> Bool { kept[k].box.iou(face.box) > threshold }
        let suppressed = isLarge
            ? kept.indices.contains(where: overlaps)
            : large.contains(where: overlaps) || ys.contains { y in xs.contains { x in (grid[SIMD2(x, y)] ?? []).contains(where: overlaps) } }
        guard !suppressed else { continue }
        if isLarge {
            large.append(kept.count)
        } else {
            for y in ys { for x in xs { grid[SIMD2(x, y), default: []].append(kept.count) } }
        }
        kept.append(face)
    }
    return kept
}

/// Drops every face that holds two or more smaller faces scoring higher than
/// it: a face does not contain faces. At privacy thresholds a network finds,
/// now and then, a large weak "face" in the pattern of a crowd (pan-small:
/// a 190x228 box at 0.05-0.08 over a dozen 20 px faces, re-found every few
/// frames); it covered a tenth of the frame and nothing the small faces'
/// own boxes did not. A real face near the camera holds at most weaker
/// false sightings (its eyes), which do not count against it.
func droppingFacesThatHoldFaces(_ faces: [DetectedFace]) -> [DetectedFace] {
    guard faces.count > 2 else { return faces }
    return faces.filter { face in
        let box = face.box, quarter = box.area / 4
        var held = 0
        for other in faces where other.score > face.score && other.box.area < quarter
            && other.box.midX > box.x && other.box.midX < box.x + box.width
            && other.box.midY > box.y && other.box.midY < box.y + box.height {
            held += 1
            if held == 2 { return false }
        }
        return true
    }
}
