import VeilKit

/// Output names a person gives (`-o out.gif`, `--preview p.webp`): the bytes
/// written must be what the name says, so a name Veil cannot write is a
/// mistake in the request, refused before any work.
public enum OutputPath {
    /// The format `path` names (nil: no extension, the command chooses).
    public static func format(_ path: String, option: String) throws -> EncodedFormat? {
        do { return try EncodedFormat(outputPath: path) } catch { throw InputError("\(option): \(error)") }
    }
}
