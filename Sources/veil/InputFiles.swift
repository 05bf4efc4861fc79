import Foundation
import VeilKit
import VeilVocabulary

/// Expands the command line's inputs: files as given, directories recursed
/// for images (sorted, hidden files and Veil's own outputs skipped).
enum InputFiles {
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "tif", "tiff", "heic", "heif", "avif", "gif", "bmp"]
    static let videoExtensions = VideoFormats.extensions

    struct Input: Sendable {
        var url: URL
        /// The path below the directory it was found in, for --out-dir.
        var relative: String
    }

    /// The folders and files named on the command line, then, streamed, the
    /// paths listed one a line in `manifest` (`-`: standard input). A listed
    /// path's key for shards and `--out-dir` is the line itself (a leading
    /// `./` or `/` dropped), so `find photos -type f > list` keeps the layout.
    static func inputs(_ paths: [String], from manifest: String?, skipping excluded: URL? = nil,
                       extensions: Set<String> = imageExtensions) throws -> AnySequence<Input> {
        let named = expand(paths, skipping: excluded, extensions: extensions)
        guard let manifest else { return AnySequence(named) }
        let lines = try LineReader(path: manifest)
        let listed = lines.lazy.compactMap { line -> Input? in
            let path = line.trimmingCharacters(in: .whitespaces)
            guard !path.isEmpty else { return nil }
            var key = Substring(path)
            while key.hasPrefix("./") { key = key.dropFirst(2) }
            while key.hasPrefix("/") { key = key.dropFirst() }
            return Input(url: URL(fileURLWithPath: path), relative: String(key))
        }
        return named.joinedWith(listed)
    }

    static func expand(_ paths: [String], skipping excluded: URL? = nil, extensions: Set<String> = imageExtensions) -> [Input] {
        var inputs: [Input] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            let url = URL(fileURLWithPath: path)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                inputs.append(Input(url: url, relative: url.lastPathComponent))
                continue
            }
            let root = url.standardizedFileURL.path
            var found: [Input] = []
            let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            while let file = walker?.nextObject() as? URL {
                let full = file.standardizedFileURL.path
                if let excluded, full.hasPrefix(excluded.standardizedFileURL.path + "/") { continue }
                guard extensions.contains(file.pathExtension.lowercased()),
                      !file.deletingPathExtension().lastPathComponent.hasSuffix(OutputNaming.suffix),
                      (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                found.append(Input(url: file, relative: String(full.dropFirst(root.count + 1))))
            }
            inputs += found.sorted { $0.relative < $1.relative }
        }
        return inputs
    }
}

/// The lines of a file or of standard input (`-`), read as they are needed.
final class LineReader: Sequence, IteratorProtocol {
    private let file: UnsafeMutablePointer<FILE>?
    private let owned: Bool

    init(path: String) throws {
        if path == "-" { file = fdopen(dup(STDIN_FILENO), "r"); owned = true; return }
        guard let f = fopen(path, "r") else {
            throw InputError("--inputs-from \(path): \(String(cString: strerror(errno)))")
        }
        file = f
        owned = true
    }

    deinit { if owned, let file { fclose(file) } }

    func next() -> String? {
        guard let file else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let length = getline(&buffer, &capacity, file)
        guard length >= 0, let buffer else { return nil }
        var line = String(cString: buffer)
        while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
        return line
    }
}

extension Sequence {
    /// This sequence, then `other`, lazily.
    func joinedWith<Other: Sequence>(_ other: Other) -> AnySequence<Element> where Other.Element == Element {
        AnySequence { () -> AnyIterator<Element> in
            var first = self.makeIterator(), second = other.makeIterator(), onFirst = true
            return AnyIterator {
                if onFirst, let x = first.next() { return x }
                onFirst = false
                return second.next()
            }
        }
    }
}

/// Where outputs go: `-o OUT`, `--out-dir DIR/relative`, or `STEM-veil.EXT` beside the input.
struct OutputNaming {
    static let suffix = "-veil"
    var output: URL?
    var outDir: URL?
    /// Extension forced on outputs (e.g. png for masks), or nil to keep the input's.
    var fileExtension: String?

    func output(for input: InputFiles.Input) -> URL {
        if let output { return output }
        // The extension says what is written: a video keeps its container; a
        // photo its format when Veil writes that format, else png.
        let inputExtension = input.url.pathExtension
        let ext = fileExtension ?? (InputFiles.videoExtensions.contains(inputExtension.lowercased())
            ? inputExtension : EncodedFormat.outputExtension(forInput: inputExtension))
        if let outDir {
            let relative = URL(fileURLWithPath: input.relative, relativeTo: outDir).deletingPathExtension()
            return relative.deletingLastPathComponent().appendingPathComponent(OutputNaming.fitting(relative.lastPathComponent, tail: ".\(ext)"))
        }
        let stem = input.url.deletingPathExtension().lastPathComponent
        return input.url.deletingLastPathComponent().appendingPathComponent(OutputNaming.fitting(stem, tail: "\(OutputNaming.suffix).\(ext)"))
    }

    /// `stem + tail` within the file-name limit; says so when it had to shorten.
    static func fitting(_ stem: String, tail: String) -> String {
        let (name, shortened) = FileName.fitting(stem, tail: tail)
        if shortened { printError("veil: note: output name shortened to \(name) (names are limited to \(FileName.maxBytes) bytes)") }
        return name
    }

    /// Refuses to write over an input unless `-o` named it.
    func check(_ out: URL, for input: InputFiles.Input) throws {
        if output == nil && SameFile.test(out.path, input.url.path) {
            throw VeilError.unwritable(path: out.path, reason: "that is the input; name it with -o to overwrite it")
        }
        try OutputNaming.makeFolder(for: out)
    }

    /// Creates the folder an output goes in, with a one-line error if it cannot.
    static func makeFolder(for output: URL) throws {
        try FolderCreation.make(output.deletingLastPathComponent(), for: output.path)
    }
}
