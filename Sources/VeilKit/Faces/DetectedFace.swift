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
/// overlapping by more than `iou`.
func nonMaximumSuppression(_ faces: [DetectedFace], iou threshold: Double) -> [DetectedFace] {
    var kept: [DetectedFace] = []
    for face in faces.sorted(by: { $0.score > $1.score })
    where !kept.contains(where: { $0.box.iou(face.box) > threshold }) {
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
