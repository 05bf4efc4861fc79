/// Quantiles of measured latencies, by the nearest-rank rule: the q-quantile
/// of n values is the ceil(q n)-th smallest. Of 100 frames' latencies, p99 is
/// the 99th (the second slowest) and the median the 50th; the slowest is
/// reported as the maximum beside it. (Taking the int(q n)-th index instead
/// made every 100-frame p99 the maximum.)
extension Array where Element: Comparable {
    /// The `q`-quantile (0...1) of these values, which must be sorted; nil when empty.
    public func nearestRank(_ q: Double) -> Element? {
        guard !isEmpty else { return nil }
        let rank = Int((q * Double(count)).rounded(.up))
        return self[Swift.min(count - 1, Swift.max(0, rank - 1))]
    }
}
