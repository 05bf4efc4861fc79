import Foundation

/// The one folder where Veil keeps the inference runtime and models:
/// `$VEIL_HOME`, else `${XDG_CACHE_HOME:-~/.cache}/veil`.
public struct VeilHome: Sendable, Hashable {
    public var url: URL

    public init(url: URL) { self.url = url }

    public static var `default`: VeilHome {
        let env = ProcessInfo.processInfo.environment
        if let home = env["VEIL_HOME"], !home.isEmpty { return VeilHome(url: URL(fileURLWithPath: home)) }
        let cache = env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".cache")
        return VeilHome(url: URL(fileURLWithPath: cache).appendingPathComponent("veil"))
    }

    public func path(of asset: Asset) -> URL { url.appendingPathComponent(asset.fileName) }
}
