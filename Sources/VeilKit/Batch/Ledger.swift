import Foundation
import Synchronization

/// What a batch task did with each input, appended one JSON line per item as
/// it goes, so that a task killed at any moment leaves an exact record up to
/// its last finished item. Each task (shard) writes its own file under
/// `OUT/.veil/ledger/`, so tasks on many machines never write the same file
/// (appends from several NFS clients to one file are not atomic).
public struct LedgerEntry: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case done, skipped, failed }

    /// The input's path relative to its root: the key shards are chosen by.
    public var input: String
    public var output: String?
    public var status: Status
    public var sourceSHA256: String?
    public var outputSHA256: String?
    public var error: String?
    public var seconds: Double
    /// The shard that wrote the line, `I/N`.
    public var shard: String
    public var time: String

    public init(input: String, output: String?, status: Status, sourceSHA256: String? = nil, outputSHA256: String? = nil,
                error: String? = nil, seconds: Double, shard: Shard, time: Date = Date()) {
        self.input = input
        self.output = output
        self.status = status
        self.sourceSHA256 = sourceSHA256
        self.outputSHA256 = outputSHA256
        self.error = error
        self.seconds = seconds
        self.shard = shard.description
        self.time = ISO8601DateFormatter().string(from: time)
    }

    enum CodingKeys: String, CodingKey {
        case input, output, status, error, seconds, shard, time
        case sourceSHA256 = "source_sha256", outputSHA256 = "output_sha256"
    }
}

/// The bookkeeping folder of a batch's output: `OUT/.veil/` holds one ledger
/// and one plan (the inputs the task was given) per shard. Hidden, so folder
/// inputs never pick it up.
public struct BatchRecord: Sendable {
    public let folder: URL

    public init(outputFolder: URL) {
        folder = outputFolder.appendingPathComponent(".veil", isDirectory: true)
    }

    var ledgers: URL { folder.appendingPathComponent("ledger", isDirectory: true) }
    var plans: URL { folder.appendingPathComponent("plan", isDirectory: true) }

    static func name(_ shard: Shard) -> String { "shard-\(shard.index)-of-\(shard.count)" }
    public func ledger(for shard: Shard) -> URL { ledgers.appendingPathComponent(BatchRecord.name(shard) + ".jsonl") }
    public func plan(for shard: Shard) -> URL { plans.appendingPathComponent(BatchRecord.name(shard) + ".txt") }

    /// The shard a ledger or plan file was written by, from its name.
    static func shard(named file: URL) -> Shard? {
        let parts = file.deletingPathExtension().lastPathComponent.split(separator: "-")
        guard parts.count == 4, parts[0] == "shard", parts[2] == "of", let i = Int(parts[1]), let n = Int(parts[3]) else { return nil }
        return Shard(index: i, count: n)
    }
}

/// Appends ledger lines to one task's file. One `write` per line on a file
/// opened for appending; a line cut short by a kill is ended by the next run
/// and skipped by readers. Not fsync'ed per line: a killed process loses
/// nothing (the kernel holds its writes); only a machine crash can lose the
/// last lines, and then the items are merely done again.
public final class LedgerWriter: Sendable {
    /// Held while a line is written, so lines from several tasks never interleave.
    private let handle: Mutex<FileHandle>
    private let encoder: JSONEncoder

    public init(_ url: URL) throws {
        try FolderCreation.make(url.deletingLastPathComponent(), for: url.path)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw VeilError.unwritable(path: url.path, reason: String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A previous run killed mid-line: end that line so ours parse.
        if let size = try? handle.seekToEnd(), size > 0 {
            let reader = try FileHandle(forReadingFrom: url)
            defer { try? reader.close() }
            try reader.seek(toOffset: size - 1)
            if reader.readData(ofLength: 1) != Data("\n".utf8) { handle.write(Data("\n".utf8)) }
        }
        self.handle = Mutex(handle)
    }

    public func append(_ entry: LedgerEntry) throws {
        var line = try encoder.encode(entry)
        line.append(UInt8(ascii: "\n"))
        try handle.withLock { try $0.write(contentsOf: line) }
    }
}
