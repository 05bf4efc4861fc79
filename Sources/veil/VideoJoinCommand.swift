import Foundation
import VeilKit
import VeilVocabulary

/// `veil video --segment I/N` and `veil video join`: one long video split in
/// time over array tasks, then its parts copied into one file.
enum VideoJoinCommand {
    /// `veil video join PART... -o OUTPUT [--output-format F]`.
    static func run(_ words: [String]) throws -> Int32 {
        let args = try Arguments(words, definition)
        guard !args.positionals.isEmpty else { throw InputError("veil video join takes the parts, in order: PART... -o OUTPUT") }
        let given = try Options(args)
        guard let output = given.output else { throw InputError("veil video join needs -o OUTPUT") }
        for part in args.positionals where !FileManager.default.fileExists(atPath: part) {
            throw InputError("no such part: \(part)")
        }
        let joined: VideoEditingState
        do { joined = try VideoJoin.run(parts: args.positionals, output: output, format: given.format) }
        catch let VeilError.invalidInput(error) { throw error }
        catch {
            printError("veil video join: \(error); nothing written to \(output)")
            return ExitCode.failed.rawValue
        }
        print("\(args.positionals.count) part(s) -> \(output)  \(joined.source.frames) frames, \(joined.tracks.count) tracks "
              + "(state \(PhotoBlurrer.sidecar(for: URL(fileURLWithPath: output)).lastPathComponent))")
        return 0
    }

    /// The segment of a single input: `--segment I/N`, or the array task from
    /// the engine's environment (as `--shard` reads it); nil for the whole video.
    static func segment(_ given: ShardChoice?, input: String, live: Bool) throws -> VideoSegment? {
        if live {  // a recording has no end to split at; the environment's array index is not for it
            guard given == nil else { throw InputError("\(input) is a live source: only a file splits into segments") }
            return nil
        }
        guard let choice = try given ?? ShardChoice.fromEnvironment() else { return nil }
        do {
            let segment = try VideoSegments.plan(input, count: choice.shard.count)[choice.shard.index]
            printError("veil video: segment \(choice)")
            return segment
        } catch let VeilError.invalidInput(error) { throw error }
    }
}

extension VideoJoinCommand {
    /// Where the parts are joined: each option one line.
    struct Options: ParsableOptions {
        var output: String?, format: String?

        static var options: [Option<Self>] {
            [
                .text("-o", "OUTPUT", \.output, .output, "the joined video", kind: .file, sample: "joined.mp4"),
                .text("output-format", "F", \.format, .output, "the FFmpeg muxer to write with", sample: "mp4"),
            ]
        }
    }
}
