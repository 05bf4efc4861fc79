import Foundation

/// JSON built in a fixed key order, so output is stable and matches the documented shape.
public indirect enum JSONText: Sendable {
    case object([(String, JSONText)])
    case array([JSONText])
    case string(String)
    case number(Double)
    case int(Int)
    case bool(Bool)

    public var rendered: String {
        switch self {
        case let .object(pairs): return "{" + pairs.map { "\(JSONText.quote($0.0)):\($0.1.rendered)" }.joined(separator: ",") + "}"
        case let .array(items): return "[" + items.map(\.rendered).joined(separator: ",") + "]"
        case let .string(s): return JSONText.quote(s)
        case let .int(i): return String(i)
        case let .bool(b): return b ? "true" : "false"
        case let .number(d):
            guard d.isFinite else { return "null" }
            let rounded = (d * 10000).rounded() / 10000
            return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
        }
    }

    public static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
