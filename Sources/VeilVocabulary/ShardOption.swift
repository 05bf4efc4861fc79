import Foundation
import VeilKit

/// Which part of a batch this process does: `--shard I/N` on the command
/// line, or, with no flag, the array index a cluster engine gives its tasks.
/// The flag wins over the environment; `origin` says which was used, so the
/// task's log shows it.
public struct ShardChoice: Sendable, CustomStringConvertible {
    public var shard: Shard
    /// `--shard 1/4`, or the variables read (`SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=4`).
    public var origin: String

    public var description: String { "\(shard) (from \(origin))" }

    public init(shard: Shard, origin: String) { self.shard = shard; self.origin = origin }

    /// `I/N` with 0 ≤ I < N, I zero-based as array indices are.
    public static func parse(_ text: String, option: String) throws -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw InputError("\(option) takes I/N (the I-th of N parts, counted from 0), not '\(text)'") }
        let count = try TextNumber.int(String(parts[1]), in: 1...1_000_000, option: "\(option)'s N")
        let index = try TextNumber.int(String(parts[0]), in: 0...count - 1, option: "\(option)'s I")
        return Shard(index: index, count: count)!
    }

    /// The flag `name` if given, else the engine's environment, else nil (the whole batch).
    /// Slurm: `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT` or `_MIN`/`_MAX`
    /// (a stepped array like `0-6:2` counts its tasks, not its numbers);
    /// Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` with `VEIL_SHARD_COUNT`
    /// (the pod cannot see `completions`); AWS Batch: `AWS_BATCH_JOB_ARRAY_INDEX`
    /// with `AWS_BATCH_JOB_ARRAY_SIZE`.
    public static func resolve(_ options: OptionSource, name: String = "shard",
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ShardChoice? {
        if let text = options.value(name) {
            let option = options.spelling(name)
            return ShardChoice(shard: try parse(text, option: option), origin: "\(option) \(text)")
        }
        return try fromEnvironment(environment)
    }

    /// The engine's array task from `env`, or nil outside an array.
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) throws -> ShardChoice? {
        func number(_ key: String, in range: ClosedRange<Int> = 0...Int(Int32.max)) throws -> Int? {
            guard let text = env[key], !text.isEmpty else { return nil }
            return try TextNumber.int(text, in: range, option: key)
        }
        func origin(_ keys: [String]) -> String {
            keys.compactMap { key in env[key].map { "\(key)=\($0)" } }.joined(separator: " ")
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            let keys = ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX"]
            let min = try number("SLURM_ARRAY_TASK_MIN"), max = try number("SLURM_ARRAY_TASK_MAX")
            let count: Int
            if let c = try number("SLURM_ARRAY_TASK_COUNT", in: 1...1_000_000) { count = c }
            else if let min, let max, max >= min { count = max - min + 1 }
            else { throw InputError("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MIN/MAX; give --shard I/N") }
            let first = min ?? 0
            let step = count > 1 && max != nil ? Swift.max(1, (max! - first) / (count - 1)) : 1
            guard id >= first, (id - first) % step == 0, let shard = Shard(index: (id - first) / step, count: count) else {
                throw InputError("\(origin(keys)) does not name one of the array's tasks; give --shard I/N")
            }
            return ShardChoice(shard: shard, origin: origin(keys))
        }
        // An index and the count beside it; Kubernetes cannot tell a pod its Job's completions.
        let engines = [("JOB_COMPLETION_INDEX", "VEIL_SHARD_COUNT", " (a Kubernetes Indexed Job: set it to the Job's completions)"),
                       ("AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE", "")]
        for (indexKey, countKey, hint) in engines {
            guard let index = try number(indexKey) else { continue }
            guard let count = try number(countKey, in: 1...1_000_000) else {
                throw InputError("\(indexKey) is set but \(countKey) is not\(hint); or give --shard I/N")
            }
            guard let shard = Shard(index: index, count: count) else {
                throw InputError("\(origin([indexKey, countKey])): the index must be below the count")
            }
            return ShardChoice(shard: shard, origin: origin([indexKey, countKey]))
        }
        return nil
    }
}
