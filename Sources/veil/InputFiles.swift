import Foundation
import VeilKit
import VeilVocabulary

/// Expands the command line's inputs: files as given, directories recursed
/// for images (sorted, hidden files and Veil's own outputs skipped).
enum InputFiles {
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "tif", "tiff", "heic", "heif", "avif", "gif", "bmp"]

    struct Input: Sendable {
        var url: URL
        /// The path below the directory it was found in, for --out-dir.
        var relative: String
    }

    static func expand(_ paths: [String], skipping excluded: URL? = nil) -> [Input] {
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
                guard imageExtensions.contains(file.pathExtension.lowercased()),
                      !file.deletingPathExtension().lastPathComponent.hasSuffix(OutputNaming.suffix),
                      (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                found.append(Input(url: file, relative: String(full.dropFirst(root.count + 1))))
            }
            inputs += found.sorted { $0.relative < $1.relative }
        }
        return inputs
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
        // The extension says what is written: the input's when Veil writes that format, else png.
        let ext = fileExtension ?? EncodedFormat.outputExtension(forInput: input.url.pathExtension)
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
        if output == nil && out.standardizedFileURL.path == input.url.standardizedFileURL.path {
            throw VeilError.unwritable(path: out.path, reason: "that is the input; name it with -o to overwrite it")
        }
        try OutputNaming.makeFolder(for: out)
    }

    /// Creates the folder an output goes in, with a one-line error if it cannot.
    static func makeFolder(for output: URL) throws {
        let folder = output.deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw VeilError.unwritable(path: output.path, reason: "cannot create the folder \(folder.path)")
        }
    }
}
