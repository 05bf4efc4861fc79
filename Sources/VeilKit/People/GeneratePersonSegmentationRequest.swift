import Foundation

/// A soft mask of the people in an image, as Vision's
/// `GeneratePersonSegmentationRequest`, with MediaPipe's selfie segmentation
/// through ONNX Runtime.
///
/// ```swift
/// let people = try await GeneratePersonSegmentationRequest().perform(on: url)
/// let silhouette = try people.generateScaledMask()   // 8-bit, the image's size
/// ```
/// People are found by their faces (`faceDetector`), then the person model is
/// run on a square crop round each face's body, so a crowd's every member is
/// segmented at the model's own scale; and by their bodies (`findsBodies`). A request is a value: configure a copy
/// and perform it from any task.
public struct GeneratePersonSegmentationRequest: Sendable {
    /// Vision's quality levels: what each buys, in model runs and refinement.
    public enum QualityLevel: String, Sendable, CaseIterable {
        /// One model run a person, the map's edges as the network gives them.
        case fast
        /// Then an edge-aware guided filter under the luminance (the default).
        case balanced
        /// Each crop also run mirrored and the maps averaged, the filter guided by the colours.
        case accurate
    }

    public var qualityLevel: QualityLevel = .balanced
    /// Who counts as a person: a face this finds (its analysis threshold,
    /// which found no face on the dev set's animal and vehicle frames).
    public var faceDetector = DetectFaceRectanglesRequest()
    public var computeDevice: ComputeDevice = .cpu
    public var decoder = ImageDecoder()
    public var home: VeilHome = .default
    /// The longest side the mask is worked out at (the model sees 256x256 a
    /// person); the mask is scaled to the image when applied.
    public var workingSide = 1024
    /// Also run the subject model and join whole each of its subjects that is
    /// mostly person already: the dancer whose face is upside down beside
    /// the crowd whose faces were found.
    public var joinsSubjects = true
    /// Also find people by their bodies (BlazePose: its detector, then its
    /// landmark model's mask on the crop round each body), kept where a face
    /// found at the privacy threshold sits in the body's head: on the dev
    /// frames four times the people's pixels of faces alone (mean J 0.280
    /// against 0.066), and no swan, dog or car taken for a person
    /// (docs/design/people.md#people-found-by-their-bodies).
    public var findsBodies = true

    public init() {}

    public func perform(on url: URL, orientation: ImageOrientation? = nil) async throws -> PersonSegmentationObservation {
        try await perform(on: decoder.decode(.url(url), orientation: orientation).image)
    }

    public func perform(on data: Data, orientation: ImageOrientation? = nil) async throws -> PersonSegmentationObservation {
        try await perform(on: decoder.decode(.data(data), orientation: orientation).image)
    }

    /// The people of a decoded image, turned upright by `orientation` first.
    public func perform(on image: VeilImage, orientation: ImageOrientation = .up) async throws -> PersonSegmentationObservation {
        let result = try await segmenter.run(orientation == .up ? image : try image.applying(orientation))
        return try PersonSegmentationObservation(result)
    }

    var segmenter: PersonSegmenter {
        var faces = faceDetector
        faces.computeDevice = computeDevice
        faces.home = home
        var subjects: GenerateForegroundInstanceMaskRequest?
        if joinsSubjects {
            subjects = GenerateForegroundInstanceMaskRequest()
            subjects?.computeDevice = computeDevice
            subjects?.home = home
        }
        return PersonSegmenter(quality: qualityLevel, faces: faces, home: home, device: computeDevice, workingSide: workingSide,
                               subjects: subjects, findsBodies: findsBodies)
    }
}

/// The people of one image: a soft mask (Vision's pixel-buffer observation)
/// and the faces they were found by.
public struct PersonSegmentationObservation: Sendable {
    /// The upright image the mask was made for.
    public let image: VeilImage
    /// One face a person, normalized to the image (origin lower-left, as Vision's boxes).
    public let faces: [NormalizedRect]
    /// The soft mask (8-bit, one band) at the working size.
    let mask: VeilImage
    /// The fraction of the image marked as people (mask above one half).
    public let coverage: Double

    init(_ result: PersonSegmenter.Result) throws {
        image = result.upright
        let (w, h) = (Double(result.working.width), Double(result.working.height))
        faces = result.faces.map { NormalizedRect(x: $0.x / w, y: 1 - ($0.y + $0.height) / h, width: $0.width / w, height: $0.height / h) }
        mask = try VeilImage(pixels: result.mask, width: result.working.width, height: result.working.height, bands: 1)
        coverage = Double(result.mask.lazy.filter { $0 >= 128 }.count) / Double(max(result.mask.count, 1))
    }

    /// The soft person mask at the image's size (8-bit, 255 = person).
    public func generateScaledMask() throws -> ScaledMask {
        var scaled = mask
        if scaled.width != image.width || scaled.height != image.height {
            scaled = try scaled.resized(width: image.width, height: image.height, kernel: .linear)
        }
        return ScaledMask(image8: try scaled.asUChar().materialized(), extent: PixelRect(x: 0, y: 0, width: image.width, height: image.height))
    }

    /// The image with everyone but the people transparent (8-bit RGBA).
    public func generateMaskedImage() throws -> VeilImage {
        try generateScaledMask().cutOut(of: image.srgb8())
    }
}
