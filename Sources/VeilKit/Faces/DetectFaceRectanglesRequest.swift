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
    /// found, precision above 0.9
    /// (docs/design/faces.md#two-operating-points-analysis-and-privacy). It is
    /// the analysis default; covering faces uses `privacy`.
    public static let defaultConfidenceThreshold: Float = 0.5

    /// Faces scoring below this are not reported.
    public var confidenceThreshold: Float = DetectFaceRectanglesRequest.defaultConfidenceThreshold
    /// Where inference runs (Vision's `setComputeDevice`).
    public var computeDevice: ComputeDevice = .cpu
    /// Where set, a face must score `confidenceThreshold x side / largeFaceSide`
    /// when its shorter side, as the network saw it, is above `largeFaceSide`
    /// network pixels (at most 0.3): low thresholds are for small faces.
    /// A large face the network is sure of scores high; the large boxes that
    /// score near a privacy threshold are patterns, a crowd's or a dress's.
    public var largeFaceSide: Double?
    /// Finer passes only where the first ones give reason to expect small
    /// faces (nil: the tiler's passes alone, at `tiling.tileScale`).
    public var refinement: DetectionRefinement?
    /// With a `refinement`: a second look at the photo turned upright when
    /// the faces it is sure of lean together (nil: upright only).
    public var turn: DetectionTurn?
    /// Which network finds the faces.
    public var model: FaceModel = .centerFace
    /// CenterFace's arithmetic: 8 bits where the CPU does them exactly (`ModelPrecision.preferred`),
    /// half the network's time at the same recall. RetinaFace always runs in float.
    public var precision: ModelPrecision = .preferred
    /// How large images are split into passes. Tiles overlap by 128 network
    /// pixels, not 256: a larger face cut by a tile is the shrunk whole pass's,
    /// and that pass needs only such faces, shrunk to 56 network pixels: the
    /// same faces covered for fewer pixels
    /// (docs/design/faces.md#photos-detection-where-faces-can-be).
    public var tiling = DetectionTiling(overlap: 128, tiledWholeFaceSide: 56)
    /// Limits and orientation handling for files and data.
    public var decoder = ImageDecoder()
    /// Where the runtime and model are installed.
    public var home: VeilHome = .default
    /// Called after each detector pass with the share of the image's passes
    /// done (0 < fraction <= 1), from the task that performs the request, as
    /// Vision's `progressHandler`. A large photo at the privacy preset is
    /// hundreds of tiles and can take a minute: this is what a progress bar
    /// reads. Passes are weighted by their pixels, which is what they cost.
    public var progressHandler: (@Sendable (_ fractionCompleted: Double) -> Void)?

    public init() {}

    /// For analysis (`veil faces`, `/v1/faces`): precision first, threshold 0.5,
    /// tiles at full resolution. The default.
    public static var analysis: DetectFaceRectanglesRequest { DetectFaceRectanglesRequest() }

    /// For covering faces (`veil blur`, `/v1/blur`, the editor): recall
    /// first. A false positive costs a blurred patch, a miss shows a face.
    /// The threshold is low, and finer tiles, upsampled 1.5x (the 8–16 px
    /// faces of a crowd), run only where the first passes saw small faces
    /// (`DetectionRefinement`): a portrait costs one pass. Chosen on
    /// faces-small, faces-dev and its unlabeled crowds, on covered share and
    /// collateral (docs/design/faces.md#photos-detection-where-faces-can-be).
    public static var privacy: DetectFaceRectanglesRequest { privacy(.centerFace) }

    /// The privacy preset with `model` at its own recall-first threshold.
    public static func privacy(_ model: FaceModel) -> DetectFaceRectanglesRequest {
        var request = DetectFaceRectanglesRequest()
        request.model = model
        request.confidenceThreshold = model.privacyThreshold
        request.refinement = DetectionRefinement()
        request.turn = DetectionTurn()
        return request
    }

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

    /// Opens the model now (read, checked, its ONNX Runtime session made), so
    /// that the first detection does not wait for it: a video starts this
    /// while its input opens. A live 1080p stream's first frame waited 107 ms
    /// for it, and every frame queued behind that one.
    func prepare() async throws {
        _ = try await loadedModel()
    }

    /// This request's model on its device and precision, loaded once per process (`InferenceRuntime`).
    func loadedModel() async throws -> any FaceDetector {
        try await model.load(runtime: InferenceRuntime.shared(home: home), device: computeDevice, precision: precision)
    }

    /// Opens the model and runs it once on a small blank picture, for a live
    /// source waiting for its first frame: ONNX Runtime's first run of a
    /// session costs more than any later one (its threads, its memory),
    /// whatever the picture's size, and a live stream's first frame, which
    /// runs every pass, is its slowest anyway, with every frame queued behind
    /// it (docs/design/video-tracking.md#a-streams-first-second).
    func warmUp() async throws {
        let detector = try await loadedModel()
        let blank = try VeilImage(pixels: [UInt8](repeating: 128, count: 320 * 192 * 3), width: 320, height: 192, bands: 3)
        _ = try await detector.detect(in: blank, scale: 1, threshold: confidenceThreshold)
    }

    /// Faces in pixel coordinates of `image`, origin top-left, best first:
    /// the tiler's passes, then, with a `refinement`, its finer passes where
    /// the first ones saw small faces, and with a `turn`, the same again on
    /// the photo turned upright when its faces lean together.
    func detect(in image: VeilImage) async throws -> [DetectedFace] {
        guard let refinement else { return try await detect(in: image, passes: tiling.passes(for: image.size)) }
        try Task.checkCancellation()
        let detector = try await loadedModel()
        let rgb = try image.srgb8().materialized()
        let first = tiling.passes(for: image.size)
        // Until the first passes say which finer ones run, the bar counts all of them.
        var progress = PassProgress(total: PassProgress.cost(first) + PassProgress.cost(refinement.tiles(for: image.size, tiling: tiling)),
                                    handler: progressHandler)
        var correction: Double?, probing = false
        let upright = try await refined(rgb, first: first, refinement: refinement, detector: detector, progress: &progress) { seen, chosen in
            // The turned look is counted as the upright one's passes on its larger canvas until its own first passes run.
            correction = turn?.correction(for: seen)
            probing = correction == nil && turn?.probes(seen) == true
            let turnedShare = correction.map { Self.canvasGrowth(for: $0, of: rgb.size) } ?? (probing ? Double(DetectionTurn.probeTurns.count) : 0)
            return (PassProgress.cost(first) + PassProgress.cost(chosen)) * (1 + turnedShare)
        }
        var found = upright.found, passes = upright.passes
        if let turn, probing {
            correction = try await probedTurn(rgb, turn: turn, uprightSure: upright.found.filter { $0.score >= turn.sureScore }.count,
                                              detector: detector, progress: &progress)
            passes += DetectionTurn.probeTurns.count * first.count
        }
        if let turn, let degrees = correction {
            let (canvas, rotation) = try turn.canvas(turning: rgb, by: degrees)
            let done = progress.done, turnedFirst = tiling.passes(for: canvas.size)
            let again = try await refined(canvas, first: turnedFirst, refinement: refinement,
                                          detector: detector, progress: &progress) { _, chosen in
                done + PassProgress.cost(turnedFirst) + PassProgress.cost(chosen)
            }
            found += again.found.compactMap { $0.turnedBack(rotation) }
            passes += again.passes
        }
        return droppingFacesThatHoldFaces(passes > 1 ? nonMaximumSuppression(found, iou: 0.3) : found)
    }

    /// The first passes over `rgb` (read down to the hints), then the finer
    /// ones round its small sightings: the faces at the threshold and how many
    /// passes ran. `total` gives the bar's total from what the first passes
    /// saw and the finer passes chosen.
    private func refined(_ rgb: VeilImage, first: [DetectionPass], refinement: DetectionRefinement, detector: any FaceDetector,
                         progress: inout PassProgress,
                         total: ([DetectedFace], [DetectionPass]) -> Double) async throws -> (found: [DetectedFace], passes: Int) {
        let (seen, chosen) = try await firstLook(rgb, first: first, refinement: refinement, detector: detector,
                                                progress: &progress, holdingLast: true)
        progress.total = total(seen, chosen)
        progress.report()
        var found = seen.filter { $0.score >= confidenceThreshold }
        found += try await run(chosen, on: rgb, detector: detector, threshold: confidenceThreshold, progress: &progress)
        return (found, first.count + chosen.count)
    }

    /// The first passes over `rgb`, their sightings read down to the hints'
    /// threshold, and the finer passes the refinement chooses round the small
    /// ones: what both a whole detection (`refined`) and a question about
    /// given places (`finds`) start from.
    func firstLook(_ rgb: VeilImage, first: [DetectionPass], refinement: DetectionRefinement, detector: any FaceDetector,
                   progress: inout PassProgress, holdingLast: Bool = false) async throws -> (seen: [DetectedFace], chosen: [DetectionPass]) {
        let threshold = min(confidenceThreshold, refinement.hintThreshold)
        let seen = try await run(first, on: rgb, detector: detector, threshold: threshold, progress: &progress, holdingLast: holdingLast)
        return (seen, refinement.passes(for: rgb.size, tiling: tiling, seen: seen))
    }

    /// The probe of a photo its upright passes half see (`DetectionTurn.probes`):
    /// the first passes on the photo turned each of `DetectionTurn.probeTurns`
    /// (exact quarter turns: no canvas grown), and the turn that is sure of the
    /// most faces, if it is sure of enough (`DetectionTurn.bestProbe`).
    private func probedTurn(_ rgb: VeilImage, turn: DetectionTurn, uprightSure: Int, detector: any FaceDetector,
                            progress: inout PassProgress) async throws -> Double? {
        var sure: [(degrees: Double, count: Int)] = []
        for degrees in DetectionTurn.probeTurns {
            let canvas = try turn.canvas(turning: rgb, by: degrees).image
            let passes = tiling.passes(for: canvas.size)
            let faces = try await run(passes, on: canvas, detector: detector, threshold: turn.sureScore, progress: &progress)
            sure.append((degrees, (passes.count > 1 ? nonMaximumSuppression(faces, iou: 0.3) : faces).count))
        }
        return turn.bestProbe(uprightSure: uprightSure, sure: sure)
    }

    /// How many times the pixels of `size` a turn by `degrees` puts on its canvas.
    static func canvasGrowth(for degrees: Double, of size: PixelSize) -> Double {
        let a = degrees * .pi / 180, c = abs(cos(a)), s = abs(sin(a)), w = Double(size.width), h = Double(size.height)
        return (w * c + h * s) * (w * s + h * c) / max(1, w * h)
    }

    /// Faces found by `passes` over `image` (upright), merged, in its pixels.
    func detect(in image: VeilImage, passes: [DetectionPass]) async throws -> [DetectedFace] {
        try Task.checkCancellation()
        let detector = try await loadedModel()
        let rgb = try image.srgb8().materialized()
        var progress = PassProgress(total: PassProgress.cost(passes), handler: progressHandler)
        let found = try await run(passes, on: rgb, detector: detector, threshold: confidenceThreshold, progress: &progress)
        return droppingFacesThatHoldFaces(passes.count > 1 ? nonMaximumSuppression(found, iou: 0.3) : found)
    }

    /// Runs `passes` over `rgb`, keeping each pass's faces it keeps, in the
    /// image's pixels; the progress of the last is left to the caller to
    /// report when `holdingLast`. The handler hears once per pass.
    ///
    /// Two passes are in flight at once: while one runs in the network, the
    /// next one's input is made (and where the session lets two runs go at
    /// once, `--threads 1`, both run). The faces are gathered in pass order,
    /// so the result is the sequential one.
    func run(_ passes: [DetectionPass], on rgb: VeilImage, detector: any FaceDetector, threshold: Float,
                     progress: inout PassProgress, holdingLast: Bool = false) async throws -> [DetectedFace] {
        let request = self
        var found = [[DetectedFace]](repeating: [], count: passes.count)
        var finished = 0
        try await withThrowingTaskGroup(of: (Int, [DetectedFace]).self) { group in
            func start(_ index: Int) {
                let pass = passes[index]
                group.addTask {
                    try Task.checkCancellation()
                    let region = pass.region
                    let source = region.width == rgb.width && region.height == rgb.height ? rgb : try rgb.cropped(to: region)
                    let faces = try await detector.detect(in: source, scale: pass.scale, threshold: threshold)
                    return (index, faces.filter { pass.keeps($0.box) && request.holdsItsScore($0, scale: pass.scale) }
                        .map { $0.mapped(dx: Double(region.x), dy: Double(region.y), sx: 1, sy: 1) })
                }
            }
            var next = 0
            while next < min(Self.passesInFlight, passes.count) { start(next); next += 1 }
            while let (index, faces) = try await group.next() {
                found[index] = faces
                finished += 1
                progress.advance(by: passes[index], quietly: holdingLast && finished == passes.count)
                if next < passes.count { start(next); next += 1 }
            }
        }
        return found.flatMap { $0 }
    }

    /// Passes of one image in flight at once (`run`).
    static let passesInFlight = 2

    /// This request on `detector`'s home, device and precision: a second
    /// request a video asks beside its detector (the lean, the other model's
    /// word, the photo of a frame) loads its model as the detector did.
    func running(like detector: DetectFaceRectanglesRequest) -> DetectFaceRectanglesRequest {
        var request = self
        (request.home, request.computeDevice, request.precision) = (detector.home, detector.computeDevice, detector.precision)
        return request
    }

    /// Whether a face scores what its size asks for (`largeFaceSide`).
    func holdsItsScore(_ face: DetectedFace, scale: Double) -> Bool {
        guard let largeFaceSide else { return true }
        let side = min(face.box.width, face.box.height) * scale
        guard side > largeFaceSide else { return true }
        return face.score >= min(max(0.3, confidenceThreshold), confidenceThreshold * Float(side / largeFaceSide))
    }
}
