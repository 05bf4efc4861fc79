/// A dense float32 tensor in row-major order: what models take and give.
public struct Tensor: Sendable {
    public var shape: [Int]
    public var values: [Float]

    public init(shape: [Int], values: [Float]) {
        precondition(shape.reduce(1, *) == values.count, "tensor shape \(shape) does not match \(values.count) values")
        self.shape = shape
        self.values = values
    }
}
