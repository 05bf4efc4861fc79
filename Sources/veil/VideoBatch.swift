import Foundation
import VeilKit
import VeilVocabulary

/// `veil video INPUT... --out-dir DIR`: many files, one after another (each
/// already uses every core), split over array tasks like photos: the shard,
/// the ledger, and a file an earlier run finished (its sha256s in the
/// ledger) skipped unless `--force`. Each output has its editing state
/// beside it (`OUTPUT.veil.json`), as a single file's run has.
enum VideoBatch {
    static func run(_ args: Arguments, run options: VideoRunOptions, cover: CoverOptions, detection: VideoAnonymizer.Detection, encoding: EncoderSettings,
                    source: VideoAnonymizer.Source, outDir: URL) async throws -> Int32 {
        let selection = InputSelection(args)
        try selection.require("veil video --out-dir needs INPUT files or folders, or --inputs-from FILE")
        if options.output != nil || options.json != nil { throw InputError("--out-dir writes many videos: give neither -o nor --json") }
        let batch = try BatchRun(args, outputFolder: outDir)
        let naming = OutputNaming(output: nil, outDir: outDir)
        var failures = 0
        for input in try selection.mine(batch, skipping: outDir, extensions: InputFiles.videoExtensions) {
            let began = Date()
            let output = naming.output(for: input)
            do {
                try naming.check(output, for: input)
                if !batch.force, let done = batch.task.finishedBefore(input.relative, input: input.url, output: output) {
                    print("\(input.url.path) -> \(output.path)  already done")
                    try batch.record(input, output: output, status: .skipped, source: done.source, made: done.output, seconds: seconds(since: began))
                    continue
                }
                // Each output keeps its editing state, as one file's run does: the
                // batch is reviewed and fixed by track like any video (`veil video
                // tracks`, the Video tab); a state already there is re-rendered from.
                let state = PhotoBlurrer.sidecar(for: output)
                let review = try VideoReview.open(input: input.url, output: output, statePath: state, edits: VideoEdits(), cover: cover.video(),
                                                  home: detection.detector.home)
                var found = detection
                found.people = review.people
                let request = VideoAnonymizer(cover: cover.video(over: review.previous), detection: found, encoding: encoding, source: source,
                                              review: review.replay())
                let recorder = review.recorder
                let report = try await request.run(input: input.url.path, output: output.path, stop: RecordingStop(), record: { recorder.record($0) })
                guard case .complete = report.ending else { throw VeilError.unreadable(path: input.url.path, reason: "cut short or damaged") }
                try review.finish(report, input: input.url, output: output)
                print(String(format: "%@ -> %@  %d frames, %d face-frames covered, %@, %.1f s", input.url.path, output.path,
                             report.frames, report.facesCovered,
                             review.previous.map { "\($0.tracks.count) tracks from its state" } ?? "\(report.tracks) tracks", report.seconds))
                try batch.record(input, output: output, status: .done, source: try BatchTask.digest(of: input.url),
                                 made: try BatchTask.digest(of: output), seconds: seconds(since: began))
            } catch {
                BatchStop.waitIfStopping()  // refused by a stop under way, which ends the process
                failures += 1
                printFileError(input.url.path, error)
                try batch.record(input, output: output, status: .failed, error: error, seconds: seconds(since: began))
            }
        }
        try batch.finish(named: selection.named)
        return failures == 0 ? 0 : 1
    }
}
