/// A dense float32 tensor in row-major order: what models take and give.
public struct Tensor: Sendable {
    public var shape: [Int]
    public var values: [Float]

    public init(shape: [Int], values: [Float]) {
        precondition(shape.reduce(1, *) == values.count, "tensor shape \(shape) does not match \(values.count) values")
        self.shape = shape
        self.values = values
    }

    /// An NCHW image tensor [1, 3, height, width] from interleaved 8-bit RGB,
    /// each channel c mapped to value * scale[c] - offset[c]: the one layout
    /// conversion every model here needs, with its own normalization.
    public init(planarRGB rgb: [UInt8], width: Int, height: Int,
                scale: [Float] = [1, 1, 1], offset: [Float] = [0, 0, 0]) {
        let count = width * height
        precondition(rgb.count == count * 3, "\(rgb.count) bytes are not \(width)x\(height) RGB")
        // Written once, never zeroed first: every value is set below.
        let out = [Float](unsafeUninitializedCapacity: count * 3) { dst, initialized in
            rgb.withUnsafeBufferPointer { src in
                // One pass over the pixels, three planes written (three strided passes read them three times).
                let (s0, s1, s2) = (scale[0], scale[1], scale[2]), (o0, o1, o2) = (offset[0], offset[1], offset[2])
                for i in 0..<count {
                    dst[i] = Float(src[3 * i]) * s0 - o0
                    dst[count + i] = Float(src[3 * i + 1]) * s1 - o1
                    dst[2 * count + i] = Float(src[3 * i + 2]) * s2 - o2
                }
            }
            initialized = count * 3
        }
        self.init(shape: [1, 3, height, width], values: out)
    }
}

extension Tensor {
    /// An NCHW tensor [1, 3, height, width] in blue, green, red plane order
    /// from interleaved 8-bit RGB, each value mapped to v * scale - offset:
    /// what PaddleOCR's networks take (trained on OpenCV's BGR images).
    init(planarBGR rgb: [UInt8], width: Int, height: Int, scale: Float, offset: Float) {
        self.init(planarRGB: rgb, width: width, height: height, scale: [scale, scale, scale], offset: [offset, offset, offset])
        let plane = width * height
        values.withUnsafeMutableBufferPointer { v in
            for i in 0..<plane { v.swapAt(i, 2 * plane + i) }
        }
    }
}

/// A dense uint8 tensor in row-major order: an image as an 8-bit model takes
/// it (NHWC, the decoder's own bytes: no conversion, a quarter of the
/// floats' memory) and the 8-bit features it can hand back.
public struct ByteTensor: Sendable {
    public var shape: [Int]
    public var values: [UInt8]

    public init(shape: [Int], values: [UInt8]) {
        precondition(shape.reduce(1, *) == values.count, "tensor shape \(shape) does not match \(values.count) bytes")
        self.shape = shape
        self.values = values
    }
}
