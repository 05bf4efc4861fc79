/// A sparse TFLite constant's layout (schema.fbs `SparsityParameters`): the
/// weights BlazePose's detector ships compressed, which its DENSIFY operators
/// expand when the model loads. The converter expands them once, at install,
/// so the ONNX model holds plain dense weights.
///
/// Covered: each dimension dense or CSR, traversed in the tensor's own order
/// with no blocks (TFLite's converter writes this for pruned weights); any
/// other layout is refused by name.
struct TFLiteSparsity {
    struct Dimension {
        var dense: Bool
        var denseSize: Int
        /// CSR: where each parent's run of indices starts and ends, and the indices.
        var segments: [Int]
        var indices: [Int]
    }

    var dimensions: [Dimension]

    /// Reads `SparsityParameters` {traversal_order, block_map, dim_metadata}.
    init(_ table: FlatTable, rank: Int) throws {
        let order = try table.integers(0, as: Int32.self).map(Int.init)
        let blocks = try table.integers(1, as: Int32.self)
        guard order == Array(0..<rank), blocks.isEmpty else {
            throw VeilError.inference("TFLite sparse tensor with a traversal order \(order) or blocks is not converted")
        }
        dimensions = try table.tables(2).map { d in
            // DimensionMetadata {format, dense_size, array_segments_type, array_segments, array_indices_type, array_indices}.
            let format: Int8 = try d.scalar(0)
            guard format == 0 || format == 1 else { throw VeilError.inference("TFLite sparse dimension format \(format) is not converted") }
            return Dimension(dense: format == 0, denseSize: Int(try d.scalar(1) as Int32),
                             segments: try Self.vector(d, typeField: 2, valueField: 3),
                             indices: try Self.vector(d, typeField: 4, valueField: 5))
        }
        guard dimensions.count == rank else { throw VeilError.inference("TFLite sparse tensor has \(dimensions.count) dimensions for rank \(rank)") }
    }

    /// A union of Int32Vector (1), Uint16Vector (2) and Uint8Vector (3), each a table of one `values` vector.
    private static func vector(_ table: FlatTable, typeField: Int, valueField: Int) throws -> [Int] {
        let type: UInt8 = try table.scalar(typeField)
        guard type != 0, let values = try table.table(valueField) else { return [] }
        switch type {
        case 1: return try values.integers(0, as: Int32.self).map(Int.init)
        case 2: return try values.integers(0, as: UInt16.self).map(Int.init)
        case 3: return try values.integers(0, as: UInt8.self).map(Int.init)
        default: throw VeilError.inference("TFLite sparse index vector type \(type) is not converted")
        }
    }

    /// The dense row-major array of `shape` that the stored `values` (in traversal order) stand for.
    func densify(_ values: [Float], shape: [Int]) throws -> [Float] {
        var dense = [Float](repeating: 0, count: shape.reduce(1, *))
        var next = 0
        // Walks the dimensions depth first: `parent` numbers the node among its level's nodes (CSR's segment index).
        func walk(_ level: Int, parent: Int, offset: Int) throws {
            if level == dimensions.count {
                guard next < values.count else { throw VeilError.inference("TFLite sparse tensor has too few values") }
                dense[offset] = values[next]; next += 1
                return
            }
            let d = dimensions[level], size = shape[level]
            if d.dense {
                guard d.denseSize == size else { throw VeilError.inference("TFLite sparse dimension \(level) is \(d.denseSize), not \(size)") }
                for i in 0..<size { try walk(level + 1, parent: parent * size + i, offset: offset * size + i) }
            } else {
                guard parent + 1 < d.segments.count, d.segments[parent] <= d.segments[parent + 1], d.segments[parent + 1] <= d.indices.count else {
                    throw VeilError.inference("TFLite sparse dimension \(level) has bad segments")
                }
                for k in d.segments[parent]..<d.segments[parent + 1] {
                    let i = d.indices[k]
                    guard (0..<size).contains(i) else { throw VeilError.inference("TFLite sparse index \(i) is outside 0..<\(size)") }
                    try walk(level + 1, parent: k, offset: offset * size + i)
                }
            }
        }
        try walk(0, parent: 0, offset: 0)
        guard next == values.count else { throw VeilError.inference("TFLite sparse tensor has \(values.count - next) values left over") }
        return dense
    }
}
