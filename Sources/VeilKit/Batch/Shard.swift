import Foundation

/// One of N parts of a batch, as an array task of a cluster engine sees it
/// (Slurm, a Kubernetes Indexed Job, AWS Batch). Zero-based: shard 0 of 4 is
/// the first of four, as Slurm's `--array=0-3` numbers them.
///
/// An input belongs to the shard chosen by a stable hash of its path relative
/// to its input root — never by its position in a listing — so adding files to
/// a folder, or listing it in another order, does not move finished work from
/// one task to another.
public struct Shard: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// Nil unless 0 ≤ index < count.
    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// The whole batch: one shard of one.
    public static let whole = Shard(index: 0, count: 1)!

    /// `I/N`, as `--shard` takes it.
    public var description: String { "\(index)/\(count)" }

    /// Whether the input at `relativePath` is this shard's to do.
    public func contains(_ relativePath: String) -> Bool {
        Shard.bucket(of: relativePath, among: count) == index
    }

    /// The shard (0..<count) an input path falls in: the first eight bytes of
    /// the SHA-256 of its UTF-8 path, modulo `count`. SHA-256 because it is
    /// already linked, spreads any naming scheme evenly, and is the same on
    /// every machine and every release (Swift's `hashValue` is seeded per process).
    public static func bucket(of relativePath: String, among count: Int) -> Int {
        let digest = SHA256.hex(Array(relativePath.utf8))
        let value = UInt64(digest.prefix(16), radix: 16) ?? 0
        return Int(value % UInt64(count))
    }
}
