import Foundation
import VeilKit
import VeilVocabulary

/// `veil blur - [-o OUT]` and `veil blur IN -o -`: one photo covered in
/// memory (`PhotoBlurrer.render`), from standard input or to standard
/// output, with no editing state. Messages go to standard error, which
/// leaves standard output to the image.
enum BlurPipe {
    static func run(_ args: Arguments, _ given: BlurCommand.Options, _ blurrer: PhotoBlurrer, edits: RegionEdits) async throws -> Int32 {
        typealias Given = BlurCommand.Options
        try StandardStreams.requireOne(args, refusing: [(Given.spec(\.outDir), given.outDir != nil), (Given.spec(\.state), given.state != nil),
                                                        (Given.spec(\.preview), given.preview), try StandardStreams.shard(args)])
        let input = args.positionals[0]
        let output = given.output ?? StandardStreams.dash
        let format = output == StandardStreams.dash ? nil : try OutputPath.format(output, option: "-o")
        if output == StandardStreams.dash { try StandardStreams.refuseTerminal() }
        let name = StandardStreams.describe(input)
        var worker = blurrer
        let detecting = DetectionProgress()
        worker.detector.progressHandler = { detecting.show($0) }
        defer { detecting.clear() }
        return try await StandardStreams.run(name) {
            let rendered = try await worker.render(try StandardStreams.read(input), name: name, previous: nil, edits: edits, format: format)
            detecting.clear()
            try StandardStreams.write(rendered.data, to: output)
            printError("\(name) -> \(StandardStreams.describe(output, output: true))  \(rendered.coveredRegions) covered")
        }
    }
}
