import VeilKit

/// Which faces `veil faces` and `POST /v1/faces` report, as both spell it,
/// each option one line: `preset` (analysis or privacy), `model`
/// (centerface or retinaface), `threshold`, `precision`, `tile-scale` (the
/// privacy preset's finer passes). The request starts from the preset for
/// the model; a given threshold replaces the preset's.
public struct FaceOptions: ParsableOptions {
    public enum Preset: String, CaseIterable, Sendable { case analysis, privacy }

    public var preset: Preset?
    public var model: FaceModel?
    public var threshold: Float?
    public var precision: ModelPrecision?
    public var tileScale: Double?

    public init() {}

    public static var options: [Option<Self>] {
        [
            .choice("preset", \.preset, .detection, "analysis: precision first; privacy: what `veil blur` covers (finer passes round small faces)",
                    default: "analysis", sample: "privacy"),
            .faceModel(\.model),
            .faceThreshold(\.threshold),
            .facePrecision(\.precision),
            .double("tile-scale", "S", \.tileScale, in: 1...4, .detection, "privacy: the finer passes round small faces upsampled S times (1...4)",
                    default: String(format: "%g", DetectFaceRectanglesRequest.privacy.refinement?.scale ?? 1), sample: "2"),
        ]
    }

    public var privacy: Bool { preset == .privacy }

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
}

/// The face detector's options, declared once for every group that has them (`FaceOptions`, `CoverOptions`).
extension Option {
    /// `model`: CenterFace or RetinaFace.
    static func faceModel(_ key: WritableKeyPath<Group, FaceModel?>) -> Option {
        .choice("model", key, .detection, "the detector; without --threshold it runs at its own privacy threshold (scores are not on one scale)",
                sample: "retinaface")
    }

    /// `threshold`: the lowest score kept.
    static func faceThreshold(_ key: WritableKeyPath<Group, Float?>) -> Option {
        .parsed("threshold", "T", key, .detection, "keep faces scoring at least T (0...1)", sample: "0.3") {
            Float(try TextNumber.double($0, in: 0...1, option: $1))
        }
    }

    /// `precision`: CenterFace in 8 bits or in float.
    static func facePrecision(_ key: WritableKeyPath<Group, ModelPrecision?>) -> Option {
        .choice("precision", key, .detection, "CenterFace in 8 bits (half the network's time, the same recall) or in float; RetinaFace is always float",
                default: "int8 with AVX2 or VNNI (7-bit weights without VNNI) and on arm64, else float", sample: "float")
    }
}
