import Foundation
import VeilKit
import VeilVocabulary

/// `veil status OUT_DIR`: where a sharded batch stands, merged over every
/// task's ledger. The inputs are those the tasks listed in their plans, or,
/// given the same INPUTs / --inputs-from as the job, exactly those.
enum StatusCommand {
    static func run(_ words: [String]) throws -> Int32 {
        let args = try Arguments(words, definition)
        guard let folder = args.positionals.first else { throw InputError("veil status needs the OUT_DIR a batch wrote to") }
        let outDir = URL(fileURLWithPath: folder, isDirectory: true)
        let record = BatchRecord(outputFolder: outDir)
        guard FileManager.default.fileExists(atPath: record.folder.path) else {
            throw VeilError.unreadable(path: outDir.path, reason: "no batch has written there (no .veil folder)")
        }
        let show = try Options(args).show ?? 20
        let selection = InputSelection(args, named: Array(args.positionals.dropFirst()))
        var expected: [String]?
        if !selection.isEmpty {
            let inputs = try selection.inputs(skipping: outDir, extensions: InputFiles.imageExtensions.union(InputFiles.videoExtensions))
            expected = inputs.map(\.relative)
        }
        let summary = BatchSummary(record: record, expected: expected)
        let total = summary.done.count + summary.skipped.count + summary.failed.count + summary.missing.count
        print("\(outDir.path): \(total) inputs: \(summary.done.count) done, \(summary.skipped.count) skipped (done before), "
              + "\(summary.failed.count) failed, \(summary.missing.count) missing")
        if summary.unplanned { print("no task has recorded a plan or a ledger line there yet") }
        for shard in summary.unlisted { print("shard \(shard) has not listed its inputs yet (not started, or stopped early)") }
        for entry in summary.failed.prefix(show) { print("failed  \(entry.input): \(entry.error ?? "unknown error") (shard \(entry.shard))") }
        for input in summary.missing.prefix(show) { print("missing \(input)") }
        let more = max(0, summary.failed.count - show) + max(0, summary.missing.count - show)
        if more > 0 { print("... and \(more) more (--show N)") }
        print(summary.isComplete ? "complete" : "incomplete")
        return ExitCode.succeeded(summary.isComplete)
    }
}

extension StatusCommand {
    /// How much the report lists: one line.
    struct Options: ParsableOptions {
        var show: Int?

        static var options: [Option<Self>] {
            [.int("show", "N", \.show, in: 0...1_000_000, .output, "list at most N failed and N missing inputs", default: "20", sample: "5")]
        }
    }
}
