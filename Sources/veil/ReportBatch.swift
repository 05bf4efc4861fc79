import Foundation
import VeilKit
import VeilVocabulary

/// What the reporting commands (`faces`, `text`) share: their paths worked
/// on in order, `--jobs` at a time, each result printed as a table line or
/// kept for the one JSON document, a file that fails reported on one line
/// (and in the JSON) while the others go on. Returns whether all succeeded.
enum ReportBatch {
    /// A request the reporting commands configure from their shared options.
    protocol Configurable {
        var computeDevice: ComputeDevice { get set }
        var decoder: ImageDecoder { get set }
    }

    /// `request` with `--threads` and `--max-pixels` applied, after checking
    /// that `veil COMMAND` was given an IMAGE or `--inputs-from`.
    static func configure<Request: Configurable>(_ request: Request, _ args: Arguments, command: String) throws -> Request {
        try InputSelection(args).require("veil \(command) needs at least one IMAGE")
        var request = request
        let performance = try PerformanceOptions(args)
        if let device = performance.computeDevice { request.computeDevice = device }
        if let p = performance.maxPixels { request.decoder.maxPixels = p }
        return request
    }

    /// Works through the IMAGEs (or `--inputs-from`, this `--shard`'s part),
    /// `--jobs` at a time (1 by default), `--json` deciding between the table
    /// (`table(path, found, json)` is still called, for side effects such as a
    /// preview) and the document. A shard prints its part: no ledger, as these
    /// commands write no files. Returns the exit status.
    static func run<Found: Sendable, Report: FileReport>(
        _ args: Arguments, before: @escaping () -> Void = {},
        work: @escaping @Sendable (String) async throws -> Found,
        report: (String, Found) -> Report, table: (String, Found, _ json: Bool) throws -> Void
    ) async throws -> Int32 {
        let jobs = try PerformanceOptions(args).jobs ?? 1
        let json = try ReportOptions(args).json
        let batch = try BatchRun(args, outputFolder: nil, writes: false)
        let selection = InputSelection(args)
        let paths = try selection.namedOrListed(batch)
        let progress = ProgressBar(total: args.positionals.count, unit: "img")
        var reports: [Report] = []
        var failures = 0
        try await processInOrder(paths, jobs: jobs, work: work, deliver: { _, path, result in
            before()
            progress.advance()
            switch result {
            case let .success(found):
                if json { reports.append(report(path, found)) }
                try table(path, found, json)
            case let .failure(error):
                failures += 1
                if json { reports.append(Report(file: path, error: "\(error)")) }
                printFileError(path, error)
            }
        })
        progress.finish()
        try batch.finish(named: selection.named)
        if json { print(Report.document(reports).rendered) }
        return ExitCode.succeeded(failures == 0)
    }
}

extension DetectFaceRectanglesRequest: ReportBatch.Configurable {}
extension RecognizeTextRequest: ReportBatch.Configurable {}

extension CommandSpec {
    /// A command that reports on images (`faces`, `text`, `saliency`): `IMAGE...`, its own options, then
    /// the performance options and the batch selection they all take; its details end with what a file
    /// that cannot be read does.
    static func imageReport(_ name: String, summary: String, details: String, options: [OptionSpec]) -> CommandSpec {
        CommandSpec(path: [name], arguments: "IMAGE...", summary: summary,
                    details: [details + " A file that cannot be read is reported on one line, the others are still processed, and the exit status is 1."],
                    options: options + [.threads, .jobs.with(default: "1"), .maxPixels] + BatchRun.selection)
    }
}
