import Foundation
import VeilVocabulary

/// What `veil serve` was asked for.
public struct ServeConfig: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var token: String?
    public var maxBody = 50_000_000
    public var maxPixels = 100_000_000
    public var concurrency = max(1, ProcessInfo.processInfo.activeProcessorCount)
    public var timeout = 30.0
    public var stateDir: URL
    /// Bodies held by requests in flight, in total (past it: 503). Bounds the
    /// server's memory for bodies whatever the number of clients.
    public var bodyBudget: Int?
    /// Seconds a client may take to send its headers, then its body; slower
    /// connections are closed (slowloris).
    public var headerTimeout = 10.0
    public var bodyTimeout = 120.0
    /// Connections open at once, and from one address (0: no per-address
    /// limit, the default on loopback where every client shares 127.0.0.1).
    public var connectionLimit = 1000
    public var perAddressLimit: Int?
    /// Connections still sending their headers: past it the oldest is closed.
    public var maxUnheadered = 128
    /// libmicrohttpd polling threads (one epoll thread is enough: it only
    /// moves bytes; the work runs elsewhere — see bench/serve-attack).
    public var httpThreads = 1
    /// The folder whose videos the editor's Video tab lists and edits (by name only).
    public var media: URL?
    /// Live sources the Live tab shows covered: NAME → a stream URL or a device.
    public var live: [LiveSourceSpec] = []

    public init(stateDir: URL) { self.stateDir = stateDir }

    /// The body budget in force: by default four maximal bodies (200 MB at the
    /// default --max-body), never less than one.
    public var effectiveBodyBudget: Int { max(bodyBudget ?? 4 * maxBody, maxBody) }

    public var effectivePerAddressLimit: Int { perAddressLimit ?? (isLoopback ? 0 : 64) }

    /// How long a request may wait for a free slot before its 503: as long as
    /// it may work (--timeout). A client written for `rembg s`, which queues
    /// every request, sees a wait, not a failure; what waits holds only its
    /// body, already bounded by --body-budget, and one whose turn cannot come
    /// within the wait at the measured time a request takes is refused at once (`Gate`).
    public var queueWait: Double { timeout }

    public var isLoopback: Bool { host == "127.0.0.1" || host == "::1" || host.hasPrefix("127.") }

    /// `50MB`, `2M`, `1.5G`, `1024`, in bytes (decimal units; KiB/MiB binary).
    public static func size(_ text: String, option: String) throws -> Int {
        let units: [(String, Double)] = [("kib", 1024), ("mib", 1_048_576), ("gib", 1_073_741_824), ("kb", 1e3), ("mb", 1e6), ("gb", 1e9),
                                         ("k", 1e3), ("m", 1e6), ("g", 1e9), ("b", 1), ("", 1)]
        let lower = text.lowercased().trimmingCharacters(in: .whitespaces)
        for (suffix, factor) in units where lower.hasSuffix(suffix) {
            if let n = Double(lower.dropLast(suffix.count)), n > 0, n * factor <= 1e12 { return Int(n * factor) }
        }
        throw InputError("\(option) wants a size like 50MB or 100M, not '\(text)'")
    }

    /// `NAME=SOURCE` (`--live`): NAME a word of letters, digits, `-` and `_`;
    /// SOURCE a stream URL or a device, optionally with its input format
    /// after a `@` (`cam=/dev/video0@v4l2`).
    public static func live(_ text: String) throws -> LiveSourceSpec {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else { throw InputError("--live wants NAME=SOURCE, not '\(text)'") }
        let name = String(text[..<eq]), rest = String(text[text.index(after: eq)...])
        guard name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw InputError("--live: the name '\(name)' must be letters, digits, - and _ (it is a URL path: /v1/live/NAME)")
        }
        guard !rest.isEmpty else { throw InputError("--live \(name)= needs a SOURCE (a stream URL or a device)") }
        if !rest.contains("://"), let at = rest.lastIndex(of: "@") {
            return LiveSourceSpec(name: name, source: String(rest[..<at]), format: String(rest[rest.index(after: at)...]))
        }
        return LiveSourceSpec(name: name, source: rest, format: nil)
    }

    /// `30s`, `500ms`, `2m`, or plain seconds.
    public static func duration(_ text: String, option: String) throws -> Double {
        let lower = text.lowercased()
        for (suffix, factor) in [("ms", 0.001), ("s", 1.0), ("m", 60.0), ("", 1.0)] where lower.hasSuffix(suffix) {
            if let n = Double(lower.dropLast(suffix.count)), n > 0, n * factor <= 3600 { return n * factor }
        }
        throw InputError("\(option) wants a duration like 30s or 500ms, not '\(text)'")
    }
}

/// One `--live NAME=SOURCE`.
public struct LiveSourceSpec: Sendable, Equatable {
    public var name: String
    public var source: String
    /// FFmpeg's input format (v4l2 for a camera), or nil to let FFmpeg guess.
    public var format: String?
    public init(name: String, source: String, format: String?) { self.name = name; self.source = source; self.format = format }
}
