import Foundation
import VeilKit
import VeilVocabulary

/// `veil lift - [-o OUT]` and `veil lift IN -o -`: one image lifted in
/// memory, from standard input or to standard output (PNG, or what -o's
/// extension names). With --json and no -o, only the report is printed.
enum LiftPipe {
    static func run(_ args: Arguments, _ options: LiftCommand.Options) async throws -> Int32 {
        try StandardStreams.requireOne(args, refusing: [(LiftCommand.Outputs.spec(\.outDir), options.outDir != nil), try StandardStreams.shard(args)])
        let input = args.positionals[0]
        let output = options.output ?? (options.json ? nil : StandardStreams.dash)
        if output == StandardStreams.dash {
            if options.json { throw InputError("--json prints to standard output: write the image with -o FILE") }
            try StandardStreams.refuseTerminal()
        }
        let format = try output.flatMap { try EncodedFormat(outputPath: $0) } ?? .png
        let name = StandardStreams.describe(input)
        let write = output.map { output in { (data: Data) throws -> String in
            try StandardStreams.write(data, to: output)
            return StandardStreams.describe(output, output: true)
        } }
        return try await StandardStreams.run(name) {
            let report = try await LiftCommand.lift(.data(try StandardStreams.read(input)), named: name, options, format: format, write: write)
            if options.json { print(LiftReport.document([report]).rendered) }
        }
    }
}
