import Foundation

/// The one folder where Veil keeps the inference runtime and models:
/// `$VEIL_HOME`, else `$XDG_CACHE_HOME/veil`, else `$HOME/.cache/veil`, else
/// the passwd entry's home. `$HOME` comes before the passwd entry because a
/// fresh `HOME` (CI, a sandbox, another user's shell) must mean a fresh cache;
/// Foundation's `NSHomeDirectory()` reads the passwd entry first on Linux.
public struct VeilHome: Sendable, Hashable {
    public var url: URL

    public init(url: URL) { self.url = url }

    public static var `default`: VeilHome { resolve(ProcessInfo.processInfo.environment) }

    /// The folder `environment` names (empty variables count as unset).
    public static func resolve(_ environment: [String: String]) -> VeilHome {
        func given(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let home = given("VEIL_HOME") { return VeilHome(url: URL(fileURLWithPath: home)) }
        let cache = given("XDG_CACHE_HOME")
            ?? given("HOME").map { ($0 as NSString).appendingPathComponent(".cache") }
            ?? (passwdHome() as NSString).appendingPathComponent(".cache")
        return VeilHome(url: URL(fileURLWithPath: cache).appendingPathComponent("veil"))
    }

    /// The home directory of the passwd entry for this user.
    static func passwdHome() -> String {
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return NSHomeDirectory()
    }

    public func path(of asset: Asset) -> URL { url.appendingPathComponent(asset.fileName) }
}
