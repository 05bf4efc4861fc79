/// Which passes of the one tiler (`DetectionTiling`) run on which frame.
///
/// Large faces need the whole frame, small distant ones need full resolution,
/// and a 1080p frame at full resolution every frame is far too slow on a CPU.
/// So detection frames alternate: the whole frame shrunk to `wholePixels`
/// (in strips when above `maxPassPixels`), then one tile, the tiles taken in
/// turn. Small faces move little between visits and the tracker carries them
/// meanwhile; measured on the crowd clip this finds what a full-resolution
/// pass finds at a fraction of its cost (see bench/video). The first frame gets every pass at once, so that faces
/// already there are covered from the start.
public struct DetectionSchedule: Sendable, Hashable {
    /// Run the detector on every k-th frame.
    public var every: Int
    /// The passes a frame is cut into (smaller tiles than for photos: one
    /// tile is one frame's detection budget).
    public var tiling: DetectionTiling

    /// Each pass at most 620,000 network pixels: a 1080p whole pass runs as
    /// two halves (5% more pixels), which keeps ONNX Runtime's arena near half
    /// of the 268 MB one 1.1-megapixel pass takes.
    public init(every: Int = 1, tiling: DetectionTiling = DetectionTiling(tilePixels: 520_000, overlap: 96, maxPassPixels: 620_000)) {
        self.every = max(1, every)
        self.tiling = tiling
    }

    /// The whole-frame pass is shrunk to at most this many pixels.
    public var wholePixels: Int {
        get { tiling.wholePixels }
        set { tiling.wholePixels = newValue }
    }
    /// The tiles of a frame that gets every pass (`runsEveryPass`) at this
    /// scale, not the tiling's (nil: the tiling's). A live source's first
    /// frame waits for all of its passes, and every frame after it queues
    /// behind: its cost is the stream's worst latency
    /// (`VideoAnonymizer.Detection.liveFirstTileScale`).
    public var everyPassTileScale: Double?
    /// Pixels of one tile as the network sees it.
    public var tilePixels: Int {
        get { tiling.tilePixels }
        set { tiling.tilePixels = newValue }
    }

    /// Whether frame `index` gets every pass at once: the first frame, and
    /// the first of a shot (no track carries a face into either).
    public func runsEveryPass(index: Int, newShot: Bool) -> Bool { index == 0 || newShot }

    /// The passes for frame `index` of frames of `size` (upright); empty when
    /// the frame is not a detection frame. The first frame of a shot
    /// (`newShot`: after a hard cut) gets every pass, as frame 0 does: no
    /// track carries a face into it.
    public func passes(for index: Int, size: PixelSize, newShot: Bool = false) -> [DetectionPass] {
        guard index % every == 0 || newShot else { return [] }
        let whole = tiling.whole(for: size)
        guard tiling.needsTiles(size) else { return whole }
        if runsEveryPass(index: index, newShot: newShot) {
            var first = tiling
            if let scale = everyPassTileScale { first.tileScale = scale }
            return whole + first.tiles(for: size)
        }
        let tiles = tiling.tiles(for: size)
        let turn = index / every
        // Alone, the shrunk whole pass keeps faces of every size: the tiles
        // come one a frame, in turn, so it is what re-finds small faces between
        // their tile's visits (dropping them cut crowd-1080p's coverage from
        // 99.2% to 90.5%). With the tiles (frame 0) it keeps only large ones,
        // as for a photo, so its rough small boxes do not suppress the tiles'.
        if turn % 2 == 0 {
            return whole.map { var part = $0; part.minFace = 0; return part }
        }
        return [tiles[(turn / 2) % tiles.count]]
    }

    /// Whether `passes` look at every part of a frame of `size` at full
    /// resolution or finer: a sighting they do not find again was not there
    /// to be found (`BoxTracker.update(…, everywhere:)`). A frame small
    /// enough for one whole pass (960x540 at the defaults), or the first of a
    /// shot, does; a tile in turn, or a whole pass shrunk, does not. Checked
    /// on a grid of points, each inside some such pass.
    public static func looksEverywhere(_ passes: [DetectionPass], size: PixelSize) -> Bool {
        let full = passes.filter { $0.scale >= 0.999 }
        guard !full.isEmpty, size.width > 0, size.height > 0 else { return false }
        let steps = 16
        for j in 0...steps {
            for i in 0...steps {
                let x = min(size.width - 1, i * size.width / steps), y = min(size.height - 1, j * size.height / steps)
                guard full.contains(where: { x >= $0.region.x && x < $0.region.x + $0.region.width && y >= $0.region.y && y < $0.region.y + $0.region.height }) else { return false }
            }
        }
        return true
    }
}
