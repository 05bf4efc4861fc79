import Foundation
import VeilVocabulary

/// The inputs a batch command was given: the paths named and the list of
/// `--inputs-from`, read once, with what every batch command does with them
/// (refuse none, take one, list them, keep this shard's part).
struct InputSelection {
    /// The paths on the command line (`veil status` names its folder first: not among them).
    let named: [String]
    /// `--inputs-from FILE` (`-`: standard input), nil when not given or not declared.
    let manifest: String?

    init(_ args: Arguments, named: [String]? = nil) {
        self.named = named ?? args.positionals
        manifest = try? BatchOptions.read(\.inputsFrom, from: args)
    }

    var isEmpty: Bool { named.isEmpty && manifest == nil }
    /// One path named, none listed: what `-o` and standard streams take.
    var isOne: Bool { named.count == 1 && manifest == nil }

    /// A usage error saying `message` when there are no inputs at all.
    func require(_ message: @autoclosure () -> String) throws {
        if isEmpty { throw InputError(message()) }
    }

    /// The folders and files named, then the listed paths, streamed (`InputFiles.inputs`).
    func inputs(skipping excluded: URL? = nil, extensions: Set<String> = InputFiles.imageExtensions) throws -> AnySequence<InputFiles.Input> {
        try InputFiles.inputs(named, from: manifest, skipping: excluded, extensions: extensions)
    }

    /// This task's part of them, listed whole before any work, and published
    /// as its plan (`BatchRun.plan`): a record that says what is missing
    /// whenever the task stops. A manifest of a million paths is ~100 MB here.
    func mine(_ batch: BatchRun, skipping excluded: URL? = nil, extensions: Set<String> = InputFiles.imageExtensions) throws -> [InputFiles.Input] {
        try batch.plan(try inputs(skipping: excluded, extensions: extensions), named: named)
    }

    /// The paths a reporting command (`faces`, `text`, `saliency`) works on:
    /// the IMAGEs as named (never recursed), or those of `--inputs-from`, this shard's part.
    func namedOrListed(_ batch: BatchRun) throws -> [String] {
        let listed = try manifest.map { try InputFiles.inputs([], from: $0) }
            ?? AnySequence(named.map { InputFiles.Input(url: URL(fileURLWithPath: $0), relative: URL(fileURLWithPath: $0).lastPathComponent) })
        return batch.mine(listed).map(\.url.path)
    }
}
