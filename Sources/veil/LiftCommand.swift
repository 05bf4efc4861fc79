import Foundation
import VeilKit
import VeilVocabulary

/// `veil lift`: cut the subjects out of images (transparent background), or
/// write their soft masks, or list the instances as JSON.
enum LiftCommand {
    /// Where the results go, besides what to lift (`LiftOptions`, shared with the service).
    struct Options: Sendable {
        var lift: SubjectLift
        var output: String?
        var outDir: String?
        var json = false
        /// `--jobs`: images in flight at once.
        var jobs: Int?
    }

    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, definition)
        let options = try parse(args)
        if StandardStreams.named(in: args, output: options.output) { return try await LiftPipe.run(args, options) }
        let batch = try BatchRun(args, outputFolder: options.outDir.map { URL(fileURLWithPath: $0, isDirectory: true) })
        let selection = InputSelection(args)
        let paths = try selection.mine(batch)
        // Two images in flight by default: inferences still run one at a time
        // (the session's turn, at a thread a core), but one image's decoding, mask and PNG overlap the
        // other's inference, which leaves part of the cores idle with 8-bit
        // convolutions: subjects-dev 8% faster on 2 cores, peak RSS +2% (a third: no faster).
        let jobs = options.jobs ?? 2
        if options.output != nil && !selection.isOne {
            throw InputError("-o takes exactly one IMAGE; use --out-dir for several")
        }

        let progress = ProgressBar(total: paths.underestimatedCount, unit: "img")
        var reports: [LiftReport] = []
        var failures = 0
        let force = batch.force, task = batch.task
        try await processInOrder(paths, jobs: jobs, work: { input -> Lifted in
            let began = Date()
            // An output an earlier run made from these very bytes is kept (the ledger has both sha256s).
            if !force, !options.json, let target = destination(for: input.url, options),
               let done = task.finishedBefore(input.relative, input: input.url, output: target) {
                return Lifted(report: nil, seconds: seconds(since: began), source: done.source, made: done.output)
            }
            let report = try await lift(input.url.path, options)
            let made = try report.output.map { try BatchTask.digest(of: URL(fileURLWithPath: $0)) }
            return Lifted(report: report, seconds: seconds(since: began), source: try BatchTask.digest(of: input.url), made: made)
        }, deliver: { _, input, result in
            progress.advance()
            let target = destination(for: input.url, options)
            switch result {
            case let .success(lifted):
                if let report = lifted.report, options.json { reports.append(report) }
                if lifted.report == nil { print("\(input.url.path) -> \(target?.path ?? "")  already done") }
                try batch.record(input, output: target, status: lifted.report == nil ? .skipped : .done,
                                 source: lifted.source, made: lifted.made, seconds: lifted.seconds)
            case let .failure(error):
                BatchStop.waitIfStopping()  // refused by a stop under way, which ends the process
                failures += 1
                if options.json { reports.append(LiftReport(file: input.url.path, error: "\(error)")) }
                printFileError(input.url.path, error)
                try batch.record(input, output: target, status: .failed, error: error, seconds: 0)
            }
        })
        progress.finish()
        try batch.finish(named: selection.named)
        if options.json { print(LiftReport.document(reports).rendered) }
        return ExitCode.succeeded(failures == 0)
    }

    static func parse(_ args: Arguments) throws -> Options {
        try InputSelection(args).require("veil lift needs at least one IMAGE")
        var lift = try SubjectLift(args) { path in
            guard let path else { throw InputError("--effect replace needs a PATH: replace=PATH") }
            return try ImageDecoder().decode(.url(URL(fileURLWithPath: path))).image
        }
        let performance = try PerformanceOptions(args)
        if let device = performance.computeDevice { lift.request.computeDevice = device }
        if let p = performance.maxPixels { lift.request.decoder.maxPixels = p }
        let written = try Outputs(args)
        let o = Options(lift: lift, output: written.output, outDir: written.outDir, json: written.json, jobs: performance.jobs)
        if o.output != nil && o.outDir != nil { throw InputError("give -o or --out-dir, not both") }
        if let output = o.output { _ = try OutputPath.format(output, option: "-o") }
        return o
    }

    static func lift(_ path: String, _ o: Options) async throws -> LiftReport {
        let input = URL(fileURLWithPath: path)
        let format = try o.output.flatMap { try EncodedFormat(outputPath: $0) } ?? .png
        let write = destination(for: input, o).map { target in { (data: Data) throws -> String in
            try SameFile.refuse(output: target.path, input: input.path)
            try OutputNaming.makeFolder(for: target)
            try AtomicFile.write(data, to: target)
            return target.path
        } }
        return try await lift(.url(input), named: path, o, format: format, write: write)
    }

    /// One image lifted from `source`: its subjects found and, when `write`
    /// is given, the result encoded as `format` and handed to it (it returns
    /// where the bytes went, for the report). Files and standard input share it.
    static func lift(_ source: ImageSource, named path: String, _ o: Options, format: EncodedFormat,
                     write: ((Data) throws -> String)?) async throws -> LiftReport {
        let decoded = try o.lift.request.decoder.decode(source)
        let size = decoded.image.size
        let observation = try await o.lift.perform(on: decoded.image)
        if observation == nil { printError("veil: \(path): no \(o.lift.lifted) found") }
        let chosen = observation.map(o.lift.choose) ?? IndexSet()
        var written: String?
        if let write {
            let image = try o.lift.render(observation, chosen: chosen, of: decoded.image)
            if format == .jpeg || format == .bmp, case .remove = o.lift.effect, !o.lift.maskOnly {
                throw VeilError.invalidArgument("a cut-out needs transparency: write PNG or WebP, not \(format.rawValue.uppercased())")
            }
            written = try write(try ImageEncoder(format: format).encode(image))
        }
        return LiftReport(file: path, size: size, instances: observation?.instances ?? [], chosen: chosen, output: written)
    }

    /// `-o OUT`, or NAME.png in `--out-dir`; nothing when only JSON is wanted.
    static func destination(for input: URL, _ o: Options) -> URL? {
        if let output = o.output { return URL(fileURLWithPath: output) }
        let stem = input.deletingPathExtension().lastPathComponent
        if let dir = o.outDir { return URL(fileURLWithPath: dir).appendingPathComponent(OutputNaming.fitting(stem, tail: ".png")) }
        if o.json { return nil }
        let suffix = o.lift.maskOnly ? "-mask.png" : "-lifted.png"
        return input.deletingLastPathComponent().appendingPathComponent(OutputNaming.fitting(stem, tail: suffix))
    }
}

/// One image's result in a batch: lifted now (with its report), or found done by an earlier run.
struct Lifted: Sendable {
    var report: LiftReport?
    var seconds: Double
    var source: String?
    var made: String?
}

extension LiftCommand {
    /// Where the subjects go, and the report: each option one line.
    struct Outputs: ParsableOptions {
        var output: String?, outDir: String?, json = false

        static var options: [Option<Self>] {
            [
                .text("-o", "OUT", \.output, .output, "the one IMAGE's output (PNG or WebP keep the transparency); - for standard output",
                      kind: .file, sample: "out.png"),
                .outDir(\.outDir),
                .flag("json", \.json, .output, "print the instances (label, area, box in pixels) as JSON"),
            ]
        }
    }
}
