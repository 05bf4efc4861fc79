import Foundation
import Synchronization

/// What a video input is, decided before anything opens it: a regular file
/// (read to its end; a cut or a damaged packet is a truncation), or a live
/// source (a stream URL, a camera or a capture device: its end, a read error
/// after frames arrived, or a stop request all mean "stop recording").
/// Anything else on disk (a FIFO, a folder, a socket) is refused at once:
/// a FIFO would block the open for good.
public enum VideoSource: Sendable, Equatable {
    case file(String)
    case live(String)

    public init(_ input: String, format: String? = nil) throws {
        if let scheme = input.range(of: "://").map({ input[..<$0.lowerBound] }), !scheme.isEmpty, !scheme.contains("/") {
            self = scheme.lowercased() == "file" ? .file(input) : .live(input)
            return
        }
        var info = stat()
        guard stat(input, &info) == 0 else {
            // Not a path: a device name for an explicit input format (":0.0" for x11grab).
            if format != nil { self = .live(input); return }
            throw VeilError.unreadable(path: input, reason: String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .file(input)
        case S_IFCHR: self = .live(input)  // a camera or capture device
        case S_IFIFO: throw VeilError.unreadable(path: input, reason: "a FIFO, not a video file (give a file, a stream URL or a device)")
        case S_IFDIR: throw VeilError.unreadable(path: input, reason: "a folder, not a video file")
        default: throw VeilError.unreadable(path: input, reason: "not a regular file")
        }
    }

    public var isLive: Bool { if case .live = self { return true } else { return false } }
    public var name: String { switch self { case let .file(p), let .live(p): return p } }

    /// The input classified and checked against `output` once, for a run that
    /// writes `output` (`VideoAnonymizer.run`): the caller that needs to know
    /// first whether it is live (the CLI, for its progress bar and its stop)
    /// makes it and hands it on, so nothing classifies or checks it again.
    public static func checked(_ input: String, format: String?, output: String) throws -> VideoSource {
        let source = try VideoSource(input, format: format)
        try SameFile.refuse(output: output, input: input)
        return source
    }
}

