import Foundation
import VeilKit
import VeilVocabulary

/// `veil video INPUT... --out-dir DIR`: many files, one after another (each
/// already uses every core), split over array tasks like photos: the shard,
/// the ledger, and a file an earlier run finished (its sha256s in the
/// ledger) skipped unless `--force`.
enum VideoBatch {
    static func run(_ args: Arguments, _ anonymizer: VideoAnonymizer, outDir: URL) async throws -> Int32 {
        let selection = InputSelection(args)
        try selection.require("veil video --out-dir needs INPUT files or folders, or --inputs-from FILE")
        if args.value("-o") != nil || args.value("--json") != nil { throw InputError("--out-dir writes many videos: give neither -o nor --json") }
        let batch = try BatchRun(args, outputFolder: outDir)
        let naming = OutputNaming(output: nil, outDir: outDir)
        var failures = 0
        for input in batch.mine(try selection.inputs(skipping: outDir, extensions: InputFiles.videoExtensions)) {
            let began = Date()
            let output = naming.output(for: input)
            do {
                try naming.check(output, for: input)
                if !batch.force, let done = batch.task.finishedBefore(input.relative, input: input.url, output: output) {
                    print("\(input.url.path) -> \(output.path)  already done")
                    try batch.record(input, output: output, status: .skipped, source: done.source, made: done.output, seconds: seconds(since: began))
                    continue
                }
                let report = try await anonymizer.run(input: input.url.path, output: output.path, stop: RecordingStop())
                guard case .complete = report.ending else { throw VeilError.unreadable(path: input.url.path, reason: "cut short or damaged") }
                print(String(format: "%@ -> %@  %d frames, %d face-frames covered, %.1f s", input.url.path, output.path,
                             report.frames, report.facesCovered, report.seconds))
                try batch.record(input, output: output, status: .done, source: try BatchTask.digest(of: input.url),
                                 made: try BatchTask.digest(of: output), seconds: seconds(since: began))
            } catch {
                failures += 1
                printFileError(input.url.path, error)
                try batch.record(input, output: output, status: .failed, error: error, seconds: seconds(since: began))
            }
        }
        try batch.finish(named: selection.named)
        return failures == 0 ? 0 : 1
    }
}
