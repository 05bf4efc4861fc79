extension StatusCommand {
    static let definition = CommandSpec(
        path: ["status"], arguments: "OUT_DIR [INPUT...]",
        summary: "where a sharded batch stands: done, skipped, failed and missing over every task's ledger",
        details: ["The inputs are those the tasks listed in their plans, or, given the job's own INPUTs or --inputs-from, exactly those. "
                  + "Exit 0 only when every input is done."],
        options: [
            BatchOptions.spec(\.inputsFrom).with(help: "the job's manifest (one path a line; - for standard input)", value: "FILE"),
            Options.spec(\.show),
        ],
        positionals: .directory)
        .runs { try run($0) }
        .examples(.init("veil status /data/out", "done, skipped, failed and missing inputs of a batch; exit 0 when it is complete"))
}
