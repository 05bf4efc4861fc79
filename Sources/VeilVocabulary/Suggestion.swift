/// "Did you mean": the one candidate a mistyped word most likely meant. A
/// unique prefix (`--thr` → `--threshold`) or the nearest spelling within two
/// edits (insertions, deletions, substitutions, swaps of neighbours); nothing
/// when it is ambiguous or far, since a wrong guess is worse than none.
public enum Suggestion {
    /// `" (did you mean --threshold?)"`, or "" when no candidate is near.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        nearest(to: word, among: candidates).map { " (did you mean \($0)?)" } ?? ""
    }

    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let letters = word.drop { $0 == "-" }.count
        let prefixed = candidates.filter { $0.hasPrefix(word) && $0 != word }
        if letters >= 2, prefixed.count == 1 { return prefixed[0] }
        let scored = candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= 2 && $0.1 < letters }
        guard let best = scored.map(\.1).min() else { return nil }
        let nearest = scored.filter { $0.1 == best }
        return nearest.count == 1 ? nearest[0].0 : nil
    }

    /// Edits between `a` and `b` (optimal string alignment: a swap of two
    /// neighbours counts one, as a typing slip does).
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
