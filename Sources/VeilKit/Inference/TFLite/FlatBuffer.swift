/// A read-only view of one table in a FlatBuffers buffer: the format TFLite
/// models are stored in. Just what reading a model needs: scalars, strings,
/// vectors and sub-tables by field index, every offset checked against the
/// buffer so that a damaged file is an error, never a crash.
struct FlatTable {
    let bytes: [UInt8]
    /// Where the table starts in `bytes`.
    let position: Int

    /// The root table of a buffer.
    static func root(of bytes: [UInt8]) throws -> FlatTable {
        let offset = try Int(read(UInt32.self, bytes, at: 0))
        return FlatTable(bytes: bytes, position: offset)
    }

    /// The absolute position of field `index`, or nil if the table leaves it out (its default).
    func field(_ index: Int) throws -> Int? {
        let vtable = position - Int(try Self.read(Int32.self, bytes, at: position))
        let vtableSize = Int(try Self.read(UInt16.self, bytes, at: vtable))
        let entry = 4 + 2 * index
        guard entry + 2 <= vtableSize else { return nil }
        let offset = Int(try Self.read(UInt16.self, bytes, at: vtable + entry))
        return offset == 0 ? nil : position + offset
    }

    func scalar<T: FixedWidthInteger>(_ index: Int, default value: T = 0) throws -> T {
        guard let at = try field(index) else { return value }
        return try Self.read(T.self, bytes, at: at)
    }

    func table(_ index: Int) throws -> FlatTable? {
        guard let at = try field(index) else { return nil }
        return FlatTable(bytes: bytes, position: at + Int(try Self.read(UInt32.self, bytes, at: at)))
    }

    /// A vector field: the position of its first element and its length.
    func vector(_ index: Int) throws -> (start: Int, count: Int)? {
        guard let at = try field(index) else { return nil }
        let start = at + Int(try Self.read(UInt32.self, bytes, at: at))
        let count = Int(try Self.read(UInt32.self, bytes, at: start))
        return (start + 4, count)
    }

    func string(_ index: Int) throws -> String? {
        guard let (start, count) = try vector(index) else { return nil }
        return String(decoding: try slice(start, count), as: UTF8.self)
    }

    func bytesVector(_ index: Int) throws -> ArraySlice<UInt8> {
        guard let (start, count) = try vector(index) else { return [] }
        return try slice(start, count)
    }

    func integers<T: FixedWidthInteger>(_ index: Int, as type: T.Type) throws -> [T] {
        guard let (start, count) = try vector(index) else { return [] }
        _ = try slice(start, count * MemoryLayout<T>.size)
        return try (0..<count).map { try Self.read(T.self, bytes, at: start + $0 * MemoryLayout<T>.size) }
    }

    func tables(_ index: Int) throws -> [FlatTable] {
        guard let (start, count) = try vector(index) else { return [] }
        return try (0..<count).map { i in
            let at = start + 4 * i
            return FlatTable(bytes: bytes, position: at + Int(try Self.read(UInt32.self, bytes, at: at)))
        }
    }

    private func slice(_ start: Int, _ count: Int) throws -> ArraySlice<UInt8> {
        guard start >= 0, count >= 0, start <= bytes.count, count <= bytes.count - start else {
            throw VeilError.inference("model file is truncated (flatbuffer)")
        }
        return bytes[start..<start + count]
    }

    /// A little-endian integer at `at`, or an error if it runs past the buffer.
    static func read<T: FixedWidthInteger>(_ type: T.Type, _ bytes: [UInt8], at: Int) throws -> T {
        let size = MemoryLayout<T>.size
        guard at >= 0, at <= bytes.count - size else { throw VeilError.inference("model file is truncated (flatbuffer)") }
        var value: T = 0
        for i in 0..<size { value |= T(truncatingIfNeeded: bytes[at + i]) << (8 * i) }
        return value
    }
}
