/// Everything that can go wrong in Veil, each case with a one-line message a
/// person can act on. Errors from libvips and ONNX Runtime keep their own text.
public enum VeilError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An argument is out of range or malformed (`InputError.invalidArgument`).
    public static func invalidArgument(_ message: String) -> VeilError { .invalidInput(.invalidArgument(message)) }

    /// The file does not exist, is a directory, or cannot be opened.
    case unreadable(path: String, reason: String)
    /// The bytes are not an image Veil can decode (empty, truncated, other format).
    case undecodable(reason: String)
    /// The image is larger than the pixel budget; decoding it would exhaust memory.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// A model or the inference runtime is not installed.
    case missingAsset(name: String, hint: String)
    /// An installed file does not have the expected checksum.
    case checksumMismatch(name: String, expected: String, actual: String)
    /// ONNX Runtime reported an error.
    case inference(String)
    /// libvips reported an error while processing.
    case imaging(String)
    /// Writing a result failed; nothing partial was left behind.
    case unwritable(path: String, reason: String)
    /// A value or a saved state VeilKit refuses: the one bad-input type,
    /// `InputError` (`.invalidArgument`, `.invalidState`), inside.
    case invalidInput(InputError)
    /// A resource the job needs cannot be had (an address in use, a device busy).
    case unavailable(String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "cannot read \(path): \(reason)"
        case let .undecodable(reason): return "not a decodable image: \(reason)"
        case let .tooLarge(w, h, limit):
            return "image is \(w)x\(h) (\(w * h) pixels), over the limit of \(limit) pixels"
        case let .missingAsset(name, hint): return "\(name) is not installed: \(hint)"
        case let .checksumMismatch(name, expected, actual):
            return "\(name) has sha256 \(actual), expected \(expected)"
        case let .inference(message): return "inference failed: \(message)"
        case let .imaging(message): return "image processing failed: \(message)"
        case let .unwritable(path, reason): return "cannot write \(path): \(reason)"
        case let .invalidInput(error): return error.description
        case let .unavailable(message): return message
        }
    }
}
