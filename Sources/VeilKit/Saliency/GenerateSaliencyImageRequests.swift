import Foundation

/// Where the objects are, as Vision's `GenerateObjectnessBasedSaliencyImageRequest`:
/// the subject model's foreground map (U^2-Net, which was trained for exactly
/// this, salient object detection) as the heat map, its regions as the boxes.
public struct GenerateObjectnessBasedSaliencyImageRequest: Sendable {
    /// The subject model and its settings (side, precision, device, home):
    /// at the side it was trained at, 320. At lifting's 384 (chosen on DAVIS
    /// frames) it found only the cat's eyes in the sample photo of a cat and
    /// nothing at all in the one of a rocket; at 320, the whole cat and the rocket.
    public var subjects: GenerateForegroundInstanceMaskRequest = {
        var request = GenerateForegroundInstanceMaskRequest()
        request.inputSides = [SaliencyNetwork.side]
        return request
    }()

    public init() {}

    public func perform(on url: URL, orientation: ImageOrientation? = nil) async throws -> SaliencyImageObservation {
        try await perform(on: subjects.decoder.decode(.url(url), orientation: orientation).image)
    }

    public func perform(on data: Data, orientation: ImageOrientation? = nil) async throws -> SaliencyImageObservation {
        try await perform(on: subjects.decoder.decode(.data(data), orientation: orientation).image)
    }

    public func perform(on image: VeilImage, orientation: ImageOrientation = .up) async throws -> SaliencyImageObservation {
        try Task.checkCancellation()
        let upright = orientation == .up ? image : try image.applying(orientation)
        let rgb = try GenerateForegroundInstanceMaskRequest.shrunk(upright.srgb8(), toFit: subjects.workingSide).materialized()
        let network = try await SaliencyNetwork.load(subjects.model, home: subjects.home, device: subjects.computeDevice, precision: subjects.precision)
        var map = try await subjects.averagedMap(network, rgb)
        let (lo, hi) = try map.extrema()
        if hi - lo > 1e-6 { map = try map.linear(1 / (hi - lo), -lo / (hi - lo)) }
        return try SaliencyImageObservation(map: map, imageSize: upright.size)
    }
}

/// Where a viewer looks first, as Vision's `GenerateAttentionBasedSaliencyImageRequest`:
/// the objectness map softened (attention spreads round an object) with the
/// faces added on top, since eye-tracking studies find faces draw the first
/// fixations whatever else the picture holds; one box round where attention goes.
public struct GenerateAttentionBasedSaliencyImageRequest: Sendable {
    public var objectness = GenerateObjectnessBasedSaliencyImageRequest()
    public var faceDetector = DetectFaceRectanglesRequest()

    public init() {}

    public func perform(on url: URL, orientation: ImageOrientation? = nil) async throws -> SaliencyImageObservation {
        try await perform(on: objectness.subjects.decoder.decode(.url(url), orientation: orientation).image)
    }

    public func perform(on data: Data, orientation: ImageOrientation? = nil) async throws -> SaliencyImageObservation {
        try await perform(on: objectness.subjects.decoder.decode(.data(data), orientation: orientation).image)
    }

    public func perform(on image: VeilImage, orientation: ImageOrientation = .up) async throws -> SaliencyImageObservation {
        let upright = orientation == .up ? image : try image.applying(orientation)
        let objects = try await objectness.perform(on: upright)
        var faces = faceDetector
        faces.computeDevice = objectness.subjects.computeDevice
        faces.home = objectness.subjects.home
        let found = try await faces.detect(in: upright.srgb8())
        let side = SaliencyImageObservation.side
        // The objects at 0.6 and softened by a box blur of a twentieth of the map.
        var heat = objects.heatMap.map { $0 * 0.6 }
        heat = Self.softened(heat, side: side, radius: max(1, side / 20))
        let (sx, sy) = (Double(side) / Double(upright.width), Double(side) / Double(upright.height))
        for face in found {
            // A face: a Gaussian blob of its own size, at full weight.
            let cx = face.box.midX * sx, cy = face.box.midY * sy
            let sigma = max(1, max(face.box.width * sx, face.box.height * sy) * 0.75)
            let weight = Float(min(1, 0.5 + Double(face.score) / 2))
            for y in 0..<side {
                for x in 0..<side {
                    let d2 = ((Double(x) + 0.5 - cx) * (Double(x) + 0.5 - cx) + (Double(y) + 0.5 - cy) * (Double(y) + 0.5 - cy)) / (2 * sigma * sigma)
                    heat[y * side + x] = max(heat[y * side + x], weight * Float(exp(-d2)))
                }
            }
        }
        let map = try VeilImage(floats: heat, width: side, height: side)
        let all = try SaliencyImageObservation(map: map, imageSize: upright.size)
        // Vision's attention answer is one region: the box round every part over the threshold.
        guard !all.salientObjects.isEmpty else { return all }
        let boxes = all.salientObjects.map(\.boundingBox)
        let x0 = boxes.map(\.x).min()!, y0 = boxes.map(\.y).min()!
        let x1 = boxes.map { $0.x + $0.width }.max()!, y1 = boxes.map { $0.y + $0.height }.max()!
        return SaliencyImageObservation(heatMap: all.heatMap, salientObjects: [
            .init(boundingBox: NormalizedRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), confidence: all.salientObjects.map(\.confidence).max()!),
        ], imageSize: upright.size)
    }

    /// A separable box blur of a small map (edges clamped).
    static func softened(_ values: [Float], side: Int, radius: Int) -> [Float] {
        func pass(_ v: [Float], horizontal: Bool) -> [Float] {
            var out = [Float](repeating: 0, count: v.count)
            for a in 0..<side {
                for b in 0..<side {
                    var sum: Float = 0
                    for k in -radius...radius {
                        let c = min(side - 1, max(0, b + k))
                        sum += horizontal ? v[a * side + c] : v[c * side + a]
                    }
                    out[horizontal ? a * side + b : b * side + a] = sum / Float(2 * radius + 1)
                }
            }
            return out
        }
        return pass(pass(values, horizontal: true), horizontal: false)
    }
}

extension SaliencyImageObservation {
    init(heatMap: [Float], salientObjects: [SalientObject], imageSize: PixelSize) {
        self.heatMap = heatMap; self.salientObjects = salientObjects; self.imageSize = imageSize
    }
}
