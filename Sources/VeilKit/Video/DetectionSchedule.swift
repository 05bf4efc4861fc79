/// Which part of a frame the detector looks at, frame by frame.
///
/// Large faces need the whole frame, small distant ones need full resolution,
/// and a 1080p frame at full resolution every frame is far too slow on a CPU.
/// So detection frames alternate: the whole frame shrunk to `wholePixels`,
/// then one full-resolution tile, the tiles taken in turn. Small faces move
/// little between visits and the tracker carries them meanwhile; measured on
/// the crowd clip this finds what a full-resolution pass finds at a fraction
/// of its cost (see bench/video). The first frame gets everything at once,
/// so that faces already there are covered from the start.
public struct DetectionSchedule: Sendable, Hashable {
    /// Run the detector on every k-th frame.
    public var every: Int
    /// The whole-frame pass is shrunk to at most this many pixels.
    public var wholePixels: Int
    /// Full-resolution tiles: at most this many pixels each, overlapping by `overlap`.
    public var tilePixels: Int
    public var overlap: Int

    public init(every: Int = 1, wholePixels: Int = 1_100_000, tilePixels: Int = 520_000, overlap: Int = 96) {
        self.every = max(1, every)
        self.wholePixels = wholePixels
        self.tilePixels = tilePixels
        self.overlap = overlap
    }

    public enum Pass: Sendable, Hashable {
        case none
        case whole(scale: Double)
        /// The whole frame shrunk and every tile at full resolution.
        case everything(scale: Double, tiles: [PixelRect], innerEdges: [[Bool]])
        /// A region at full resolution; `innerEdges` says which sides are inside the frame.
        case tile(PixelRect, innerEdges: [Bool])
    }

    /// The pass for frame `index` of frames of `size` (upright).
    public func pass(for index: Int, size: PixelSize) -> Pass {
        guard index % every == 0 else { return .none }
        let pixels = size.width * size.height
        let scale = min(1, (Double(wholePixels) / Double(pixels)).squareRoot())
        let tiles = self.tiles(for: size)
        // Small enough for the whole pass to be at full resolution: no tiles needed.
        if scale >= 1 || tiles.count <= 1 { return .whole(scale: scale) }
        if index == 0 { return .everything(scale: scale, tiles: tiles.map(\.rect), innerEdges: tiles.map(\.inner)) }
        let turn = index / every
        if turn % 2 == 0 { return .whole(scale: scale) }
        let tile = tiles[(turn / 2) % tiles.count]
        return .tile(tile.rect, innerEdges: tile.inner)
    }

    /// The grid of full-resolution tiles covering a frame.
    func tiles(for size: PixelSize) -> [(rect: PixelRect, inner: [Bool])] {
        var columns = 1, rows = 1
        while (size.width / columns + overlap) * (size.height / rows + overlap) > tilePixels {
            if size.width / columns >= size.height / rows { columns += 1 } else { rows += 1 }
        }
        var out: [(PixelRect, [Bool])] = []
        for r in 0..<rows {
            for c in 0..<columns {
                let x0 = max(0, c * size.width / columns - overlap / 2), y0 = max(0, r * size.height / rows - overlap / 2)
                let x1 = min(size.width, (c + 1) * size.width / columns + overlap / 2), y1 = min(size.height, (r + 1) * size.height / rows + overlap / 2)
                out.append((PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), [c > 0, r > 0, c < columns - 1, r < rows - 1]))
            }
        }
        return out
    }
}
