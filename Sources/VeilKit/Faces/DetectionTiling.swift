/// How an image is cut into detector passes: one tiler for photos (all passes
/// at once) and video (`DetectionSchedule` spreads them over frames).
///
/// Large faces need the whole image; small ones need full resolution or more,
/// and one full-resolution pass over a large image costs too much memory. So
/// an image above `wholePixels` gets a whole-image pass shrunk to that budget
/// plus a grid of tiles run at `tileScale`, overlapping so that every face
/// smaller than the overlap lies whole inside some tile. A face cut by a
/// tile's inner edge is dropped from that tile (its neighbour or the whole
/// pass sees it whole), and the shrunk whole pass keeps only faces of at least
/// `wholeMinFace` pixels: on faces-small its boxes for 8–30 px faces are worse
/// placed than the tiles' and, merged by score, suppressed good ones
/// (docs/design/faces.md#tiling).
public struct DetectionTiling: Sendable, Hashable {
    /// Pixels of the whole-image pass; images this small get no tiles at scale 1.
    public var wholePixels: Int
    /// Pixels of one tile as the network sees it (after `tileScale`).
    public var tilePixels: Int
    /// Overlap of neighbouring tiles, in network pixels.
    public var overlap: Int
    /// Tiles are resampled by this: 2 finds the 8–16 px faces of a crowd that 1 misses.
    public var tileScale: Double
    /// Smallest face (image pixels) the shrunk whole pass reports when tiles run too.
    public var wholeMinFace: Double
    /// The most pixels one pass hands the network. ONNX Runtime's working
    /// memory grows with a pass's pixels and keeps its largest (CenterFace:
    /// 268 MB of arena for a 1.1-megapixel pass, heaptrack on crowd-1080p), so
    /// a whole pass above this is cut into parts at the same scale that
    /// overlap by `overlap`: the same pixels and faces for half the memory.
    public var maxPassPixels: Int
    /// With tiles, the whole pass is there only for the faces too large to lie
    /// whole in a tile (larger than the tiles' overlap): it is then shrunk
    /// until such a face is this many network pixels, if that is smaller than
    /// the `wholePixels` budget's scale (nil: the budget's scale). A 1600x898
    /// crowd photo's whole pass at the budget's 0.87 cost 1.1 million network
    /// pixels for faces its two tiles had already seen.
    public var tiledWholeFaceSide: Double?

    public init(wholePixels: Int = 1_100_000, tilePixels: Int = 1_048_576, overlap: Int = 256,
                tileScale: Double = 1, wholeMinFace: Double = 48, maxPassPixels: Int = .max, tiledWholeFaceSide: Double? = nil) {
        (self.wholePixels, self.tilePixels, self.overlap, self.tileScale) = (wholePixels, tilePixels, overlap, tileScale)
        (self.wholeMinFace, self.maxPassPixels, self.tiledWholeFaceSide) = (wholeMinFace, maxPassPixels, tiledWholeFaceSide)
    }

    /// The scale of the whole pass over an image of `size` (never enlarged).
    func wholeScale(for size: PixelSize) -> Double {
        let budget = min(1, (Double(wholePixels) / Double(max(1, size.width * size.height))).squareRoot())
        guard let side = tiledWholeFaceSide, needsTiles(size) else { return budget }
        return min(budget, side / (Double(overlap) / tileScale))
    }

    /// The whole image at `wholeScale(for:)`: one pass, or parts of it when it
    /// exceeds `maxPassPixels`.
    public func whole(for size: PixelSize) -> [DetectionPass] {
        let scale = wholeScale(for: size)
        let minFace = scale < 1 ? wholeMinFace : 0
        guard Double(size.width * size.height) * scale * scale > Double(maxPassPixels) else {
            return [DetectionPass(region: PixelRect(x: 0, y: 0, width: size.width, height: size.height), scale: scale,
                                  innerEdges: [], minFace: minFace)]
        }
        // Strips across the longer side, as few as fit, overlapping by `overlap`.
        let overlap = Int((Double(self.overlap) / scale).rounded())
        let across = size.width >= size.height
        let long = across ? size.width : size.height, short = across ? size.height : size.width
        var count = 2
        while Double((long / count + overlap) * short) * scale * scale > Double(maxPassPixels), count < long { count += 1 }
        return layout(size, columns: across ? count : 1, rows: across ? 1 : count, overlap: overlap).map {
            // A face wider than the overlap may be whole in neither strip: its cut pieces are kept.
            DetectionPass(region: $0.region, scale: scale, innerEdges: $0.inner, minFace: minFace, keepsCutFrom: Double(overlap))
        }
    }

    /// Whether the image needs tiles: it is larger than the whole pass, or the
    /// tiles are upsampled (they then find faces the whole pass cannot).
    public func needsTiles(_ size: PixelSize) -> Bool {
        tileScale > 1 || size.width * size.height > wholePixels
    }

    /// Every pass for an image: the whole image, then the tiles when needed.
    public func passes(for size: PixelSize) -> [DetectionPass] {
        needsTiles(size) ? whole(for: size) + tiles(for: size) : whole(for: size)
    }

    /// The grid of tiles covering an image of `size`, each within `tilePixels`
    /// once scaled, overlapping by `overlap` network pixels.
    public func tiles(for size: PixelSize) -> [DetectionPass] {
        tiles(covering: PixelRect(x: 0, y: 0, width: size.width, height: size.height))
    }

    /// Tiles at `tileScale` covering `area` of the image, each within `tilePixels` once scaled,
    /// overlapping by `overlap` network pixels. Only the sides they share are inner: nothing
    /// beyond `area` runs, so a face cut by its border is kept (a part of a face, covered, hides
    /// more than nothing).
    public func tiles(covering area: PixelRect) -> [DetectionPass] {
        let overlap = Int((Double(self.overlap) / tileScale).rounded())
        let size = PixelSize(width: area.width, height: area.height)
        return grid(size, budget: Double(tilePixels) / (tileScale * tileScale), overlap: overlap).map {
            DetectionPass(region: PixelRect(x: area.x + $0.region.x, y: area.y + $0.region.y, width: $0.region.width, height: $0.region.height),
                          scale: tileScale, innerEdges: $0.inner, minFace: 0)
        }
    }

    /// Regions covering `size`, each within `budget` image pixels with the
    /// overlap, neighbours overlapping by `overlap` image pixels.
    private func grid(_ size: PixelSize, budget: Double, overlap: Int) -> [(region: PixelRect, inner: DetectionPass.Edges)] {
        var columns = 1, rows = 1
        while Double((size.width / columns + overlap) * (size.height / rows + overlap)) > budget,
              columns < size.width, rows < size.height {
            if size.width / columns >= size.height / rows { columns += 1 } else { rows += 1 }
        }
        return layout(size, columns: columns, rows: rows, overlap: overlap)
    }

    /// `columns` x `rows` regions covering `size`, neighbours overlapping by
    /// `overlap` image pixels, with the sides that lie inside the image.
    private func layout(_ size: PixelSize, columns: Int, rows: Int, overlap: Int) -> [(region: PixelRect, inner: DetectionPass.Edges)] {
        var out: [(region: PixelRect, inner: DetectionPass.Edges)] = []
        for r in 0..<rows {
            for c in 0..<columns {
                let x0 = max(0, c * size.width / columns - overlap / 2), y0 = max(0, r * size.height / rows - overlap / 2)
                let x1 = min(size.width, (c + 1) * size.width / columns + overlap / 2)
                let y1 = min(size.height, (r + 1) * size.height / rows + overlap / 2)
                var inner: DetectionPass.Edges = []
                if c > 0 { inner.insert(.left) }
                if r > 0 { inner.insert(.top) }
                if c < columns - 1 { inner.insert(.right) }
                if r < rows - 1 { inner.insert(.bottom) }
                out.append((PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), inner))
            }
        }
        return out
    }
}

/// One run of the detector: a region of the image at a scale, and which of
/// its faces to keep.
public struct DetectionPass: Sendable, Hashable {
    public struct Edges: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let left = Edges(rawValue: 1), top = Edges(rawValue: 2)
        public static let right = Edges(rawValue: 4), bottom = Edges(rawValue: 8)
    }

    /// In image pixels.
    public var region: PixelRect
    /// The region is resampled by this before the network sees it.
    public var scale: Double
    /// Sides of `region` that lie inside the image (not on its border).
    public var innerEdges: Edges
    /// Faces smaller than this (image pixels) are left to other passes.
    public var minFace: Double
    /// Faces at least this large (image pixels) are kept even against an
    /// inner edge: no neighbouring region holds them whole.
    public var keepsCutFrom: Double

    public init(region: PixelRect, scale: Double, innerEdges: Edges, minFace: Double, keepsCutFrom: Double = .infinity) {
        (self.region, self.scale, self.innerEdges) = (region, scale, innerEdges)
        (self.minFace, self.keepsCutFrom) = (minFace, keepsCutFrom)
    }

    /// Whether a face found in this pass (box in the region's pixels) is kept:
    /// big enough, and not against an inner edge, where it may be cut.
    func keeps(_ box: ImageRect) -> Bool {
        let margin = 2.0, w = Double(region.width), h = Double(region.height)
        guard min(box.width, box.height) >= minFace else { return false }
        if max(box.width, box.height) >= keepsCutFrom { return true }
        return !((innerEdges.contains(.left) && box.x <= margin) || (innerEdges.contains(.top) && box.y <= margin)
            || (innerEdges.contains(.right) && box.x + box.width >= w - margin)
            || (innerEdges.contains(.bottom) && box.y + box.height >= h - margin))
    }
}
