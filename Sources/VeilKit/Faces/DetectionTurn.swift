import Foundation

/// A second look at a photo whose faces lean the same way: the whole photo
/// turned until they are upright, and the privacy passes run on it too.
///
/// CenterFace was trained on upright faces. Heads turned 35° in the picture's
/// plane (a camera held at a slant, a crowd filmed from a stair) are seen at
/// 0.07–0.15 where a texture is seen too, and a crowd turned 35° lost one
/// face in fifteen; turned back it is a crowd like any other. The faces it
/// is sure of say the turn: their eye lines agree (the median is within a
/// few degrees of each, and reads about 27° at 35°: the network leans small
/// faces' landmarks upright), where an upright photo's read 0 ± 7°. Only
/// faces seen frontally count: a profile's eye line is its pose, not the
/// photo's (`unlabeled/24.jpg`'s upturned profiles read 16°).
public struct DetectionTurn: Sendable, Hashable {
    /// A photo is turned when its sure faces' median eye line leans at least this much (degrees).
    public var leastAngle: Double
    /// Sure faces needed to say so.
    public var leastFaces: Int
    /// A sure face scores at least this (the analysis threshold).
    public var sureScore: Float
    /// Eyes at least this share of the box's longer side apart: a face seen from the front.
    public var frontalEyes: Double

    /// The largest turned canvas turned once into memory (3 bytes a pixel: 120 MB at the default;
    /// a 100-megapixel photo turned 45° is 200 megapixels). Beyond, each pass turns its own
    /// region: the same faces, but on the crowds turned 35° that took 1.10x the time (the passes
    /// overlap) for 0.96x the peak memory.
    public var inMemoryPixels: Int

    public init(leastAngle: Double = 12, leastFaces: Int = 3, sureScore: Float = 0.5, frontalEyes: Double = 0.3,
                inMemoryPixels: Int = 40_000_000) {
        self.leastAngle = leastAngle; self.leastFaces = leastFaces; self.sureScore = sureScore; self.frontalEyes = frontalEyes
        self.inMemoryPixels = inMemoryPixels
    }

    /// Degrees to turn the photo clockwise (as seen) to set its faces upright,
    /// or nil when they do not lean together enough to be worth a second look.
    func correction(for faces: [DetectedFace]) -> Double? {
        var lines: [Double] = []
        for face in faces where face.score >= sureScore && face.landmarks.count >= 2 {
            let left = face.landmarks[0], right = face.landmarks[1]
            let dx = right.x - left.x, dy = right.y - left.y
            guard (dx * dx + dy * dy).squareRoot() >= frontalEyes * max(face.box.width, face.box.height) else { continue }
            lines.append(atan2(dy, dx) * 180 / .pi)
        }
        guard lines.count >= leastFaces else { return nil }
        // Angles wrap (an upside-down photo's read ±180): the median is taken of each
        // line's lean from their mean direction, then added back.
        let mean = atan2(lines.reduce(0) { $0 + sin($1 * .pi / 180) }, lines.reduce(0) { $0 + cos($1 * .pi / 180) }) * 180 / .pi
        let leans = lines.map { remainder($0 - mean, 360) }.sorted()
        let middle = leans.count / 2
        let median = remainder(mean + (leans.count % 2 == 1 ? leans[middle] : (leans[middle - 1] + leans[middle]) / 2), 360)
        // An eye line leaning by θ (y down) is levelled by a turn of -θ.
        return abs(median) >= leastAngle ? -median : nil
    }
}

extension DetectedFace {
    /// A face found on `rotation`'s turned canvas, back on its source: the
    /// centre and landmarks mapped, the size kept (the cover is a disc or an
    /// ellipse about the centre, which the turn does not change), clipped to
    /// the source.
    func turnedBack(_ rotation: PlaneRotation) -> DetectedFace? {
        let centre = rotation.sourcePoint(of: (x: box.midX, y: box.midY))
        let w = Double(rotation.source.width), h = Double(rotation.source.height)
        let x0 = max(0, centre.x - box.width / 2), y0 = max(0, centre.y - box.height / 2)
        let x1 = min(w, centre.x + box.width / 2), y1 = min(h, centre.y + box.height / 2)
        guard x1 > x0, y1 > y0 else { return nil }
        return DetectedFace(box: ImageRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), score: score,
                            landmarks: landmarks.map { rotation.sourcePoint(of: $0) })
    }
}
