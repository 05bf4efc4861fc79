/// Where a photo gets finer detector passes: only round the small faces its
/// first passes saw.
///
/// Upsampling finds the 8–16 px faces of a crowd that a pass at the photo's
/// own scale misses, and costs four times the pixels. Paid on every tile of
/// every photo it made `veil blur` 0.39x deface's speed, portraits and group
/// photos alike. A small face is rarely alone, and the first pass, read at a
/// low `hintThreshold`, sees most of them weakly (a score of 0.1 on a 10 px
/// face it does not report): so the finer tiles run only where it saw a face
/// smaller than `smallFace`, at any score down to the hint. A portrait costs
/// one pass; a crowd costs the tiles its small faces lie in.
public struct DetectionRefinement: Sendable, Hashable {
    /// The finer tiles are resampled by this.
    public var scale: Double
    /// First-pass sightings down to this score count as hints.
    public var hintThreshold: Float
    /// Faces with a shorter side below this (image pixels) ask for the finer passes round them.
    public var smallFace: Double
    /// How far round a hint (image pixels) its neighbours may lie.
    public var reach: Double

    public init(scale: Double = 2, hintThreshold: Float = 0.1, smallFace: Double = 32, reach: Double = 64) {
        self.scale = scale; self.hintThreshold = hintThreshold; self.smallFace = smallFace; self.reach = reach
    }

    /// Every finer tile an image of `size` could get: the tiler's grid at `scale`.
    func tiles(for size: PixelSize, tiling: DetectionTiling) -> [DetectionPass] {
        var fine = tiling
        fine.tileScale = scale
        return fine.tiles(for: size)
    }

    /// The tiles that hold a small sighting, or lie within `reach` of one.
    func chosen(_ tiles: [DetectionPass], seen: [DetectedFace]) -> [DetectionPass] {
        let hints = seen.filter { $0.score >= hintThreshold && min($0.box.width, $0.box.height) < smallFace }
        guard !hints.isEmpty else { return [] }
        return tiles.filter { tile in
            let r = tile.region
            return hints.contains { h in
                h.box.midX >= Double(r.x) - reach && h.box.midX <= Double(r.x + r.width) + reach
                    && h.box.midY >= Double(r.y) - reach && h.box.midY <= Double(r.y + r.height) + reach
            }
        }
    }
}

/// A request's progress over its passes, weighted by their network pixels
/// (what they cost), reported to its `progressHandler` after each pass.
struct PassProgress {
    var total: Double
    private(set) var done = 0.0
    let handler: (@Sendable (Double) -> Void)?

    init(total: Double, handler: (@Sendable (Double) -> Void)?) { self.total = total; self.handler = handler }

    static func cost(_ passes: [DetectionPass]) -> Double {
        passes.reduce(0) { $0 + Double($1.region.width * $1.region.height) * $1.scale * $1.scale }
    }

    /// Counts `pass` done, and reports unless `quietly` (the last first pass
    /// is reported once the finer passes, and so the total, are known).
    mutating func advance(by pass: DetectionPass, quietly: Bool = false) {
        done += PassProgress.cost([pass])
        if !quietly { report() }
    }

    func report() {
        if let handler, total > 0 { handler(min(1, done / total)) }
    }
}
