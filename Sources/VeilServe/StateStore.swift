import Foundation
import VeilKit
import VeilVocabulary

/// Editing states kept by the photo's sha256 in --state-dir, so a photo sent
/// again (the same bytes) is re-rendered without detecting its faces again.
struct StateStore: Sendable {
    var directory: URL

    func url(_ sha256: String) -> URL? {
        guard sha256.count == 64, sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        return directory.appendingPathComponent("\(sha256).veil.json")
    }

    func load(_ sha256: String) -> EditingState? {
        guard let url = url(sha256), FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try? EditingState.load(from: url)
    }

    func save(_ state: EditingState) throws {
        guard let url = url(state.source.sha256) else { return }
        try state.write(to: url)
    }
}
