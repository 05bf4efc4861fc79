import Foundation

/// The people of an image one by one, as Vision's
/// `GeneratePersonInstanceMaskRequest`: the person mask split between the
/// faces it was found by, each pixel going to the face it is nearest in that
/// face's own widths. The answer is an `InstanceMaskObservation`, as for
/// subjects: pick people by label, cut them out, tap one.
public struct GeneratePersonInstanceMaskRequest: Sendable {
    /// The segmentation the instances are split from.
    public var segmentation = GeneratePersonSegmentationRequest()
    /// Vision separates at most four people, the largest; more where asked (up to 255).
    public var maximumInstances = 4
    /// Pieces smaller than this fraction of the image are not a person.
    public var minimumInstanceFraction = 0.0005

    public init() {}

    public func perform(on url: URL, orientation: ImageOrientation? = nil) async throws -> InstanceMaskObservation? {
        try await perform(on: segmentation.decoder.decode(.url(url), orientation: orientation).image)
    }

    public func perform(on data: Data, orientation: ImageOrientation? = nil) async throws -> InstanceMaskObservation? {
        try await perform(on: segmentation.decoder.decode(.data(data), orientation: orientation).image)
    }

    /// nil when the image shows nobody.
    public func perform(on image: VeilImage, orientation: ImageOrientation = .up) async throws -> InstanceMaskObservation? {
        try await people(in: image, orientation: orientation)?.observation
    }

    /// The instances and, by label (index label - 1), the face each person was
    /// found by, in pixels of the working mask (origin upper-left).
    func people(in image: VeilImage, orientation: ImageOrientation = .up) async throws -> (observation: InstanceMaskObservation, faces: [ImageRect])? {
        guard (1...255).contains(maximumInstances) else { throw VeilError.invalidArgument("maximumInstances \(maximumInstances) is outside 1...255") }
        let result = try await segmentation.segmenter.run(orientation == .up ? image : try image.applying(orientation))
        let (w, h) = (result.working.width, result.working.height)
        // The largest faces are the people kept, as Vision keeps its four.
        let kept = result.faces.indices.sorted { result.faces[$0].area > result.faces[$1].area }.prefix(maximumInstances)
        var area = [Int](repeating: 0, count: result.faces.count)
        for o in result.owner where o >= 0 { area[Int(o)] += 1 }
        let minimumArea = Int(minimumInstanceFraction * Double(w * h))
        let people = kept.filter { area[$0] >= max(1, minimumArea) }
            .sorted { area[$0] != area[$1] ? area[$0] > area[$1] : $0 < $1 }
        guard !people.isEmpty else { return nil }
        var labelOf = [UInt8](repeating: 0, count: result.faces.count)
        for (n, face) in people.enumerated() { labelOf[face] = UInt8(n + 1) }
        var labels = [UInt8](repeating: 0, count: w * h)
        var boxes = [(x0: Int, y0: Int, x1: Int, y1: Int)](repeating: (Int.max, Int.max, -1, -1), count: people.count + 1)
        for y in 0..<h {
            for x in 0..<w {
                let o = result.owner[y * w + x]
                guard o >= 0, case let label = labelOf[Int(o)], label > 0 else { continue }
                labels[y * w + x] = label
                let l = Int(label)
                boxes[l] = (min(boxes[l].x0, x), min(boxes[l].y0, y), max(boxes[l].x1, x), max(boxes[l].y1, y))
            }
        }
        let instances = people.enumerated().map { n, face in
            let b = boxes[n + 1]
            return InstanceInfo(label: n + 1, area: area[face],
                                boundingBox: PixelRect(x: b.x0, y: b.y0, width: b.x1 - b.x0 + 1, height: b.y1 - b.y0 + 1))
                .scaled(from: result.working.size, to: result.upright.size)
        }
        let soft = try VeilImage(pixels: result.mask, width: w, height: h, bands: 1)
        let observation = InstanceMaskObservation(instanceMask: InstanceLabels(width: w, height: h, bytesPerRow: w, bytes: labels),
                                                  instances: instances, image: result.upright, soft: soft,
                                                  labelImage: try VeilImage(pixels: labels, width: w, height: h, bands: 1),
                                                  edgeReach: max(2, max(w, h) / 100))
        return (observation, people.map { result.faces[$0] })
    }
}
