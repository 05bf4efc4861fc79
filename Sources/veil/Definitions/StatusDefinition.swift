extension StatusCommand {
    static let definition = CommandSpec(
        path: ["status"], arguments: "OUT_DIR [INPUT...]",
        summary: "where a sharded batch stands: done, skipped, failed and missing over every task's ledger",
        details: ["The inputs are those the tasks listed in their plans, or, given the job's own INPUTs or --inputs-from, exactly those. "
                  + "Exit 0 only when every input is done."],
        options: [
            .valued("--inputs-from", "FILE", .batch, "the job's manifest (one path a line; - for standard input)", kind: .file, sample: "list.txt"),
            .valued("--show", "N", .output, "list at most N failed and N missing inputs", default: "20", sample: "5"),
        ],
        positionals: .directory)
        .runs { try run($0) }
        .examples(.init("veil status /data/out", "done, skipped, failed and missing inputs of a batch; exit 0 when it is complete"))
}
