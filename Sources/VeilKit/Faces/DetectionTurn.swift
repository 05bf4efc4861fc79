import Foundation

/// A second look at a photo whose faces lean the same way: the whole photo
/// turned until they are upright, and the privacy passes run on it too.
///
/// CenterFace was trained on upright faces. Heads turned in the picture's
/// plane (a camera held at a slant, a crowd filmed from a stair) are seen as
/// weakly as a texture, and the small ones are lost; turned back, the crowd
/// is a crowd like any other. The faces it is sure of say the turn: their
/// eye lines agree, where an upright photo's read level. Only faces seen
/// frontally count: a profile's eye line is its pose, not the photo's.
///
/// A photo stored sideways without its orientation tag is the same problem
/// at a quarter turn, and the frontal rule cannot see it: CenterFace sets
/// such faces' eyes close together on steep lines, which no upright photo's
/// sure faces have, so most sure faces steep the same way say the photo lies
/// on its side: it is turned a quarter, exactly (`sidewaysShare`). The
/// measurements:
/// docs/design/faces.md#photos-whose-faces-lean-together-a-second-look-turned-upright,
/// docs/design/faces.md#photos-on-their-side-a-quarter-turn-read-or-probed.
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
    /// region: the same faces, a little slower (the passes overlap) for a little less memory
    /// (docs/design/faces.md#photos-whose-faces-lean-together-a-second-look-turned-upright).
    public var inMemoryPixels: Int
    /// A photo lies on its side when at least `leastFaces` of its sure faces,
    /// and at least this share of them, have eye lines steeper than 45° the
    /// same way (nil: never). The crowds turned ±90° are 0.5–1 such faces.
    public var sidewaysShare: Double?
    /// A photo whose upright passes are sure of fewer than `leastFaces` faces
    /// but see at least this many at `probeScore` is looked at turned a
    /// quarter each way and upside down (nil: never). Such a crowd on its
    /// side is seen weakly, its small faces' landmarks drawn upright: no eye
    /// line tells the turn. The upright dev photos see at most 3 such
    /// sightings where they are sure of fewer than 3 faces; the crowds on
    /// their sides or upside down 8 to 29, and `TurnedCrowdTests`' 24
    /// astronauts turned 90° 7. A probe that finds no turn costs time only.
    public var probeSightings: Int?
    /// The score a sighting needs to count towards `probeSightings`.
    public var probeScore: Float = 0.2

    public init(leastAngle: Double = 12, leastFaces: Int = 3, sureScore: Float = 0.5, frontalEyes: Double = 0.3,
                inMemoryPixels: Int = 40_000_000, sidewaysShare: Double? = 0.5, probeSightings: Int? = 6) {
        self.leastAngle = leastAngle; self.leastFaces = leastFaces; self.sureScore = sureScore; self.frontalEyes = frontalEyes
        self.inMemoryPixels = inMemoryPixels; self.sidewaysShare = sidewaysShare; self.probeSightings = probeSightings
    }

    /// `image` turned clockwise by `degrees`, its canvas in memory when it
    /// holds at most `inMemoryPixels` (beyond, each pass turns its own region).
    func canvas(turning image: VeilImage, by degrees: Double) throws -> (image: VeilImage, rotation: PlaneRotation) {
        let (turned, rotation) = try image.rotated(clockwise: degrees)
        return (turned.width * turned.height <= inMemoryPixels ? try turned.materialized() : turned, rotation)
    }

    /// The turns a probe tries, in this order: a quarter clockwise, a quarter anticlockwise, upside down.
    static let probeTurns: [Double] = [90, -90, 180]

    /// Whether the upright passes' sightings `seen` ask for the probe: few sure faces, many weak ones.
    func probes(_ seen: [DetectedFace]) -> Bool {
        guard let least = probeSightings else { return false }
        return seen.filter { $0.score >= sureScore }.count < leastFaces && seen.filter { $0.score >= probeScore }.count >= least
    }

    /// The probed turn to take: the one sure of the most faces, at least
    /// `leastFaces` and more than twice the upright passes' (`uprightSure`).
    func bestProbe(uprightSure: Int, sure: [(degrees: Double, count: Int)]) -> Double? {
        guard let best = sure.max(by: { $0.count < $1.count }), best.count >= leastFaces, best.count > 2 * uprightSure else { return nil }
        return best.degrees
    }

    /// Degrees to turn the photo clockwise (as seen) to set its faces upright,
    /// or nil when they do not lean together enough to be worth a second look.
    func correction(for faces: [DetectedFace]) -> Double? {
        var lines: [Double] = [], sure: [Double] = []
        for face in faces where face.score >= sureScore && face.landmarks.count >= 2 {
            let left = face.landmarks[0], right = face.landmarks[1]
            let dx = right.x - left.x, dy = right.y - left.y, line = atan2(dy, dx) * 180 / .pi
            sure.append(line)
            guard (dx * dx + dy * dy).squareRoot() >= frontalEyes * max(face.box.width, face.box.height) else { continue }
            lines.append(line)
        }
        guard lines.count >= leastFaces else { return sideways(sure) }
        // Angles wrap (an upside-down photo's read ±180): the median is taken of each
        // line's lean from their mean direction, then added back.
        let mean = atan2(lines.reduce(0) { $0 + sin($1 * .pi / 180) }, lines.reduce(0) { $0 + cos($1 * .pi / 180) }) * 180 / .pi
        let leans = lines.map { remainder($0 - mean, 360) }.sorted()
        let middle = leans.count / 2
        let median = remainder(mean + (leans.count % 2 == 1 ? leans[middle] : (leans[middle - 1] + leans[middle]) / 2), 360)
        // An eye line leaning by θ (y down) is levelled by a turn of -θ.
        return abs(median) >= leastAngle ? -median : nil
    }

    /// A quarter turn for a photo on its side, read from its sure faces' eye
    /// `lines` (degrees, y down): lines steep downward (-45° to -135°) are
    /// levelled by turning clockwise, steep upward ones anticlockwise.
    private func sideways(_ lines: [Double]) -> Double? {
        guard let share = sidewaysShare, lines.count >= leastFaces else { return nil }
        let down = lines.filter { $0 <= -45 && $0 >= -135 }.count, up = lines.filter { $0 >= 45 && $0 <= 135 }.count
        let most = max(down, up), needed = max(Double(leastFaces), share * Double(lines.count))
        guard Double(most) >= needed, down != up else { return nil }
        return down > up ? 90 : -90
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
        // Nearer a quarter turn than upright, the box's sides swap.
        let a = rotation.degrees * .pi / 180, across = abs(sin(a)) > abs(cos(a))
        let width = across ? box.height : box.width, height = across ? box.width : box.height
        let x0 = max(0, centre.x - width / 2), y0 = max(0, centre.y - height / 2)
        let x1 = min(w, centre.x + width / 2), y1 = min(h, centre.y + height / 2)
        guard x1 > x0, y1 > y0 else { return nil }
        return DetectedFace(box: ImageRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), score: score,
                            landmarks: landmarks.map { rotation.sourcePoint(of: $0) })
    }
}
