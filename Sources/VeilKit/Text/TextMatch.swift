import Foundation

/// Which text to cover: a regular expression searched in each reading
/// (case-insensitive; ICU syntax, as NSRegularExpression), or one of the
/// named patterns. A line also matches when the run of lines it sits in
/// (neighbours on the same baseline, as a plate's words often are) matches.
public struct TextMatch: Sendable, Hashable {
    /// As given: a name or an expression; what the editing state records.
    public let spelling: String
    /// The expression searched.
    public let pattern: String

    /// The named patterns. `plates`: the whole reading is 4 to 10 letters and
    /// digits, at least one of each, in up to five groups of 1 to 4 split by
    /// a space, a dash or a dot (AB12 CDE, M-AB 1234, 7ABC123, AB-123-CD);
    /// a shop sign's words have no digit, a price or a phone number no letter.
    /// Or, as dealers' and vanity plates read, letters only in two groups, one
    /// of them 1 or 2 letters, 5 to 10 in all (PASSAT CC, VW GOLF): a sign of
    /// that shape (NO SMOKING) is covered too, as a missed plate costs more.
    /// `emails`: an address anywhere in the reading. `phones`: 7 or more
    /// digits, with spaces, dots, dashes, slashes or brackets between, and an
    /// optional leading +.
    public static let named: [(name: String, pattern: String)] = [
        ("plates", #"^(?=[^0-9]*[0-9])(?=[^A-Z]*[A-Z])(?=(?:[^A-Z0-9]*[A-Z0-9]){4,10}[^A-Z0-9]*$)[A-Z0-9]{1,4}(?:[ .·-]?[A-Z0-9]{1,4}){0,4}$"#
            + #"|^(?=(?:[^A-Z]*[A-Z]){5,10}[^A-Z]*$)(?:[A-Z]{1,2}[ .·-][A-Z]{2,8}|[A-Z]{2,8}[ .·-][A-Z]{1,2})$"#),
        ("emails", #"[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}"#),
        ("phones", #"\+?(?:\d[ ./()-]{0,2}){6,}\d"#),
    ]

    /// A name from `named` or an expression; throws for an expression that does not compile.
    public init(_ spelling: String) throws {
        self.spelling = spelling
        pattern = TextMatch.named.first { $0.name == spelling }?.pattern ?? spelling
        guard (try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])) != nil else {
            throw VeilError.invalidArgument("'\(spelling)' is not a regular expression (or one of \(TextMatch.named.map(\.name).joined(separator: ", ")))")
        }
    }

    /// Whether `text` (trimmed) holds a match.
    public func matches(_ text: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { return false }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return expression.firstMatch(in: trimmed, range: NSRange(trimmed.startIndex..., in: trimmed)) != nil
    }

    /// For lines (corners in pixels, reading), which match, alone or joined
    /// with the lines beside them on the same line of text.
    func matches(_ lines: [(corners: [ImageRect.Point], text: String)]) -> [Bool] {
        var result = lines.map { matches($0.text) }
        let boxes = lines.map { DetectedText(corners: $0.corners, score: 0).bounds }
        // Runs: lines left to right whose boxes share most of their height and lie within 1.5 heights.
        let order = lines.indices.sorted { boxes[$0].x < boxes[$1].x }
        var used = Set<Int>()
        for first in order where !used.contains(first) {
            var run = [first]
            used.insert(first)
            for next in order where !used.contains(next) {
                let last = boxes[run.last!], b = boxes[next]
                let overlap = min(last.y + last.height, b.y + b.height) - max(last.y, b.y)
                let height = max(last.height, b.height)
                guard overlap > 0.5 * height, min(last.height, b.height) > 0.6 * height,
                      b.x >= last.x, b.x - (last.x + last.width) < 1.5 * height else { continue }
                run.append(next)
                used.insert(next)
            }
            guard run.count > 1, matches(run.map { lines[$0].text }.joined(separator: " ")) else { continue }
            for i in run { result[i] = true }
        }
        return result
    }
}
