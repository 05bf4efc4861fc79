import Foundation
import VeilKit
import VeilVocabulary

/// What `blur`, `faces`, `lift` and `video` share when they run as one task of
/// many: the shard (`--shard I/N` or the engine's environment), the inputs
/// kept for it, the ledger and plan under the output folder, and `--force`.
struct BatchRun {
    /// Which inputs this task takes: every batch command has these (`faces` too).
    static var selection: [OptionSpec] { BatchOptions.selection }
    /// What `blur`, `lift` and `video` include: the selection and the ledger.
    static var options: [OptionSpec] { BatchOptions.selection + BatchOptions.ledger }

    let task: BatchTask
    let choice: ShardChoice?
    /// Render even what an earlier run finished.
    let force: Bool
    private let start = Date()

    /// `outputFolder`: where the ledger goes (`--out-dir`); nil records nothing.
    /// `writes`: whether the command writes files (`faces` and `text` do not),
    /// which a stop by a signal must leave whole or absent (`BatchStop`).
    init(_ args: Arguments, outputFolder: URL?, writes: Bool = true) throws {
        let given = try BatchOptions(args)
        choice = try given.shard ?? ShardChoice.fromEnvironment()
        // faces and text take the selection alone (no ledger to skip by, nothing to force).
        force = given.force
        // --no-ledger: an output folder that must hold nothing but outputs (then `veil status` cannot help).
        task = try BatchTask(shard: choice?.shard, outputFolder: given.noLedger ? nil : outputFolder)
        if let choice { printError("veil: shard \(choice)") }
        if task.swept > 0, let outputFolder { printError("veil: removed \(task.swept) temporary file(s) a stopped run left in \(outputFolder.path)") }
        if writes { BatchStop.install(outputFolder: task.record == nil ? nil : outputFolder) }
    }

    /// This task's inputs, listed whole and published as its plan before the
    /// first output (`BatchTask.publish`). A usage error when there are none.
    func plan(_ inputs: AnySequence<InputFiles.Input>, named paths: [String]) throws -> [InputFiles.Input] {
        let kept = Array(mine(inputs))
        try requireInputs(named: paths)
        try task.publish(plan: kept.map(\.relative))
        BatchStop.planned(kept.count)
        return kept
    }

    /// This task's inputs, lazily: each kept by the hash of its relative path.
    func mine(_ inputs: AnySequence<InputFiles.Input>) -> LazyFilterSequence<AnySequence<InputFiles.Input>> {
        let task = self.task
        return inputs.lazy.filter { task.take($0.relative) }
    }

    /// The usage error when the task met no inputs at all.
    private func requireInputs(named paths: [String]) throws {
        guard task.seen > 0 else { throw InputError("no inputs found in \(paths.isEmpty ? "--inputs-from" : paths.joined(separator: ", "))") }
    }

    /// Records one item's result in the ledger.
    func record(_ input: InputFiles.Input, output: URL?, status: LedgerEntry.Status, source: String? = nil, made: String? = nil,
                error: Error? = nil, seconds: Double) throws {
        BatchStop.finished(status)
        try task.record(LedgerEntry(input: input.relative, output: output?.path, status: status, sourceSHA256: source,
                                    outputSHA256: made, error: error.map { "\($0)" }, seconds: seconds, shard: task.shard))
    }

    /// Says how many inputs this shard took. Throws the usage error when
    /// there were no inputs at all.
    func finish(named paths: [String]) throws {
        try requireInputs(named: paths)
        if let choice { printError("veil: shard \(choice.shard): \(task.taken) of \(task.seen) inputs") }
    }
}

/// Seconds since `start`, for ledger lines.
func seconds(since start: Date) -> Double { (Date().timeIntervalSince(start) * 1000).rounded() / 1000 }
