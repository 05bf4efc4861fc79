import Foundation

/// Finds faces in an image, as Vision's `DetectFaceRectanglesRequest` does,
/// with CenterFace through ONNX Runtime.
///
/// ```swift
/// let faces = try await DetectFaceRectanglesRequest().perform(on: url)
/// for face in faces {
///     let box = face.boundingBox.toImageCoordinates(size, origin: .upperLeft)
/// }
/// ```
/// A request is a value: configure a copy, perform it from any task. The model
/// is loaded once per process and shared.
public struct DetectFaceRectanglesRequest: Sendable {
    /// The default threshold, chosen on the labelled dev set: every labelled face
    /// found, precision above 0.9 (see README, "Choosing the threshold").
    public static let defaultConfidenceThreshold: Float = 0.5

    /// Faces scoring below this are not reported.
    public var confidenceThreshold: Float = DetectFaceRectanglesRequest.defaultConfidenceThreshold
    /// Where inference runs (Vision's `setComputeDevice`).
    public var computeDevice: ComputeDevice = .cpu
    /// How large images are split into passes.
    public var plan = DetectionPlan()
    /// Limits and orientation handling for files and data.
    public var decoder = ImageDecoder()
    /// Where the runtime and model are installed.
    public var home: VeilHome = .default

    public init() {}

    /// Faces in the image at `url`. With `orientation` nil the file's EXIF
    /// orientation is honoured; results refer to the upright image.
    public func perform(on url: URL, orientation: ImageOrientation? = nil) async throws -> [FaceObservation] {
        try await perform(on: decoder.decode(.url(url), orientation: orientation).image)
    }

    /// Faces in encoded image bytes (JPEG, PNG, WebP, HEIC, TIFF).
    public func perform(on data: Data, orientation: ImageOrientation? = nil) async throws -> [FaceObservation] {
        try await perform(on: decoder.decode(.data(data), orientation: orientation).image)
    }

    /// Faces in a decoded image, turned upright by `orientation` first.
    public func perform(on image: VeilImage, orientation: ImageOrientation = .up) async throws -> [FaceObservation] {
        let upright = orientation == .up ? image : try image.applying(orientation)
        return try await detect(in: upright).map { $0.observation(in: upright.size) }
    }

    /// Faces in pixel coordinates of `image`, origin top-left, best first.
    func detect(in image: VeilImage) async throws -> [DetectedFace] {
        try Task.checkCancellation()
        let model = try CenterFace.load(runtime: InferenceRuntime.shared(home: home), device: computeDevice)
        let rgb = try image.srgb8().materialized()
        var found: [DetectedFace] = []
        for pass in plan.passes(for: rgb.size) {
            try Task.checkCancellation()
            let region = pass.region
            let source = region.width == rgb.width && region.height == rgb.height ? rgb : try rgb.cropped(to: region)
            let faces = try await model.detect(in: source, scale: pass.scale, threshold: confidenceThreshold)
            for face in faces where !Self.touches(face.box, pass: pass) {
                found.append(face.mapped(dx: Double(region.x), dy: Double(region.y), sx: 1, sy: 1))
            }
        }
        return nonMaximumSuppression(found, iou: 0.3)
    }

    /// Whether a face lies against one of the tile's inner edges, and so may be cut.
    private static func touches(_ box: ImageRect, pass: DetectionPlan.Pass) -> Bool {
        let margin = 2.0, w = Double(pass.region.width), h = Double(pass.region.height)
        let e = pass.innerEdges
        return (e.left && box.x <= margin) || (e.top && box.y <= margin)
            || (e.right && box.x + box.width >= w - margin) || (e.bottom && box.y + box.height >= h - margin)
    }
}
