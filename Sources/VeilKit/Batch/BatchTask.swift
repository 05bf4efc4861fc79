import Foundation

/// One array task's part of a batch: which inputs are its own (its shard),
/// the plan of them, and its ledger. Commands list their inputs through
/// `take`, publish the plan of what it kept (`publish`) before the first
/// output, work on it and `record` each result, so at every instant, a
/// stop at any moment included, `veil status` compares the whole plan with
/// what the ledger says was done.
public final class BatchTask: @unchecked Sendable {
    /// The shard (`whole` when the batch is not split).
    public let shard: Shard
    /// Whether inputs are hashed to shards at all (not for an unsplit batch).
    private let splitting: Bool
    /// The output folder's bookkeeping; nil when outputs have no common folder
    /// (then nothing is recorded, only the shard is honoured).
    public let record: BatchRecord?
    private let ledger: LedgerWriter?
    private var previous: [String: LedgerEntry]?
    /// Inputs met and inputs kept.
    public private(set) var seen = 0, taken = 0
    /// Temporary files of dead runs removed when the task began.
    public private(set) var swept = 0

    /// `shard`: nil for an unsplit batch (no hashing; recorded as shard 0/1).
    /// When this task ran before (its ledger is there), the temporary files
    /// that a SIGKILL or a crash left in the output folder are removed first
    /// (`TemporaryFiles.sweepStale`): once per rerun, not once per task of a
    /// first run, since walking a large output folder is not free.
    public init(shard: Shard?, outputFolder: URL?) throws {
        self.shard = shard ?? .whole
        splitting = shard != nil
        record = outputFolder.map { BatchRecord(outputFolder: $0) }
        guard let record, let outputFolder else { ledger = nil; return }
        if FileManager.default.fileExists(atPath: record.ledger(for: self.shard).path) {
            swept = TemporaryFiles.sweepStale(in: outputFolder)
        }
        ledger = try LedgerWriter(record.ledger(for: self.shard))
    }

    /// Whether the input at `relative` (its path below its input root) is this task's.
    public func take(_ relative: String) -> Bool {
        seen += 1
        guard !splitting || shard.contains(relative) else { return false }
        taken += 1
        return true
    }

    /// Publishes the plan, every input this task will work on, under its
    /// final name (temp + rename): before any output, so that a task stopped
    /// at any moment after it is seen to be incomplete by what is missing.
    public func publish(plan inputs: [String]) throws {
        guard let record else { return }
        let url = record.plan(for: shard)
        try FolderCreation.make(url.deletingLastPathComponent(), for: url.path)
        try AtomicFile.write(Data(inputs.map { $0 + "\n" }.joined().utf8), to: url)
    }

    public func record(_ entry: LedgerEntry) throws { try ledger?.append(entry) }

    /// The last `done` or `skipped` line any earlier run wrote for `relative`
    /// (for commands whose outputs carry no editing state of their own).
    /// The ledgers are read once, keeping only this shard's inputs.
    public func lastFinished(_ relative: String) -> LedgerEntry? {
        if previous == nil {
            var found: [String: LedgerEntry] = [:]
            if let record {
                for entry in LedgerReader.entries(in: record) where entry.status != .failed && shard.contains(entry.input) {
                    found[entry.input] = entry
                }
            }
            previous = found
        }
        return previous?[relative]
    }

    /// Whether `output` is still exactly what an earlier run made from this
    /// very `input`: both files' sha256 as the ledger recorded them.
    public func finishedBefore(_ relative: String, input: URL, output: URL) -> (source: String, output: String)? {
        guard let entry = lastFinished(relative), entry.output == output.path,
              let source = entry.sourceSHA256, let made = entry.outputSHA256,
              FileManager.default.fileExists(atPath: output.path),
              (try? SHA256.hex(fileAt: output)) == made, (try? SHA256.hex(fileAt: input)) == source else { return nil }
        return (source, made)
    }
}

extension BatchTask {
    /// A file's sha256 (hex), as ledgers record inputs and outputs.
    public static func digest(of url: URL) throws -> String { try SHA256.hex(fileAt: url) }
}
