import Foundation

/// One array task's part of a batch: which inputs are its own (its shard),
/// the plan of them it writes as it meets them, and its ledger. Commands
/// stream their inputs through `take`, work on what it keeps, and `record`
/// each result; `finish` publishes the plan, so `veil status` knows the
/// task listed all its inputs.
public final class BatchTask: @unchecked Sendable {
    /// The shard (`whole` when the batch is not split).
    public let shard: Shard
    /// Whether inputs are hashed to shards at all (not for an unsplit batch).
    private let splitting: Bool
    /// The output folder's bookkeeping; nil when outputs have no common folder
    /// (then nothing is recorded, only the shard is honoured).
    public let record: BatchRecord?
    private let ledger: LedgerWriter?
    private var plan: FileHandle?
    private var planTemp: URL?
    private var previous: [String: LedgerEntry]?
    /// Inputs met and inputs kept.
    public private(set) var seen = 0, taken = 0

    /// `shard`: nil for an unsplit batch (no hashing; recorded as shard 0/1).
    public init(shard: Shard?, outputFolder: URL?) throws {
        self.shard = shard ?? .whole
        splitting = shard != nil
        record = outputFolder.map { BatchRecord(outputFolder: $0) }
        guard let record else { ledger = nil; return }
        ledger = try LedgerWriter(record.ledger(for: self.shard))
        let final = record.plan(for: self.shard)
        try? FileManager.default.createDirectory(at: final.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temp = final.deletingLastPathComponent().appendingPathComponent(".\(final.lastPathComponent).\(getpid()).tmp")
        guard FileManager.default.createFile(atPath: temp.path, contents: nil), let handle = try? FileHandle(forWritingTo: temp) else {
            throw VeilError.unwritable(path: final.path, reason: "cannot create it")
        }
        plan = handle
        planTemp = temp
    }

    /// Whether the input at `relative` (its path below its input root) is this
    /// task's; if so it is added to the plan.
    public func take(_ relative: String) -> Bool {
        seen += 1
        guard !splitting || shard.contains(relative) else { return false }
        taken += 1
        plan?.write(Data((relative + "\n").utf8))
        return true
    }

    public func record(_ entry: LedgerEntry) throws { try ledger?.append(entry) }

    /// Publishes the plan under its final name (temp + rename, like outputs).
    public func finish() throws {
        guard let plan, let planTemp, let record else { return }
        try plan.close()
        self.plan = nil
        guard rename(planTemp.path, record.plan(for: shard).path) == 0 else {
            throw VeilError.unwritable(path: record.plan(for: shard).path, reason: String(cString: strerror(errno)))
        }
    }

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
