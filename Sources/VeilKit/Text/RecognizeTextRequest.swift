import Foundation

/// Finds and reads lines of text, as Vision's `RecognizeTextRequest` does:
/// PP-OCRv4's detector (`DetectTextRectanglesRequest`), PaddleOCR's
/// 0/180-degree classifier for upside-down lines, and PP-OCRv4's CTC
/// recogniser (Chinese and Latin script, digits, punctuation).
///
/// ```swift
/// for line in try await RecognizeTextRequest().perform(on: url) {
///     print(line.topCandidates(1).first?.string ?? "")
/// }
/// ```
public struct RecognizeTextRequest: ImageRequest {
    /// `.accurate`: detection as `DetectTextRectanglesRequest` does it (tiles
    /// for large photos) and the orientation model. `.fast`: detection at
    /// most a megapixel, no enlarging, no tiles, no orientation model.
    public enum RecognitionLevel: String, Sendable, Hashable, CaseIterable { case fast, accurate }

    public var recognitionLevel: RecognitionLevel = .accurate
    /// Readings below this confidence are not reported (rapidocr's 0.5).
    public var minimumConfidence: Float = 0.5
    /// The detector. Its device, decoder, home and progress handler are this
    /// request's (the properties below read and write them): one place each.
    public var detector = DetectTextRectanglesRequest()
    /// At most this many lines are read per image (the largest first): a
    /// photo of 100,000 glyphs costs a bounded number of recogniser runs.
    public var maximumRecognized = 500
    public var computeDevice: ComputeDevice { get { detector.computeDevice } set { detector.computeDevice = newValue } }
    public var decoder: ImageDecoder { get { detector.decoder } set { detector.decoder = newValue } }
    public var home: VeilHome { get { detector.home } set { detector.home = newValue } }
    /// Called after each detector pass with the share done (the reading is the last step).
    public var progressHandler: (@Sendable (_ fractionCompleted: Double) -> Void)? {
        get { detector.progressHandler } set { detector.progressHandler = newValue }
    }

    public init() {}

    /// Lines of text in a decoded image, turned upright by `orientation` first, in reading order.
    public func perform(on image: VeilImage, orientation: ImageOrientation) async throws -> [RecognizedTextObservation] {
        let upright = orientation == .up ? image : try image.applying(orientation)
        let rgb = try upright.srgb8().materialized()
        let texts = try await configuredDetector.detect(in: rgb)
        return try await read(texts, in: rgb).compactMap { text, reading, flipped in
            guard reading.confidence >= minimumConfidence, !reading.string.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            return RecognizedTextObservation(region: TextObservation(text, in: rgb.size), candidates: [reading], upsideDown: flipped)
        }
    }

    /// The detector as this request's level and settings ask.
    var configuredDetector: DetectTextRectanglesRequest {
        var d = detector
        if recognitionLevel == .fast {
            d.usesTiles = false
            d.minimumShortSide = 0
            d.tiling.wholePixels = min(d.tiling.wholePixels, 1_000_000)
        }
        return d
    }

    /// Each region read (at most `maximumRecognized`, the largest; the others
    /// get an empty reading), with whether it was read upside down.
    func read(_ texts: [DetectedText], in rgb: VeilImage) async throws -> [(DetectedText, RecognizedText, Bool)] {
        guard !texts.isEmpty else { return [] }
        try Task.checkCancellation()
        let runtime = try InferenceRuntime.shared(home: home)
        let recognizer = try await TextRecognitionNetwork.load(runtime: runtime, device: computeDevice)
        let (pixels, bands) = try rgb.interleavedPixels()
        guard bands == 3 else { throw VeilError.inference("text lines are read from RGB, not \(bands) bands") }
        let crop = TextLineCrop(pixels: pixels, width: rgb.width, height: rgb.height)
        let chosen = Array(texts.indices.sorted { texts[$0].bounds.area > texts[$1].bounds.area }.prefix(maximumRecognized))
        var lines = chosen.map { TextLineCrop.readingCorners(texts[$0].corners) }
        var flipped = [Bool](repeating: false, count: chosen.count)
        if recognitionLevel == .accurate {
            flipped = try await TextOrientationNetwork.load(runtime: runtime, device: computeDevice).upsideDown(lines, crop: crop)
            lines = zip(chosen, flipped).map { TextLineCrop.readingCorners(texts[$0].corners, upsideDown: $1) }
        }
        let readings = try await recognizer.read(lines, crop: crop)
        var result = texts.map { ($0, RecognizedText(string: "", confidence: 0), false) }
        for (k, index) in chosen.enumerated() {
            result[index] = (texts[index], RecognizedText(string: readings[k].text, confidence: readings[k].confidence), flipped[k])
        }
        return result
    }
}
