import Foundation

/// JSON built in a fixed key order, so output is stable and matches the documented shape
/// (JSONEncoder on Linux does not keep the order of keys); strings are escaped by JSONEncoder.
public indirect enum JSONText: Sendable {
    case object([(String, JSONText)])
    case array([JSONText])
    case string(String)
    case number(Double)
    case int(Int)
    case bool(Bool)
    case null

    public var rendered: String {
        switch self {
        case let .object(pairs): return "{" + pairs.map { "\(JSONText.quote($0.0)):\($0.1.rendered)" }.joined(separator: ",") + "}"
        case let .array(items): return "[" + items.map(\.rendered).joined(separator: ",") + "]"
        case let .string(s): return JSONText.quote(s)
        case let .int(i): return String(i)
        case let .bool(b): return b ? "true" : "false"
        case .null: return "null"
        case let .number(d):
            guard d.isFinite else { return "null" }
            let rounded = (d * 10000).rounded() / 10000
            return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
        }
    }

    /// A JSON string literal. The escaping is Foundation's (`JSONEncoder`, the
    /// one JSON writer of the code base; this type adds only the key order):
    /// a string with nothing to escape, most keys and names, skips it.
    public static func quote(_ s: String) -> String {
        if s.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0 != "\"" && $0 != "\\" }) { return "\"" + s + "\"" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        // A String always encodes; the fallback only keeps the signature total.
        return (try? encoder.encode(s)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
