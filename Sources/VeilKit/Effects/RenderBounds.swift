/// Conversions from untrusted `Double` geometry to pixel indices that can
/// never trap: NaN, infinities and values past the image are clamped in
/// floating point before any conversion to `Int`.
enum RenderBounds {
    /// `value` clamped to `lo...hi`, NaN as `lo`.
    @inline(__always)
    static func clamp(_ value: Double, _ lo: Int, _ hi: Int) -> Int {
        guard value > Double(lo) else { return lo }
        guard value < Double(hi) else { return hi }
        return Int(value)
    }

    /// `clamp(value.rounded(.down) + offset, lo, hi)` (`.up` when `up`)
    /// without a call to libm (x86-64's baseline has no rounding
    /// instruction, and a mask rounds four times a row): values beyond the
    /// range, NaN too, are settled by comparisons first, the rest converted.
    @inline(__always)
    static func clamp(rounding value: Double, up: Bool = false, plus offset: Int, _ lo: Int, _ hi: Int) -> Int {
        guard value > Double(lo) - 2 else { return lo }
        guard value < Double(hi) + 2 else { return hi }
        let i = Int(value)
        let whole = up ? (Double(i) < value ? i + 1 : i) : (Double(i) > value ? i - 1 : i)
        return min(max(whole + offset, lo), hi)
    }

    /// The pixel range [lo, hi) that the span [from, to) of real coordinates
    /// touches, clipped to 0..<limit (empty when outside or not finite).
    static func span(from: Double, to: Double, limit: Int) -> Range<Int> {
        guard from.isFinite, to.isFinite, from < to else { return 0..<0 }
        let lo = clamp(from.rounded(.down), 0, limit), hi = clamp(to.rounded(.up), 0, limit)
        return lo < hi ? lo..<hi : 0..<0
    }
}

/// Checks for cancellation every few rows of work, so that a server timeout
/// stops a render within milliseconds whatever its input.
struct CancellationCheck {
    let isCancelled: () -> Bool
    private var rows = 0

    init(_ isCancelled: @escaping () -> Bool) { self.isCancelled = isCancelled }

    /// Counts `count` rows of work; every 64 rows asks whether to stop.
    mutating func advance(rows count: Int = 1) throws {
        rows += count
        guard rows >= 64 else { return }
        rows = 0
        if isCancelled() { throw CancellationError() }
    }
}
