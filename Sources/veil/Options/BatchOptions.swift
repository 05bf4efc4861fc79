import VeilKit
import VeilVocabulary

/// What a batch command takes as one task of many, each option one line:
/// the inputs listed in a file, the shard, and the ledger's `--force` and `--no-ledger`.
struct BatchOptions: ParsableOptions {
    var inputsFrom: String?, shard: ShardChoice?, force = false, noLedger = false

    static var options: [Option<Self>] {
        [
            .text("inputs-from", "FILE|-", \.inputsFrom, .batch, "also the paths listed in FILE, one a line (- for standard input), read as a stream",
                  kind: .file, sample: "list.txt"),
            .parsed("shard", "I/N", \.shard, .batch, "only the I-th of N parts (0-based), by a hash of each input's path",
                    default: "the array task from the environment: Slurm, Kubernetes, AWS Batch", sample: "0/2") { text, option in
                ShardChoice(shard: try ShardChoice.parse(text, option: option), origin: "\(option) \(text)")
            },
            .flag("force", \.force, .batch, "redo what an earlier run finished (its ledger line and outputs match)"),
            .flag("no-ledger", \.noLedger, .batch, "write no .veil folder under --out-dir (then `veil status` cannot help)"),
        ]
    }

    /// Which inputs this task takes: every batch command has these (`faces` too).
    static var selection: [OptionSpec] { [spec(\.inputsFrom), spec(\.shard)] }
    /// The ledger under `--out-dir`: for the commands that write outputs.
    static var ledger: [OptionSpec] { [spec(\.force), spec(\.noLedger)] }
}
