import Foundation

/// Names Veil makes for files beside the user's (`NAME-veil.jpg`, its
/// `.veil.json` sidecar, a kept original) must fit the file system's 255-byte
/// limit on one name, or a photo with a long name could not be covered at all.
public enum FileName {
    /// The longest name (in UTF-8 bytes) most Linux file systems accept.
    public static let maxBytes = 255
    /// Room kept free in the names of outputs for what Veil adds after them
    /// (`.veil.json`, `.preview`, the temporary suffix of an atomic write).
    public static let outputReserve = 16

    /// `stem + tail`, with `stem` shortened when the whole would pass
    /// `limit` bytes: cut at a character boundary and marked with `~` and 8
    /// hex digits of the full stem's SHA-256, so two long names that share a
    /// beginning still get different outputs. `shortened` says whether it was.
    public static func fitting(_ stem: String, tail: String, limit: Int = maxBytes - outputReserve) -> (name: String, shortened: Bool) {
        if stem.utf8.count + tail.utf8.count <= limit { return (stem + tail, false) }
        let mark = "~" + String(SHA256.hex(Array(stem.utf8)).prefix(8))
        let room = max(0, limit - tail.utf8.count - mark.utf8.count)
        var kept = ""
        for character in stem {
            if kept.utf8.count + String(character).utf8.count > room { break }
            kept.append(character)
        }
        return (kept + mark + tail, true)
    }

    /// `url` with `tail` added to its last component, shortened to fit.
    static func sibling(_ url: URL, adding tail: String, limit: Int = maxBytes) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(fitting(url.lastPathComponent, tail: tail, limit: limit).name)
    }
}
