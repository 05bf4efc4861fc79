import VeilKit

/// Which faces `veil faces` and `POST /v1/faces` report, as both spell it:
/// `preset` (analysis or privacy), `model` (centerface or retinaface),
/// `threshold`, `precision`. The request starts from the preset for the model; a given
/// threshold replaces the preset's.
public struct FaceOptions: Sendable {
    public var privacy = false
    public var model: FaceModel?
    public var threshold: Float?
    public var precision: ModelPrecision?

    public init(_ source: some OptionSource) throws {
        switch source.value("preset") {
        case nil, "analysis": privacy = false
        case "privacy": privacy = true
        case let other?: throw InputError("\(source.spelling("preset")) must be analysis or privacy, not '\(other)'")
        }
        model = try FaceOptions.model(source)
        threshold = try source.double("threshold", in: 0...1).map(Float.init)
        precision = try FaceOptions.precision(source)
    }

    /// The request these options describe.
    public var request: DetectFaceRectanglesRequest {
        let model = model ?? .centerFace
        var request = privacy ? DetectFaceRectanglesRequest.privacy(model) : DetectFaceRectanglesRequest()
        request.model = model
        if let threshold { request.confidenceThreshold = threshold }
        if let precision { request.precision = precision }
        return request
    }

    /// The `precision` option, when given: int8 or float.
    static func precision(_ source: some OptionSource) throws -> ModelPrecision? {
        guard let text = source.value("precision") else { return nil }
        guard let precision = ModelPrecision(rawValue: text) else {
            throw InputError("\(source.spelling("precision")) must be int8 or float, not '\(text)'")
        }
        return precision
    }

    /// The `model` option, when given: one of `FaceModel`'s names.
    static func model(_ source: some OptionSource) throws -> FaceModel? {
        guard let text = source.value("model") else { return nil }
        guard let model = FaceModel(rawValue: text) else {
            throw InputError("\(source.spelling("model")) must be \(FaceModel.allCases.map(\.rawValue).joined(separator: " or ")), not '\(text)'")
        }
        return model
    }
}
