import Foundation
import VeilKit
import VeilVocabulary

/// Pictures uploaded for the `image=` style (the Faces tab's and the Live
/// tab's): a request may not name a file on the server, so the picture comes
/// as a form part named `picture`, is checked to decode, and is kept in
/// --state-dir/pictures under its sha256, where the renderer reads it.
struct PictureStore: Sendable {
    let directory: URL

    /// The image style for the uploaded picture.
    func style(for part: FormPart, maxPixels: Int) throws -> CoverStyle {
        do { _ = try ImageDecoder(maxPixels: maxPixels).decode(.data(part.data)) } catch {
            throw InputError("the picture for the image style is not an image Veil can read: \(error)")
        }
        let sha = EditingState.digest(of: part.data)
        let url = directory.appendingPathComponent("\(sha).img")
        if !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try AtomicFile.write(part.data, to: url)
        }
        return .image(path: url.path)
    }
}
