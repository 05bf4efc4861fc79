import Foundation
import VeilKit
import VeilVocabulary

/// `-` for an image: standard input read whole into memory (an image is
/// decoded whole anyway), the result written whole to standard output. One
/// input makes one output, and no editing state is kept: there is no file
/// to keep it beside.
enum StandardStreams {
    static let dash = "-"
    /// Standard input past this is refused rather than held in memory.
    static let maxBytes = 1 << 30

    /// Whether `-` names the input or `-o`'s `output`.
    static func named(in args: Arguments, output: String?) -> Bool { args.positionals.contains(dash) || output == dash }

    /// One input, nothing that needs a file or many inputs (`refusing`: each
    /// such option as its group declares it, and whether it was given): else a usage error.
    static func requireOne(_ args: Arguments, refusing options: [(OptionSpec, given: Bool)]) throws {
        guard InputSelection(args).isOne else {
            throw InputError("- (standard input or output) is for one image: give exactly one INPUT and no --inputs-from")
        }
        for (option, given) in options where given {
            throw InputError("\(option.name) cannot go with - (standard input or output)")
        }
    }

    /// `--shard`, which a batch takes and a stream refuses.
    static func shard(_ args: Arguments) throws -> (OptionSpec, given: Bool) {
        (BatchOptions.spec(\.shard), try BatchOptions.read(\.shard, from: args) != nil)
    }

    /// An image is not written to a terminal.
    static func refuseTerminal() throws {
        if isatty(STDOUT_FILENO) != 0 { throw InputError("standard output is a terminal: redirect it (> OUT) or give -o FILE") }
    }

    /// The bytes of `input`: standard input for `-`, else the file.
    static func read(_ input: String) throws -> Data {
        guard input == dash else { return Data(try PhotoBlurrer.read(URL(fileURLWithPath: input))) }
        if isatty(STDIN_FILENO) != 0 { throw InputError("standard input is a terminal: pipe an image in (< IMAGE)") }
        var data = Data()
        while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
            data.append(chunk)
            guard data.count <= maxBytes else { throw VeilError.unreadable(path: "standard input", reason: "more than \(maxBytes >> 20) MiB") }
        }
        return data
    }

    /// `data` to standard output for `-`, else atomically to the file.
    static func write(_ data: Data, to output: String) throws {
        if output == dash { try FileHandle.standardOutput.write(contentsOf: data) } else { try AtomicFile.write(data, to: URL(fileURLWithPath: output)) }
    }

    /// Runs one image's work: a usage mistake found on the way is still one
    /// (exit 2); any other failure is the image's, reported on one line (exit 1).
    static func run(_ name: String, _ work: () async throws -> Void) async throws -> Int32 {
        do {
            try await work()
            return ExitCode.ok.rawValue
        } catch let usage as InputError {
            throw usage
        } catch {
            printFileError(name, error)
            return ExitCode.failed.rawValue
        }
    }

    /// How messages name a place: `standard input`, or the path.
    static func describe(_ place: String, output: Bool = false) -> String { place == dash ? (output ? "standard output" : "standard input") : place }
}
