import Foundation

/// U^2-Net (full or small): one foreground probability map per image, the
/// same preprocessing as rembg so that its published behaviour is a baseline.
struct SaliencyNetwork: Sendable {
    static let side = 320
    let session: InferenceSession

    static func load(_ model: GenerateForegroundInstanceMaskRequest.Model, home: VeilHome, device: ComputeDevice,
                     precision: GenerateForegroundInstanceMaskRequest.Precision = .float) async throws -> SaliencyNetwork {
        let runtime = try InferenceRuntime.shared(home: home)
        let weights = precision == .int8 && model == .u2netp ? runtime.eightBitWeights : nil
        let session = try await runtime.session(for: model.asset, variant: weights == nil ? nil : "int8", device: device) {
            try prepared($0, weightPeak: weights?.peak)
        }
        return SaliencyNetwork(session: session)
    }

    /// The pinned file as the session loads it: u2netp in 8 bits with weights within
    /// ±`weightPeak` (nil: the file's float), only the fused map declared, axes made free.
    static func prepared(_ model: [UInt8], weightPeak: Int?) throws -> [UInt8] {
        let weights = try weightPeak.map { try QDQRewriter.quantize(model, with: .u2netp, weightPeak: $0) } ?? model
        return try ONNXGraphRepair.repair(finalMapOnly(weights), symbolicAxes: [0, 2, 3])
    }

    /// `model` declaring only its first output, the fused map: the six side maps
    /// (deep supervision for training) are then neither made nor copied out per run.
    static func finalMapOnly(_ model: [UInt8]) throws -> [UInt8] {
        try model[...].rewriting(7) { graph in  // ModelProto.graph
            var out: [UInt8] = [], outputs = 0
            for field in try ProtoField.parse(graph) {
                if field.number == 12, field.wire == 2 {  // GraphProto.output
                    outputs += 1
                    if outputs > 1 { continue }
                }
                out.append(contentsOf: field.raw)
            }
            return out
        }
    }

    /// The network's final map for `image` (8-bit RGB) squeezed to `side` x
    /// `side` (the model's axes are made free for this): a one-band float
    /// image of that size, each pixel the probability of foreground (0...1).
    func map(for image: VeilImage, side: Int = SaliencyNetwork.side) async throws -> VeilImage {
        let small = try image.resized(width: side, height: side, kernel: .lanczos3).asUChar()
        let input = Self.normalized(try small.pixelBytes(), side: side)
        let outputs = try await session.run([input])
        guard let first = session.outputNames.first, let map = outputs[first], map.values.count == side * side else {
            throw VeilError.inference("U^2-Net gave no \(side)x\(side) map")
        }
        return try VeilImage(floats: map.values, width: side, height: side)
    }

    /// The network's input: divided by the brightest value, then ImageNet
    /// mean and standard deviation, as rembg does.
    static func normalized(_ rgb: [UInt8], side: Int) -> Tensor {
        let mean: [Float] = [0.485, 0.456, 0.406], std: [Float] = [0.229, 0.224, 0.225]
        let peak = Float(max(rgb.max() ?? 1, 1))
        return Tensor(planarRGB: rgb, width: side, height: side,
                      scale: std.map { 1 / (peak * $0) }, offset: zip(mean, std).map { $0 / $1 })
    }
}
