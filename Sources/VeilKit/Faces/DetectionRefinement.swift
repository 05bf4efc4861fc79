/// Where a photo gets finer detector passes: only round the small faces its
/// first passes saw.
///
/// Upsampling finds the small faces of a crowd that a pass at the photo's
/// own scale misses, at four times the pixels; paid on every tile of
/// every photo, portraits and group photos would pay it too. A small face is
/// rarely alone, and the first pass, read at a low `hintThreshold`, sees most
/// of them weakly: so the finer passes run only within `reach` of where it
/// saw a face smaller than `smallFace`, at any score down to the hint. A
/// portrait costs one pass; a crowd costs the area its small faces span
/// (docs/design/faces.md#photos-detection-where-faces-can-be).
public struct DetectionRefinement: Sendable, Hashable {
    /// The finer tiles are resampled by this.
    public var scale: Double
    /// First-pass sightings down to this score count as hints.
    public var hintThreshold: Float
    /// Faces with a shorter side below this (image pixels) ask for the finer passes round them.
    public var smallFace: Double
    /// How far round a hint (image pixels) its neighbours may lie.
    public var reach: Double
    /// Overlap of neighbouring finer tiles, in network pixels: enough for a
    /// face of 1.5x `smallFace` to lie whole in one (larger faces are the
    /// first passes'), not the tiler's 256, which at 2x spent a third of a
    /// crowd's finer pixels twice.
    public var overlap: Int

    /// A sighting scoring below this is a hint only with another hint within
    /// `reach`: a small face is rarely alone, and one weak sighting on its own
    /// is more often a portrait's texture (the astronaut's 0.075 at 15x20 px
    /// cost it a second pass).
    public var loneHintThreshold: Float

    /// A scale of 1.5, not 2, with hints down to 0.07: the same faces covered
    /// on the three dev sets for fewer pixels
    /// (docs/design/faces.md#photos-detection-where-faces-can-be).
    public init(scale: Double = 1.5, hintThreshold: Float = 0.07, loneHintThreshold: Float = 0.1, smallFace: Double = 32,
                reach: Double = 64, overlap: Int = 96) {
        self.scale = scale; self.hintThreshold = hintThreshold; self.loneHintThreshold = loneHintThreshold
        self.smallFace = smallFace; self.reach = reach; self.overlap = overlap
    }

    /// The sightings that ask for finer passes: small, scoring at least
    /// `hintThreshold`, and either `loneHintThreshold` or within `reach` of
    /// another such sighting. Neighbours are found through buckets of the
    /// boxes' top-left corners, `reach` plus the longest side wide: two boxes
    /// within reach have corners no further apart, so they lie in the same
    /// or adjacent buckets.
    func hints(in seen: [DetectedFace]) -> [DetectedFace] {
        let small = seen.filter { $0.score >= hintThreshold && min($0.box.width, $0.box.height) < smallFace }
        guard small.contains(where: { $0.score < loneHintThreshold }) else { return small }
        let side = max(1, reach + (small.map { max($0.box.width, $0.box.height) }.max() ?? 0))
        func bucket(_ f: DetectedFace) -> SIMD2<Int> { SIMD2(Int((f.box.x / side).rounded(.down)), Int((f.box.y / side).rounded(.down))) }
        var buckets: [SIMD2<Int>: [Int]] = [:]
        for (i, f) in small.enumerated() { buckets[bucket(f), default: []].append(i) }
        func near(_ a: DetectedFace, _ b: DetectedFace) -> Bool {
            let dx = max(0, max(a.box.x, b.box.x) - min(a.box.x + a.box.width, b.box.x + b.box.width))
            let dy = max(0, max(a.box.y, b.box.y) - min(a.box.y + a.box.height, b.box.y + b.box.height))
            return dx <= reach && dy <= reach
        }
        return small.enumerated().compactMap { i, f in
            if f.score >= loneHintThreshold { return f }
            let home = bucket(f)
            for dx in -1...1 {
                for dy in -1...1 {
                    for j in buckets[home &+ SIMD2(dx, dy)] ?? [] where j != i && near(f, small[j]) { return f }
                }
            }
            return nil
        }
    }

    /// Every finer tile an image of `size` could get: the tiler's grid at
    /// `scale`, what the progress bar counts before the first passes say more.
    func tiles(for size: PixelSize, tiling: DetectionTiling) -> [DetectionPass] {
        fine(tiling).tiles(for: size)
    }

    /// The finer passes for an image of `size`: the areas within `reach` of a
    /// small sighting, joined where they touch, each cut into the tiler's
    /// tiles at `scale`. A grid tile with one hint in it cost a whole tile;
    /// an area costs what its hints span (on the 36 dev photos 14 million
    /// network pixels against 44 for the grid's tiles).
    func passes(for size: PixelSize, tiling: DetectionTiling, seen: [DetectedFace]) -> [DetectionPass] {
        let fine = fine(tiling)
        return areas(for: size, seen: seen).flatMap { fine.tiles(covering: $0) }
    }

    /// The tiler of the finer passes: `tiling`'s tiles at `scale`, overlapping by `overlap`.
    private func fine(_ tiling: DetectionTiling) -> DetectionTiling {
        var fine = tiling
        fine.tileScale = scale
        fine.overlap = overlap
        return fine
    }

    /// Side of the cells in which the areas are found (image pixels).
    static let cell = 16

    /// The areas round the small sightings: each hint's box grown by `reach`
    /// is marked on a grid of `cell`-pixel cells, and each 4-connected group of
    /// marked cells gives its bounding box; boxes that overlap are joined
    /// (a crowd of a thousand hints is one area, found in one pass over the grid).
    func areas(for size: PixelSize, seen: [DetectedFace]) -> [PixelRect] {
        let hints = hints(in: seen)
        guard !hints.isEmpty, size.width > 0, size.height > 0 else { return [] }
        let cell = Self.cell, columns = (size.width + cell - 1) / cell, rows = (size.height + cell - 1) / cell
        var marked = [Bool](repeating: false, count: columns * rows)
        for h in hints {
            let c0 = max(0, Int((h.box.x - reach) / Double(cell))), c1 = min(columns - 1, Int((h.box.x + h.box.width + reach) / Double(cell)))
            let r0 = max(0, Int((h.box.y - reach) / Double(cell))), r1 = min(rows - 1, Int((h.box.y + h.box.height + reach) / Double(cell)))
            guard c0 <= c1, r0 <= r1 else { continue }
            for r in r0...r1 { for c in c0...c1 { marked[r * columns + c] = true } }
        }
        // Bounding boxes (in cells) of the 4-connected groups.
        var boxes: [(c0: Int, r0: Int, c1: Int, r1: Int)] = []
        var stack: [Int] = []
        for start in marked.indices where marked[start] {
            marked[start] = false
            stack.append(start)
            var box = (c0: start % columns, r0: start / columns, c1: start % columns, r1: start / columns)
            while let i = stack.popLast() {
                let r = i / columns, c = i % columns
                box = (min(box.c0, c), min(box.r0, r), max(box.c1, c), max(box.r1, r))
                for (nr, nc) in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] where nr >= 0 && nr < rows && nc >= 0 && nc < columns {
                    let n = nr * columns + nc
                    if marked[n] { marked[n] = false; stack.append(n) }
                }
            }
            boxes.append(box)
        }
        // Join boxes that overlap, until none do (few boxes: the groups are already joined).
        var joined = true
        while joined {
            joined = false
            outer: for i in boxes.indices {
                for j in boxes.indices where j > i {
                    let a = boxes[i], b = boxes[j]
                    if a.c0 <= b.c1 && b.c0 <= a.c1 && a.r0 <= b.r1 && b.r0 <= a.r1 {
                        boxes[i] = (min(a.c0, b.c0), min(a.r0, b.r0), max(a.c1, b.c1), max(a.r1, b.r1))
                        boxes.remove(at: j)
                        joined = true
                        break outer
                    }
                }
            }
        }
        return boxes.map { b in
            let x = b.c0 * cell, y = b.r0 * cell
            return PixelRect(x: x, y: y, width: min(size.width, (b.c1 + 1) * cell) - x, height: min(size.height, (b.r1 + 1) * cell) - y)
        }
    }
}

/// A request's progress over its passes, weighted by their network pixels
/// (what they cost), reported to its `progressHandler` after each pass.
struct PassProgress {
    var total: Double
    private(set) var done = 0.0
    private var reported = 0.0
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

    /// Never backwards: a total re-estimated upward (a turned look's finer
    /// passes) holds the bar where it was until the work passes it.
    mutating func report() {
        guard let handler, total > 0 else { return }
        reported = max(reported, min(1, done / total))
        handler(reported)
    }
}
