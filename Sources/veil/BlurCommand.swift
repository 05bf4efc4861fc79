import Foundation
import VeilKit
import VeilVocabulary

/// `veil blur`: cover every face of many photos, keeping re-editable state.
enum BlurCommand {
    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, definition)
        let selection = InputSelection(args)
        try selection.require("veil blur needs at least one INPUT (file or folder) or --inputs-from FILE")
        let given = try Options(args)
        if given.output != nil && given.outDir != nil { throw InputError("use -o or --out-dir, not both") }
        if let o = given.output { _ = try OutputPath.format(o, option: "-o") }

        var blurrer = PhotoBlurrer()
        try CoverOptions(args, allowingFiles: true).apply(to: &blurrer)
        let performance = try PerformanceOptions(args)
        if let p = performance.maxPixels { blurrer.detector.decoder.maxPixels = p }
        blurrer.quality = given.quality
        blurrer.keepMetadata = given.keepMetadata
        blurrer.writePreview = given.preview
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = performance.jobs ?? cores
        if let device = performance.computeDevice { blurrer.detector.computeDevice = device }
        if let s = given.tileScale { blurrer.detector.refinement?.scale = s }

        let edits = try RegionEdits(args)
        if StandardStreams.named(in: args, output: given.output) { return try await BlurPipe.run(args, given, blurrer, edits: edits) }
        let naming = OutputNaming(output: given.output.map { URL(fileURLWithPath: $0) },
                                  outDir: given.outDir.map { URL(fileURLWithPath: $0, isDirectory: true) })
        let statePath = given.state.map { URL(fileURLWithPath: $0) }
        let inputs: AnySequence<InputFiles.Input>
        let batch: BatchRun?
        if naming.output != nil || statePath != nil || !edits.isEmpty {
            // One photo edited by hand: no shard, no ledger.
            let one = Array(try selection.inputs(skipping: naming.outDir).prefix(2))
            guard one.count == 1, try BatchOptions(args).shard == nil else {
                throw InputError("-o, --state and the editing options (--add, --drop, --stroke, --confirm) take exactly one photo and no --shard")
            }
            inputs = AnySequence(one)
            batch = nil
        } else {
            batch = try BatchRun(args, outputFolder: naming.outDir)
            inputs = AnySequence(try selection.mine(batch!, skipping: naming.outDir))
        }
        let force = batch?.force ?? false

        let start = Date()
        let progress = ProgressBar(total: inputs.underestimatedCount, unit: "photos")
        // One photo alone gets a bar of its own detection (a 24-megapixel
        // photo at the privacy preset is hundreds of tiles, most of a minute).
        let detecting = DetectionProgress()
        if inputs.underestimatedCount == 1 { blurrer.detector.progressHandler = { detecting.show($0) } }
        // A batch runs one ONNX Runtime thread a run, as many runs at once as
        // there are cores (photos side by side, and a photo's passes two at a
        // time): the runs never wait on each other's threads
        // (docs/design/faces.md#runs-at-once-a-run-per-core). One photo alone
        // keeps every core on each pass: a one-pass photo would run on one.
        if performance.computeDevice == nil, inputs.underestimatedCount != 1 { blurrer.detector.computeDevice = .cpu(threads: 1) }
        var photos = 0, faces = 0, failures = 0, skipped = 0
        // Text or people covered too: the summary counts regions, not faces.
        var beyondFaces = false
        let worker = blurrer
        // The model opens beside the first photos' decoding instead of after it
        // (a failure to open it is the first photo's to report); a child task,
        // so it is awaited on every way out and never left opening at exit.
        async let opened: Void? = try? worker.prepare()
        try await processInOrder(inputs, jobs: jobs, work: { input -> Blurred in
            let began = Date()
            let out = naming.output(for: input)
            try naming.check(out, for: input)
            let job = PhotoBlurrer.Job(input: input.url, output: out, state: statePath, edits: edits)
            if !force, let done = worker.finished(job) { return .skipped(out, done, seconds(since: began)) }
            return .rendered(try await worker.run(job), seconds(since: began))
        }, deliver: { _, input, result in
            detecting.clear()
            progress.advance()
            progress.clearLine()
            switch result {
            case let .success(.rendered(outcome, time)):
                photos += 1
                faces += outcome.coveredRegions
                var how = outcome.detectorRan ? "detected \(outcome.detectedFaces)" : "from saved state"
                if let texts = outcome.state.texts { how += "; text: \(texts.items.filter(\.covered).count) of \(texts.items.count) regions" }
                if let people = outcome.state.people { how += "; people: \(people.items.filter(\.covered).count) of \(people.items.count)" }
                beyondFaces = beyondFaces || outcome.state.texts != nil || outcome.state.people != nil
                print("\(input.url.path) -> \(outcome.output.path)  \(outcome.coveredRegions) covered (\(how))")
                if let preview = outcome.preview {
                    printError("veil blur: preview \(preview.path): the original's faces are NOT covered in it (mode 0600); do not publish it")
                }
                try batch?.record(input, output: outcome.output, status: .done, source: outcome.state.source.sha256,
                                  made: outcome.state.exported?.sha256, seconds: time)
            case let .success(.skipped(out, digests, time)):
                skipped += 1
                print("\(input.url.path) -> \(out.path)  already done")
                try batch?.record(input, output: out, status: .skipped, source: digests.source, made: digests.output, seconds: time)
            case let .failure(error):
                BatchStop.waitIfStopping()  // refused by a stop under way, which ends the process
                failures += 1
                printFileError(input.url.path, error)
                try batch?.record(input, output: naming.output(for: input), status: .failed, error: error, seconds: 0)
            }
        })
        _ = await opened
        progress.finish()
        if let batch { try batch.finish(named: selection.named) }
        print(String(format: "%@, %@ covered, %@, %.1f s%@", counted(photos, "photo"), counted(faces, beyondFaces ? "region" : "face"), counted(failures, "error"),
                     Date().timeIntervalSince(start), skipped > 0 ? ", \(skipped) already done (skipped)" : ""))
        return ExitCode.succeeded(failures == 0)
    }
}

/// One photo's result in a batch: rendered now, or found done by an earlier run.
enum Blurred: Sendable {
    case rendered(PhotoBlurrer.Outcome, Double)
    case skipped(URL, (source: String, output: String), Double)
}

/// "1 photo", "2 photos": a count with its noun, as a person writes it.
func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

extension BlurCommand {
    /// Where a photo's result goes and how it is written, each option one line.
    struct Options: ParsableOptions {
        var output: String?, outDir: String?, quality: Int?, keepMetadata = false, preview = false, state: String?, tileScale: Double?

        static var options: [Option<Self>] {
            [
                .text("-o", "OUT", \.output, .output, "the one INPUT's output (its extension picks the format); - for standard output",
                      kind: .file, sample: "out.jpg"),
                .outDir(\.outDir),
                .double("tile-scale", "S", \.tileScale, in: 1...4, .detection, "the finer passes round small faces upsampled S times (1...4)",
                        default: String(format: "%g", PhotoBlurrer().detector.refinement?.scale ?? 1), sample: "2"),
                .int("quality", "Q", \.quality, in: 1...100, .output, "JPEG, WebP and HEIF quality, 1...100",
                     default: "the input's, estimated from a JPEG's tables; else 90", sample: "85"),
                .flag("keep-metadata", \.keepMetadata, .output, "keep EXIF, XMP and GPS (the orientation tag is reset: pixels are upright)"),
                .flag("preview", \.preview, .output, "also write NAME-veil.preview.jpg: the original with the covered regions boxed, beside the result"),
                .text("state", "PATH", \.state, .editing, "the editing state's file", default: "OUTPUT.veil.json", kind: .file, sample: "photo.veil.json"),
            ]
        }
    }
}
