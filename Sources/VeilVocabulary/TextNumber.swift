import Foundation

/// Text to numbers, the one place where that happens for options, edits and
/// taps. Everything that comes back is finite and inside the range the caller
/// names, so nothing downstream can trap on NaN, infinity or a value that
/// does not fit an `Int` (`1e300`, `9223372036854775807`).
public enum TextNumber {
    /// A finite number in `range`.
    public static func double(_ text: String, in range: ClosedRange<Double>, option: String) throws -> Double {
        guard let v = Double(text.trimmingCharacters(in: .whitespaces)), v.isFinite, range.contains(v) else {
            throw InputError("\(option) must be a number from \(format(range.lowerBound)) to \(format(range.upperBound)), not '\(text)'")
        }
        return v
    }

    /// A whole number in `range`.
    public static func int(_ text: String, in range: ClosedRange<Int>, option: String) throws -> Int {
        guard let v = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(v) else {
            throw InputError("\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return v
    }

    /// Exactly `count` finite numbers separated by commas, each in `range`;
    /// `what` describes the expected shape for the message (e.g. "x,y,w,h in pixels").
    public static func list(_ text: some StringProtocol, count: Int, in range: ClosedRange<Double>, option: String, what: String) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == count, values.count == count, values.allSatisfy({ $0.isFinite && range.contains($0) }) else {
            throw InputError("\(option) takes \(what), each from \(format(range.lowerBound)) to \(format(range.upperBound)), not '\(text)'")
        }
        return values
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
