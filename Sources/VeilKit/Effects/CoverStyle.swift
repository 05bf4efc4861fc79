import Foundation

/// How a covered face looks.
public enum CoverStyle: Sendable, Hashable, Codable {
    /// The image pixelated with cells of (longest side / 60) x `strength` pixels.
    case pixelate(strength: Double = 1)
    /// A gaussian blur whose sigma is (face's shorter side / 6) x `strength`.
    case blur(strength: Double = 1)
    /// A flat colour.
    case solid(RGB)
    /// A picture (PNG alpha respected) scaled to the face and centred on it.
    case image(path: String)

    public static let `default` = CoverStyle.pixelate()

    /// The style a `spelling` names: `pixelate`, `pixelate=2`, `blur`,
    /// `blur=0.5`, `solid`, `solid=#RRGGBB`, `image=PATH`. The inverse of
    /// `spelling`, as `init(rawValue:)` is of a raw value: how the editing
    /// state's JSON stores a style and reads it back. People's text does not
    /// come here directly: VeilVocabulary's `CoverOptions` reads an option
    /// (and names it in the error) for the CLI and HTTP alike.
    public init(spelling text: String) throws {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let name = parts.first ?? "", value = parts.count > 1 ? parts[1] : nil
        func strength() throws -> Double {
            guard let value else { return 1 }
            guard let s = Double(value), s > 0, s <= 20 else {
                throw VeilError.invalidArgument("\(name) strength must be a number in (0, 20], not '\(value)'")
            }
            return s
        }
        switch name {
        case "pixelate": self = .pixelate(strength: try strength())
        case "blur": self = .blur(strength: try strength())
        case "solid":
            guard let value else { self = .solid(RGB(0, 0, 0)); return }
            guard let color = RGB(hex: value) else { throw VeilError.invalidArgument("solid colour must be #RRGGBB or #RRGGBBAA, not '\(value)'") }
            self = .solid(color)
        case "image":
            guard let value, !value.isEmpty else { throw VeilError.invalidArgument("image= needs a PATH") }
            self = .image(path: value)
        default:
            throw VeilError.invalidArgument("unknown style '\(text)' (pixelate[=S], blur[=S], solid[=#RRGGBB], image=PATH)")
        }
    }

    /// The CLI spelling, as stored in editing state.
    public var spelling: String {
        switch self {
        case let .pixelate(s): return s == 1 ? "pixelate" : "pixelate=\(s)"
        case let .blur(s): return s == 1 ? "blur" : "blur=\(s)"
        case let .solid(c): return String(format: "solid=#%02X%02X%02X", c.r, c.g, c.b) + (c.a == 255 ? "" : String(format: "%02X", c.a))
        case let .image(path): return "image=\(path)"
        }
    }

    public init(from decoder: Decoder) throws {
        self = try CoverStyle(spelling: decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(spelling)
    }
}
