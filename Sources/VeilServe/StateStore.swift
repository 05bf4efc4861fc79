import Foundation
import VeilKit
import VeilVocabulary

/// What the service keeps of the photos it covers, in --state-dir. Two
/// kinds, kept apart because one may be shared and the other never:
///
/// - **Detections, by content** (`detections/`): a photo's faces as the
///   detector found them with given settings, without anyone's edits, so the
///   same bytes sent again (by anyone) skip the detector. Nothing a client
///   chose is in it: no dropped face, no drawn box, no pen, no text reading,
///   no style, no file name.
/// - **Kept states, by handle** (`states/OWNER/`): a client's edits, kept
///   only when it asks (`keep=1`), named by 128 random bits that only that
///   client is told (`X-Veil-State-Handle`), and read or edited only with
///   the handle, and only with the token they were made with (OWNER: the
///   token's digest, "open" without one). A photo's sha256 names nothing.
struct StateStore: Sendable {
    var directory: URL

    /// A new handle: 128 random bits, as 32 lowercase hex digits.
    static func newHandle() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(rng.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    static func isHandle(_ text: String) -> Bool {
        text.utf8.count == 32 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// Whose states a request may see: the token's digest (the token itself
    /// is never written), or "open" for a service without one.
    static func owner(token: String?) -> String {
        token.map { String(EditingState.digest(of: Data($0.utf8)).prefix(32)) } ?? "open"
    }

    private func kept(_ handle: String, owner: String) -> URL? {
        guard Self.isHandle(handle), owner == "open" || Self.isHandle(owner) else { return nil }
        return directory.appendingPathComponent("states").appendingPathComponent(owner).appendingPathComponent("\(handle).veil.json")
    }

    /// A kept state, or nil when the handle names none of this owner's.
    func load(handle: String, owner: String) -> EditingState? {
        guard let url = kept(handle, owner: owner), FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try? EditingState.load(from: url)
    }

    func save(_ state: EditingState, handle: String, owner: String) throws {
        guard let url = kept(handle, owner: owner) else { return }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try state.write(to: url)
    }

    /// The file a photo's detections with `settings` are cached in.
    private func detections(_ sha256: String, settings: String) -> URL {
        let key = EditingState.digest(of: Data((sha256 + "\n" + settings).utf8))
        return directory.appendingPathComponent("detections").appendingPathComponent("\(key).veil.json")
    }

    /// The photo's faces as found with `settings` before, for a photo named
    /// `file` (the name the client sent), with no one's edits; nil when not found yet.
    func detections(for sha256: String, settings: String, file: String) -> EditingState? {
        let url = detections(sha256, settings: settings)
        guard FileManager.default.fileExists(atPath: url.path), let state = try? EditingState.load(from: url),
              state.source.sha256 == sha256 else { return nil }
        return state.detectionsOnly(file: file)
    }

    func saveDetections(_ state: EditingState, settings: String) throws {
        if case .notYet = state.faces, state.texts == nil, state.people == nil { return }
        let url = detections(state.source.sha256, settings: settings)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try state.detectionsOnly(file: "upload").write(to: url)
    }
}
