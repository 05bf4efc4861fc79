import Foundation

/// Finds regions of text in an image, as Vision's `DetectTextRectanglesRequest`
/// does, with PP-OCRv4's DB detector through ONNX Runtime.
///
/// ```swift
/// let regions = try await DetectTextRectanglesRequest().perform(on: url)
/// for region in regions {
///     let corners = region.corners(in: size, origin: .upperLeft)
/// }
/// ```
/// A photo up to `tiling.wholePixels` is one pass (enlarged so its shorter
/// side reaches `minimumShortSide`, as PaddleOCR does for small images); a
/// larger one gets a shrunk whole pass for large text plus tiles at full
/// resolution for small text, so 10-pixel lines in a 24-megapixel photo are
/// still seen, and a pass never exceeds the tiler's budget in memory.
public struct DetectTextRectanglesRequest: ImageRequest {
    /// Pixels of the network's map above this count as text (DB's 0.3).
    public var binarizationThreshold: Float = 0.3
    /// Regions whose mean text probability is below this are dropped (DB's 0.5).
    public var confidenceThreshold: Float = 0.5
    /// How far a region grows past the network's shrunk core: area x ratio /
    /// perimeter on every side (DB's 1.6).
    public var unclipRatio = 1.6
    /// Small images are enlarged until their shorter side is this long
    /// (PaddleOCR's 736), within `tiling.wholePixels` and at most 3x.
    public var minimumShortSide = 736
    /// Large images get full-resolution tiles (false: the shrunk whole pass only, `.fast`).
    public var usesTiles = true
    /// At most this many regions per image, the largest kept: a page of
    /// 100,000 glyphs costs a bounded amount of work after the network.
    public var maximumObservations = 1000
    /// How large images are split into passes (DetectionTiling, as for faces).
    public var tiling = DetectionTiling(wholePixels: 2_000_000, tilePixels: 1_048_576, overlap: 192, tileScale: 1, wholeMinFace: 24)
    /// The folder holding ONNX Runtime and the three text models.
    public var home: VeilHome = .default
    /// Where inference runs (Vision's `setComputeDevice`).
    public var computeDevice: ComputeDevice = .cpu
    /// Hears the share of the passes done (weighted by pixels) after each
    /// one, on the performing task: what a progress bar over a tiled photo reads.
    public var progressHandler: (@Sendable (_ fractionCompleted: Double) -> Void)?
    /// The pixel limit and EXIF handling of `perform(on: url)` and `perform(on: data)`.
    public var decoder = ImageDecoder()

    public init() {}

    /// Text in a decoded image, turned upright by `orientation` first.
    public func perform(on image: VeilImage, orientation: ImageOrientation) async throws -> [TextObservation] {
        let upright = orientation == .up ? image : try image.applying(orientation)
        return try await detect(in: upright.srgb8().materialized()).map { TextObservation($0, in: upright.size) }
    }

    /// The passes for an image of `size`.
    public func passes(for size: PixelSize) -> [DetectionPass] {
        let area = Double(max(1, size.width * size.height)), full = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
        if area <= Double(tiling.wholePixels) || !usesTiles {
            let fits = (Double(tiling.wholePixels) / area).squareRoot()
            let enlarge = min(3, max(1, Double(minimumShortSide) / Double(max(1, min(size.width, size.height)))))
            return [DetectionPass(region: full, scale: min(enlarge, fits), innerEdges: [], minFace: 0)]
        }
        // A line longer than the overlap may be whole in no tile: its cut pieces are kept (they still cover it).
        let cut = Double(tiling.overlap) / tiling.tileScale
        return tiling.whole(for: size) + tiling.tiles(for: size).map {
            DetectionPass(region: $0.region, scale: $0.scale, innerEdges: $0.innerEdges, minFace: 0, keepsCutFrom: cut)
        }
    }

    /// Text in pixels of `rgb` (upright 8-bit RGB), origin top-left, in reading order.
    func detect(in rgb: VeilImage) async throws -> [DetectedText] {
        try Task.checkCancellation()
        let network = try await TextDetectionNetwork.load(runtime: InferenceRuntime.shared(home: home), device: computeDevice)
        let map = TextMap(threshold: binarizationThreshold, boxThreshold: confidenceThreshold, unclipRatio: unclipRatio,
                          maximumCandidates: maximumObservations)
        let passes = passes(for: rgb.size)
        var progress = PassProgress(total: PassProgress.cost(passes), handler: progressHandler)
        var found: [DetectedText] = []
        for pass in passes {
            try Task.checkCancellation()
            let region = pass.region
            let source = region.width == rgb.width && region.height == rgb.height ? rgb : try rgb.cropped(to: region)
            for text in try await network.detect(in: source, scale: pass.scale, map: map) {
                guard pass.keeps(text.bounds) else { continue }
                found.append(text.mapped(dx: Double(region.x), dy: Double(region.y), sx: 1, sy: 1))
            }
            progress.advance(by: pass)
        }
        if passes.count > 1 { found = found.withoutDuplicates() }
        if found.count > maximumObservations {
            found = Array(found.sorted { $0.bounds.area > $1.bounds.area }.prefix(maximumObservations))
        }
        return DetectTextRectanglesRequest.readingOrder(found)
    }

    /// Top to bottom, then left to right within a line (tops within 10 pixels), as PaddleOCR sorts.
    static func readingOrder(_ texts: [DetectedText]) -> [DetectedText] {
        var list = texts.sorted { ($0.corners[0].y, $0.corners[0].x) < ($1.corners[0].y, $1.corners[0].x) }
        guard list.count > 1 else { return list }
        for i in 0..<(list.count - 1) {
            var j = i
            while j >= 0, abs(list[j + 1].corners[0].y - list[j].corners[0].y) < 10, list[j + 1].corners[0].x < list[j].corners[0].x {
                list.swapAt(j, j + 1)
                j -= 1
            }
        }
        return list
    }
}
