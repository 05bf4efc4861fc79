import Foundation

/// Reads back what the tasks of a batch recorded under `OUT/.veil/`.
public enum LedgerReader {
    /// Every well-formed ledger line of every task, file by file in name order,
    /// lines in the order written (a line cut short by a kill is skipped).
    public static func entries(in record: BatchRecord) -> [LedgerEntry] {
        let decoder = JSONDecoder()
        var entries: [LedgerEntry] = []
        for file in files(in: record.ledgers, ext: "jsonl") {
            guard let data = try? Data(contentsOf: file) else { continue }
            for line in data.split(separator: UInt8(ascii: "\n")) {
                if let entry = try? decoder.decode(LedgerEntry.self, from: line) { entries.append(entry) }
            }
        }
        return entries
    }

    /// The plans published by tasks that listed all their inputs, by shard.
    public static func plans(in record: BatchRecord) -> [Shard: URL] {
        var plans: [Shard: URL] = [:]
        for file in files(in: record.plans, ext: "txt") {
            if let shard = BatchRecord.shard(named: file) { plans[shard] = file }
        }
        return plans
    }

    static func files(in folder: URL, ext: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0.hasSuffix("." + ext) }.sorted().map { folder.appendingPathComponent($0) }
    }
}

/// Where a batch stands: each expected input's latest ledger line, merged over
/// every task's ledger.
public struct BatchSummary: Sendable {
    public var done: [String] = []
    public var skipped: [String] = []
    public var failed: [LedgerEntry] = []
    public var missing: [String] = []
    /// Shards that have not yet published the plan of their inputs (when the
    /// inputs were not given): their inputs are not known, so not complete.
    public var unlisted: [Shard] = []
    /// How many times each input was rendered (`done` lines), over all runs.
    public var renders: [String: Int] = [:]

    /// No task has left a plan or a ledger: nothing says what the batch holds.
    public var unplanned = false

    public var isComplete: Bool { failed.isEmpty && missing.isEmpty && unlisted.isEmpty && !unplanned }

    /// `expected`: the inputs' relative paths, or nil to take them from the
    /// tasks' published plans.
    public init(record: BatchRecord, expected: [String]? = nil) {
        var latest: [String: LedgerEntry] = [:]
        for entry in LedgerReader.entries(in: record) {
            if let old = latest[entry.input], old.time > entry.time { continue }
            latest[entry.input] = entry
            if entry.status == .done { renders[entry.input, default: 0] += 1 }
        }
        var inputs = expected ?? []
        if expected == nil {
            let plans = LedgerReader.plans(in: record)
            // The newest job's shard count decides which plans belong together;
            // a task's ledger is there from its start, its plan once it has
            // listed its inputs, so a task stopped before that is still counted.
            let ledgers = LedgerReader.files(in: record.ledgers, ext: "jsonl").compactMap(BatchRecord.shard(named:))
            let count = (plans.keys.map(\.count) + ledgers.map(\.count)).max() ?? 0
            if count == 0 { unplanned = true }
            var seen = Set<String>()
            for index in 0..<count {
                guard let file = plans[Shard(index: index, count: count)!] else { unlisted.append(Shard(index: index, count: count)!); continue }
                let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
                for line in text.split(separator: "\n") where seen.insert(String(line)).inserted { inputs.append(String(line)) }
            }
        }
        for input in inputs {
            switch latest[input]?.status {
            case .done?: done.append(input)
            case .skipped?: skipped.append(input)
            case .failed?: failed.append(latest[input]!)
            case nil: missing.append(input)
            }
        }
    }
}
