import VeilKit

/// Which faces `veil faces` and `POST /v1/faces` report, as both spell it:
/// `preset` (analysis or privacy), `model` (centerface or retinaface),
/// `threshold`, `precision`, `tile-scale` (the privacy preset's finer passes). The request
/// starts from the preset for the model; a given threshold replaces the preset's.
public struct FaceOptions: Sendable {
    public var privacy = false
    public var model: FaceModel?
    public var threshold: Float?
    public var precision: ModelPrecision?
    public var tileScale: Double?

    public init(_ source: some OptionSource) throws {
        switch source.value("preset") {
        case nil, "analysis": privacy = false
        case "privacy": privacy = true
        case let other?: throw InputError("\(source.spelling("preset")) must be analysis or privacy, not '\(other)'")
        }
        model = try FaceOptions.model(source)
        threshold = try source.double("threshold", in: 0...1).map(Float.init)
        precision = try FaceOptions.precision(source)
        tileScale = try source.double("tile-scale", in: 1...4)
    }

    /// The request these options describe.
    public var request: DetectFaceRectanglesRequest {
        let model = model ?? .centerFace
        var request = privacy ? DetectFaceRectanglesRequest.privacy(model) : DetectFaceRectanglesRequest()
        request.model = model
        if let threshold { request.confidenceThreshold = threshold }
        if let precision { request.precision = precision }
        if let tileScale { request.refinement?.scale = tileScale }
        return request
    }

    /// The `precision` option, when given: int8 or float.
    static func precision(_ source: some OptionSource) throws -> ModelPrecision? {
        try source.choice("precision", of: ModelPrecision.self)
    }

    /// The `model` option, when given: one of `FaceModel`'s names.
    static func model(_ source: some OptionSource) throws -> FaceModel? {
        try source.choice("model", of: FaceModel.self)
    }
}
