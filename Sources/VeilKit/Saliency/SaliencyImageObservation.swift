import Foundation

/// What a saliency request finds, as Vision's `SaliencyImageObservation`: a
/// small heat map of the image (0...1, Vision's 68x68) and the salient
/// objects' boxes, normalized with Vision's lower-left origin.
public struct SaliencyImageObservation: Sendable {
    public struct SalientObject: Sendable, Hashable {
        public var boundingBox: NormalizedRect
        /// The heat map's peak inside the box (0...1).
        public var confidence: Float
    }

    /// The heat map's side: Vision's saliency maps are 68x68 whatever the image.
    public static let side = 68

    /// Row-major heat values, `side` x `side`, origin upper-left, 0...1.
    public let heatMap: [Float]
    public let salientObjects: [SalientObject]
    /// The upright image's size.
    public let imageSize: PixelSize

    /// The heat map as an 8-bit grey picture, stretched to `size` (the image's by default).
    public func heatMapImage(size: PixelSize? = nil) throws -> VeilImage {
        let small = try VeilImage(floats: heatMap.map { $0 * 255 }, width: Self.side, height: Self.side)
        let target = size ?? imageSize
        return try small.resized(width: target.width, height: target.height, kernel: .linear).asUChar().materialized()
    }

    /// A heat map from a one-band float image (0...1) of any size, and the
    /// objects from the regions above `threshold` of the map's peak, each
    /// grown through its neighbours above `extent` of it (hysteresis, as an
    /// edge detector keeps its weak edges that touch strong ones). A region
    /// cut at exactly `threshold` splits where the map dips: u2netp's map of
    /// the rocket sample dips to 0.48 of its peak where the rocket meets its
    /// mount with 7-bit weights (0.61 in float), and the box stopped there.
    init(map: VeilImage, imageSize: PixelSize, threshold: Float = 0.5, extent: Float = 0.4, minimumFraction: Double = 0.002) throws {
        let side = Self.side
        let small = try map.resized(width: side, height: side, kernel: .linear).materialized()
        var values = try small.floatValues().map { min(1, max(0, $0)) }
        if values.count != side * side { values = [Float](repeating: 0, count: side * side) }
        heatMap = values
        self.imageSize = imageSize
        let peak = values.max() ?? 0
        guard peak > 0.05 else { salientObjects = []; return }
        // Regions over the extent, a label image of them, one box each that reaches the threshold.
        let foreground = values.map { $0 >= min(extent, threshold) * peak ? UInt8(255) : 0 }
        let (labels, instances) = try InstanceLabeling.label(
            foreground: VeilImage(pixels: foreground, width: side, height: side, bands: 1),
            minimumArea: max(1, Int(minimumFraction * Double(side * side))))
        salientObjects = instances.compactMap { info in
            let b = info.boundingBox
            var best: Float = 0
            for y in b.y..<(b.y + b.height) { for x in b.x..<(b.x + b.width) where labels.label(x: x, y: y) == info.label { best = max(best, values[y * side + x]) } }
            guard best >= threshold * peak else { return nil }
            let s = Double(side)
            return SalientObject(boundingBox: NormalizedRect(x: Double(b.x) / s, y: 1 - Double(b.y + b.height) / s,
                                                             width: Double(b.width) / s, height: Double(b.height) / s),
                                 confidence: best)
        }
    }
}
