/// DB's post-processing ("Real-time Scene Text Detection with Differentiable
/// Binarization"; thresholds as PaddleOCR and rapidocr ship them): the
/// network's probability map binarised and dilated by 2x2, its 8-connected
/// regions found, each fitted with its minimum-area rectangle, scored by the
/// mean probability inside that rectangle, and grown ("unclipped") by
/// area x ratio / perimeter, since the network marks a shrunk core of each line.
///
/// All in one pass over the map's buffer plus work per region bounded by its
/// rows and its box: no image library call per region. A map of noise holds
/// at most `maximumCandidates` regions worth scoring; the rest are dropped
/// smallest first.
struct TextMap {
    var threshold: Float = 0.3
    var boxThreshold: Float = 0.5
    var unclipRatio = 1.6
    /// Regions whose rectangle is thinner than this (map pixels) are noise.
    var minimumSide = 3.0
    var maximumCandidates = 1000

    /// Text regions of a `width` x `height` map, in the map's pixels.
    func regions(in map: UnsafeBufferPointer<Float>, width: Int, height: Int,
                 isCancelled: () -> Bool = { false }) -> [DetectedText] {
        guard width > 0, height > 0, map.count >= width * height else { return [] }
        // Binarised then dilated by a 2x2 kernel (anchor at its centre): a pixel
        // is on when it, its left, upper or upper-left neighbour is above the threshold.
        var on = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = y * width
            for x in 0..<width where map[row + x] > threshold {
                on[row + x] = 1
                if x + 1 < width { on[row + x + 1] = 1 }
                if y + 1 < height { on[row + width + x] = 1; if x + 1 < width { on[row + width + x + 1] = 1 } }
            }
        }
        var candidates: [(rect: RotatedRect, pixels: Int)] = []
        var stack: [Int32] = []
        var rowMin = [Int32](repeating: Int32.max, count: height), rowMax = [Int32](repeating: -1, count: height)
        for y0 in 0..<height {
          if isCancelled() { return [] }
          for start in y0 * width..<(y0 + 1) * width where on[start] == 1 {
            // Flood fill, marking visited pixels 2; per row, the extreme columns.
            on[start] = 2
            stack.append(Int32(start))
            var top = height, bottom = -1, count = 0
            while let i = stack.popLast() {
                let p = Int(i), x = p % width, y = p / width
                count += 1
                rowMin[y] = min(rowMin[y], Int32(x)); rowMax[y] = max(rowMax[y], Int32(x))
                top = min(top, y); bottom = max(bottom, y)
                for ny in max(0, y - 1)...min(height - 1, y + 1) {
                    for nx in max(0, x - 1)...min(width - 1, x + 1) where on[ny * width + nx] == 1 {
                        on[ny * width + nx] = 2
                        stack.append(Int32(ny * width + nx))
                    }
                }
            }
            var points: [ImageRect.Point] = []
            points.reserveCapacity(2 * (bottom - top + 1))
            for y in top...bottom where rowMax[y] >= 0 {
                points.append(ImageRect.Point(x: Double(rowMin[y]), y: Double(y)))
                if rowMax[y] != rowMin[y] { points.append(ImageRect.Point(x: Double(rowMax[y]), y: Double(y))) }
                rowMin[y] = Int32.max; rowMax[y] = -1
            }
            guard let rect = RotatedRect.minimumArea(of: points), rect.shortSide >= minimumSide else { continue }
            candidates.append((rect, count))
          }
        }
        if candidates.count > maximumCandidates {
            candidates = Array(candidates.sorted { $0.pixels > $1.pixels }.prefix(maximumCandidates))
        }
        var found: [DetectedText] = []
        for (rect, _) in candidates {
            let score = TextMap.meanInside(rect.corners, map: map, width: width, height: height)
            guard score >= boxThreshold else { continue }
            let distance = rect.width * rect.height * unclipRatio / (2 * (rect.width + rect.height))
            let grown = rect.grown(by: distance)
            guard grown.shortSide >= minimumSide + 2 else { continue }
            found.append(DetectedText(corners: grown.corners, score: score))
        }
        return found
    }

    /// The mean of the map over the pixels whose centres lie inside the
    /// convex polygon `corners` (at least the pixel nearest its centre).
    static func meanInside(_ corners: [ImageRect.Point], map: UnsafeBufferPointer<Float>, width: Int, height: Int) -> Float {
        let ys = corners.map(\.y)
        let y0 = max(0, Int((ys.min() ?? 0).rounded(.down))), y1 = min(height - 1, Int((ys.max() ?? 0).rounded(.up)))
        var sum: Double = 0, count = 0
        if y0 <= y1 {
            for y in y0...y1 {
                guard let (lo, hi) = ConvexPolygon.columns(of: corners, atY: Double(y)) else { continue }
                let x0 = max(0, Int(lo.rounded(.up))), x1 = min(width - 1, Int(hi.rounded(.down)))
                guard x0 <= x1 else { continue }
                for x in x0...x1 { sum += Double(map[y * width + x]) }
                count += x1 - x0 + 1
            }
        }
        if count == 0 {
            let cx = corners.reduce(0) { $0 + $1.x } / 4, cy = corners.reduce(0) { $0 + $1.y } / 4
            let x = min(max(Int(cx), 0), width - 1), y = min(max(Int(cy), 0), height - 1)
            return map[y * width + x]
        }
        return Float(sum / Double(count))
    }
}
