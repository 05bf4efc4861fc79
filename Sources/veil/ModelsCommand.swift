import Foundation
import VeilKit
import VeilVocabulary

/// `veil models`: list, install and locate the runtime, models and sample photo.
enum ModelsCommand {
    static func run(_ words: [String]) throws -> Int32 {
        // Every action has always accepted --all (install uses it).
        let args = try Arguments(words, definition.acceptingSubcommandOptions)
        let store = AssetStore()
        switch args.positionals.first ?? "list" {
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
            let names = Array(args.positionals.dropFirst())
            let assets = try names.isEmpty || args.flag("--all")
                ? Asset.all.filter { $0.installedByDefault || args.flag("--all") }
                : names.map { name in
                    guard let asset = Asset.named(name) else {
                        throw InputError("unknown asset '\(name)'; known: \(Asset.all.map(\.name).joined(separator: ", "))")
                    }
                    return asset
                }
            for asset in assets {
                let installed = try store.install(asset)
                print("\(asset.name): \(installed ? "installed" : "already installed") at \(store.home.path(of: asset).path)")
            }
            return ExitCode.ok.rawValue
        case "path":
            guard args.positionals.count == 2, let asset = Asset.named(args.positionals[1]) else {
                throw InputError("veil models path NAME, with NAME one of \(Asset.all.map(\.name).joined(separator: ", "))")
            }
            print(try store.require(asset).path)
            return ExitCode.ok.rawValue
        case let other:
            throw InputError("unknown models action '\(other)' (list, install, path)")
        }
    }
}
