/// A disc's (or an ellipse's) mask value as a function of d², its squared
/// distance from the centre in radii, tabulated once per profile: a rim pixel
/// then costs a lookup and one comparison instead of a square root, and
/// gives the very byte the formula gives (`RegionShape.level(squared:…)`).
///
/// Why it is exact: the formula is a non-increasing step function F of the
/// double d² (each floating-point operation in it is monotonic), so
/// F(d²) = #{k in 1...255 : d² ≤ t_k}, with t_k the largest double where
/// F ≥ k, found by bisection over the doubles' bit patterns. The d² range of
/// the fade is cut into buckets by a monotonic index; where each bucket holds
/// at most one t_k, F(d²) = (the number of t_k in later buckets) + (d² ≤ the
/// t_k of its own bucket, if any). A profile whose steps are closer than
/// that gets no table (nil), and the formula is used.
struct RimLevels: Sendable {
    private static let buckets = 1024
    private let low: Double, perBucket: Double
    /// Per bucket: the number of steps in later buckets, and its own step's d² (or -∞).
    private let base: [UInt8], step: [Double]

    init?(profile: MaskProfile) {
        let inner = profile.inner, outer = profile.outer
        guard inner.isFinite, outer.isFinite, inner > 0, outer > inner else { return nil }
        let scale = 255 / (outer - inner)  // as RegionShape computes it
        func level(_ d2: Double) -> UInt8 { RegionShape.level(squared: d2, inner: inner, outer: outer, scale: scale) }
        low = inner * inner
        let high = outer * outer, count = RimLevels.buckets
        perBucket = Double(count) / (high - low)
        guard perBucket.isFinite, level(low) == 255, level(high) == 0 else { return nil }
        var base = [UInt8](repeating: 0, count: count), step = [Double](repeating: -.infinity, count: count)
        var previous = count
        for k in 1...255 {
            // The largest d² with a value of at least k: low has 255, high has 0.
            var yes = low.bitPattern, no = high.bitPattern
            while no - yes > 1 {
                let mid = yes + (no - yes) / 2
                if level(Double(bitPattern: mid)) >= k { yes = mid } else { no = mid }
            }
            let t = Double(bitPattern: yes), b = RimLevels.bucket(t, low: low, perBucket: perBucket)
            guard b < previous else { return nil }  // two steps in one bucket
            step[b] = t
            for earlier in 0..<b { base[earlier] &+= 1 }
            previous = b
        }
        self.base = base; self.step = step
    }

    /// The bucket of d²: non-decreasing in d², the end buckets taking all
    /// beyond. Clamped by selects (minsd, maxsd), not branches: inside a rim
    /// the clamps are taken now and then, and a mispredicted branch stalls
    /// the loop. (d² is never NaN: it is a sum of squares of finite or
    /// infinite numbers; a NaN would take bucket 0.)
    @inline(__always)
    private static func bucket(_ d2: Double, low: Double, perBucket: Double) -> Int {
        let f = (d2 - low) * perBucket, top = Double(buckets - 1)
        let above = f > 0 ? f : 0
        return Int(above < top ? above : top)
    }

    /// The formula's byte at d².
    @inline(__always)
    func level(_ d2: Double) -> UInt8 {
        let b = RimLevels.bucket(d2, low: low, perBucket: perBucket)
        return base.withUnsafeBufferPointer { $0[b] } &+ (d2 <= step.withUnsafeBufferPointer { $0[b] } ? 1 : 0)
    }
}

/// The rim pixels of one region gathered row by row, then valued in one loop:
/// a row's rim is a few pixels, too short for one pixel's work to overlap
/// with the next's (each short loop ends in a mispredicted branch); a long
/// loop keeps the pipeline full. Bounded: flushed when full. A class over
/// buffers of its own, so that gathering costs a few stores a pixel (no
/// array uniqueness checks, no reference counting per row); one per mask,
/// used by one thread.
///
/// With a table of levels, d² = dx² + dy² where dx depends on the column
/// alone: dx² is computed once per column of the region (`begin`), dy² once
/// per row, so a rim pixel costs an addition and a lookup, no division. The
/// doubles are the very ones the formula computes (the same operations in
/// the same order), so the bytes are too.
final class RimBatch {
    private static let capacity = 1024
    private let at = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
    /// With a table: each pixel's d². Without: its x and dy, for the formula.
    private let d2s = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
    private let xs = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
    private let dys = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
    private var count = 0
    /// dx² per column of the region, from column `firstColumn`.
    private var dx2 = UnsafeMutablePointer<Double>.allocate(capacity: 64), dx2Capacity = 64, firstColumn = 0
    /// The region being gathered, and where its values go.
    private var shape: RegionShape?, levels: RimLevels?, mask: UnsafeMutablePointer<UInt8>?

    deinit { at.deallocate(); d2s.deallocate(); xs.deallocate(); dys.deallocate(); dx2.deallocate() }

    /// Starts gathering the rim of `shape` (valued through `levels` if any)
    /// for `mask`; its pixels lie in `columns`.
    func begin(_ shape: RegionShape, levels: RimLevels?, mask: UnsafeMutablePointer<UInt8>, columns: Range<Int>) {
        self.shape = shape; self.levels = levels; self.mask = mask
        guard levels != nil else { return }
        if columns.count > dx2Capacity {
            dx2.deallocate()
            dx2Capacity = columns.count
            dx2 = .allocate(capacity: dx2Capacity)
        }
        firstColumn = columns.lowerBound
        for x in columns {
            let dx = (Double(x) + 0.5 - shape.cx) / shape.rx
            dx2[x - firstColumn] = dx * dx
        }
    }

    /// Adds the pixels `columns` of the mask row starting at `row`, `dy` radii from the centre.
    @inline(__always)
    func add(_ columns: Range<Int>, row: Int, dy: Double) {
        var x = columns.lowerBound
        let table = levels != nil, dy2 = dy * dy
        while x < columns.upperBound {
            if count == RimBatch.capacity { flush() }
            let n = min(columns.upperBound - x, RimBatch.capacity - count), first = count
            if table {
                let dx2 = self.dx2 + (x - firstColumn)
                for k in 0..<n { at[first + k] = row + x + k; d2s[first + k] = dx2[k] + dy2 }
            } else {
                for k in 0..<n { at[first + k] = row + x + k; xs[first + k] = Double(x + k); dys[first + k] = dy }
            }
            count += n; x += n
        }
    }

    /// Raises each gathered pixel of the mask to the shape's value there.
    func flush() {
        let n = count
        count = 0
        guard n > 0, let shape, let mask else { return }
        if let levels {
            for k in 0..<n { mask[at[k]] = max(mask[at[k]], levels.level(d2s[k])) }
        } else {
            for k in 0..<n { mask[at[k]] = max(mask[at[k]], shape.value(dx: (xs[k] + 0.5 - shape.cx) / shape.rx, dy: dys[k])) }
        }
    }
}
