import Foundation
import VeilKit
import VeilVocabulary

/// `veil models`: list, install and locate the runtime, models and sample photo.
enum ModelsCommand {
    /// `veil models [--all] [ACTION ...]`: the action may also follow options (`veil models --all install`).
    static func run(_ words: [String]) throws -> Int32 {
        let args = try Arguments(words, definition.acceptingSubcommandOptions)
        return try perform(args.positionals.first ?? "list", args, names: Array(args.positionals.dropFirst()))
    }

    /// `veil models ACTION WORDS`, as main resolves the subcommand.
    static func action(_ name: String, _ words: [String]) throws -> Int32 {
        // Every action has always accepted --all (install uses it); --help is the action's own.
        var spec = definition.acceptingSubcommandOptions
        spec.path = ["models", name]
        let args = try Arguments(words, spec)
        return try perform(name, args, names: args.positionals)
    }

    private static func perform(_ action: String, _ args: Arguments, names: [String]) throws -> Int32 {
        let store = AssetStore()
        switch action {
        case "list":
            print("VEIL_HOME \(store.home.url.path)")
            for asset in Asset.all {
                let state: String
                switch store.state(of: asset) {
                case .missing where !asset.installedByDefault: state = "optional     run `veil models install \(asset.name)`"
                case .missing: state = "missing      run `veil models install \(asset.name)`"
                case let .installed(bytes): state = String(format: "%7.1f MB  sha256 ok", Double(bytes) / 1e6)
                case let .corrupt(bytes, sha): state = String(format: "%7.1f MB  sha256 MISMATCH (%@...)", Double(bytes) / 1e6, String(sha.prefix(12)))
                }
                print("\(asset.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(asset.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(state)   \(asset.requirement), \(asset.licence)")
            }
            // Optional assets (u2net) do not make the list fail when absent.
            return ExitCode.succeeded(Asset.all.allSatisfy { !$0.installedByDefault || store.state(of: $0) != .missing })
        case "install":
            let all = try Options(args).all
            let assets = try names.isEmpty || all
                ? Asset.all.filter { $0.installedByDefault || all }
                : names.map { name in
                    guard let asset = Asset.named(name) else {
                        throw InputError("unknown asset '\(name)'; known: \(Asset.all.map(\.name).joined(separator: ", "))")
                    }
                    return asset
                }
            // Each wheel downloaded once: the sample photos share scikit-image's.
            for (asset, installed) in zip(assets, try store.install(assets)) {
                print("\(asset.name): \(installed ? "installed" : "already installed") at \(store.home.path(of: asset).path)")
            }
            return ExitCode.ok.rawValue
        case "path":
            guard names.count == 1, let asset = Asset.named(names[0]) else {
                throw InputError("veil models path NAME, with NAME one of \(Asset.all.map(\.name).joined(separator: ", "))")
            }
            print(try store.require(asset).path)
            return ExitCode.ok.rawValue
        case let other:
            throw InputError("unknown models action '\(other)' (list, install, path)")
        }
    }
}

extension ModelsCommand {
    /// What `install` takes besides names: one line.
    struct Options: ParsableOptions {
        var all = false

        static var options: [Option<Self>] { [.flag("all", \.all, .other, "every asset, the optional ones too")] }
    }
}
