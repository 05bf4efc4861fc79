import Foundation

/// The work behind the person requests: people found by their faces, each
/// face's body region, the person model run on a square crop round it, and
/// the maps laid into one soft mask with each pixel owned by one person.
///
/// Why faces: the person model alone cannot tell a person from a swan or a
/// car (on whole DAVIS frames it marked 14% of a swan picture), while the
/// face detector at its analysis threshold found no face on any of the dev
/// set's animal and vehicle frames. The cost: a person whose face is not
/// seen (from behind, far off) is not found.
struct PersonSegmenter: Sendable {
    var quality: GeneratePersonSegmentationRequest.QualityLevel
    var faces: DetectFaceRectanglesRequest
    var home: VeilHome
    var device: ComputeDevice
    var workingSide: Int
    /// The subject model's instances that are mostly people already joined
    /// whole (`GeneratePersonSegmentationRequest.joinsSubjects`).
    var subjects: GenerateForegroundInstanceMaskRequest?
    /// People also found by their bodies (`BodyFinder`), each kept where a face sits in its head (`hasAFace`).
    var findsBodies = true

    /// A body region in face units: 3 face widths either side of the face's
    /// centre, from one face height above it to 7 below (people are about
    /// 7.5 heads tall), so a standing person's feet are inside.
    static let reach = (side: 3.0, above: 1.0, below: 7.0)

    struct Result {
        /// The upright image and its working copy (longest side at most `workingSide`).
        var upright: VeilImage
        var working: VeilImage
        /// The faces, in pixels of `working`.
        var faces: [ImageRect]
        /// The soft person mask (0...255) and the face owning each person pixel (-1: none), at the working size
        /// (32 bits: a photo of a huge crowd may hold more faces than 16 bits number).
        var mask: [UInt8]
        var owner: [Int32]
    }

    func run(_ upright: VeilImage) async throws -> Result {
        try Task.checkCancellation()
        let rgb = try upright.srgb8().materialized()
        let working = try GenerateForegroundInstanceMaskRequest.shrunk(rgb, toFit: workingSide).materialized()
        let scale = Double(working.width) / Double(rgb.width)
        var found = try await faces.detect(in: rgb).map {
            ImageRect(x: $0.box.x * scale, y: $0.box.y * scale, width: $0.box.width * scale, height: $0.box.height * scale)
        }
        let (w, h) = (working.width, working.height)
        var mask = [UInt8](repeating: 0, count: w * h)
        var owner = [Int32](repeating: -1, count: w * h)
        var bodies = findsBodies
            ? try await BodyFinder.load(home: home, device: device).find(try working.pixelBytes(), width: w, height: h) : []
        if !bodies.isEmpty {
            var privacy = DetectFaceRectanglesRequest.privacy
            (privacy.home, privacy.computeDevice, privacy.precision) = (home, faces.computeDevice, faces.precision)
            let heads = try await privacy.detect(in: rgb).map { ImageRect.Point(x: $0.box.midX * scale, y: $0.box.midY * scale) }
            bodies = bodies.filter { Self.hasAFace($0, among: heads) }
        }
        guard !found.isEmpty || !bodies.isEmpty else { return Result(upright: upright, working: working, faces: [], mask: mask, owner: owner) }
        var soft = [Float](repeating: 0, count: w * h)
        var closeness = [Float](repeating: .infinity, count: w * h)
        let bounds = ImageRect(x: 0, y: 0, width: Double(w), height: Double(h))
        let network = found.isEmpty ? nil : try await PersonSegmentationNetwork.load(home: home, device: device)
        for (index, face) in found.enumerated() {
            guard let network else { break }
            try Task.checkCancellation()
            guard let region = Self.bodyRegion(of: face).intersection(bounds), let crop = Self.crop(around: region, in: bounds) else { continue }
            let view = try working.cropped(to: crop)
            var map = try await network.map(for: view)
            if quality == .accurate {
                let mirrored = try await network.map(for: view.flippedHorizontally())
                let side = PersonSegmentationNetwork.side
                for y in 0..<side { for x in 0..<side { map[y * side + x] = (map[y * side + x] + mirrored[y * side + side - 1 - x]) / 2 } }
            }
            Self.lay(map, of: crop, over: region, face: face, index: index, width: w, soft: &soft, closeness: &closeness, owner: &owner)
        }
        Self.join(bodies, width: w, faces: &found, soft: &soft, owner: &owner)
        if quality != .fast {
            soft = try Self.refined(soft, guide: working, quality: quality)
        }
        if var subjects {
            subjects.workingSide = workingSide
            if let found = try await subjects.perform(on: working) {
                Self.join(found, soft: &soft, owner: &owner)
            }
        }
        for i in 0..<(w * h) {
            mask[i] = UInt8(max(0, min(255, (soft[i] * 255).rounded())))
            if mask[i] < 128 { owner[i] = -1 }
        }
        return Result(upright: upright, working: working, faces: found, mask: mask, owner: owner)
    }

    /// Whether a face's centre (working pixels) lies in the head the body's
    /// landmarks place, grown by half its side: the second signal that keeps a
    /// body. BlazePose takes a swan or a car for a body and its presence flag
    /// says "person" on them too; no face at the privacy threshold sits in
    /// their "head", while one does on 10 of MediaPipe's 11 bodies on the dev
    /// frames' people (docs/design/people.md#people-found-by-their-bodies).
    static func hasAFace(_ body: BodyFinder.Body, among faces: [ImageRect.Point]) -> Bool {
        let grow = body.head.width / 2
        let head = ImageRect(x: body.head.x - grow, y: body.head.y - grow, width: body.head.width + 2 * grow, height: body.head.height + 2 * grow)
        return faces.contains { $0.x >= head.x && $0.x <= head.x + head.width && $0.y >= head.y && $0.y <= head.y + head.height }
    }

    /// Each body laid in: the person of the face its mask holds, or a new person
    /// (its head taken as the face); its pixels that no face's person has go to it.
    static func join(_ bodies: [BodyFinder.Body], width w: Int, faces: inout [ImageRect], soft: inout [Float], owner: inout [Int32]) {
        for body in bodies {
            let holds = faces.indices.first { f in
                let x = Int(faces[f].midX), y = Int(faces[f].midY)
                guard x >= 0, x < w, y >= 0, y * w + x < body.mask.count else { return false }
                return body.mask[y * w + x] >= 0.5
            }
            let index = Int32(holds ?? faces.count)
            if holds == nil { faces.append(body.head) }
            for (i, v) in body.mask.enumerated() where v > 0 {
                if v > soft[i] { soft[i] = v }
                if v >= 0.5, owner[i] < 0 { owner[i] = index }
            }
        }
    }

    /// The region a face's person can occupy (pixels, unclipped).
    static func bodyRegion(of face: ImageRect) -> ImageRect {
        let cx = face.midX
        return ImageRect(x: cx - reach.side * face.width, y: face.y - reach.above * face.height,
                         width: 2 * reach.side * face.width, height: face.height * (1 + reach.above + reach.below))
    }

    /// The square crop (clipped to the image) the network sees for a region:
    /// a person in a square, as the model was trained.
    static func crop(around region: ImageRect, in bounds: ImageRect) -> PixelRect? {
        let side = max(region.width, region.height)
        let square = ImageRect(x: region.midX - side / 2, y: region.midY - side / 2, width: side, height: side)
        guard let clipped = square.intersection(bounds) else { return nil }
        let x0 = Int(clipped.x.rounded(.down)), y0 = Int(clipped.y.rounded(.down))
        let x1 = Int((clipped.x + clipped.width).rounded(.up)), y1 = Int((clipped.y + clipped.height).rounded(.up))
        guard x1 - x0 >= 8, y1 - y0 >= 8 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// One crop's map sampled (bilinear) into the region's pixels, in one pass:
    /// the mask keeps the larger value, a person pixel goes to the face it is nearest,
    /// measured in that face's own widths (a near person's wide shoulders stay theirs).
    static func lay(_ map: [Float], of crop: PixelRect, over region: ImageRect, face: ImageRect, index: Int, width w: Int,
                    soft: inout [Float], closeness: inout [Float], owner: inout [Int32]) {
        let side = PersonSegmentationNetwork.side
        let sx = Double(side) / Double(crop.width), sy = Double(side) / Double(crop.height)
        let x0 = max(Int(region.x.rounded(.down)), crop.x), x1 = min(Int((region.x + region.width).rounded(.up)), crop.x + crop.width)
        let y0 = max(Int(region.y.rounded(.down)), crop.y), y1 = min(Int((region.y + region.height).rounded(.up)), crop.y + crop.height)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            let v = max(0, min(Double(side - 1), (Double(y - crop.y) + 0.5) * sy - 0.5))
            let r0 = Int(v), r1 = min(r0 + 1, side - 1), fy = Float(v - Double(r0))
            let above = Float(max(0, face.y - Double(y)) / face.height)
            for x in x0..<x1 {
                let u = max(0, min(Double(side - 1), (Double(x - crop.x) + 0.5) * sx - 0.5))
                let c0 = Int(u), c1 = min(c0 + 1, side - 1), fx = Float(u - Double(c0))
                let top = map[r0 * side + c0] * (1 - fx) + map[r0 * side + c1] * fx
                let bottom = map[r1 * side + c0] * (1 - fx) + map[r1 * side + c1] * fx
                let value = top * (1 - fy) + bottom * fy
                let i = y * w + x
                if value > soft[i] { soft[i] = value }
                guard value > 0.5 else { continue }
                let across = Float(abs(Double(x) + 0.5 - face.midX) / face.width)
                let distance = across * across + above * above
                if distance < closeness[i] { closeness[i] = distance; owner[i] = Int32(index) }
            }
        }
    }

    /// Each subject instance of which at least `share` is person already
    /// (a body whose face was not found beside one whose was, a person
    /// mid-spin): joined whole, owned by the face that owns most of it.
    static let share = 0.3

    static func join(_ subjects: InstanceMaskObservation, soft: inout [Float], owner: inout [Int32]) {
        let labels = subjects.instanceMask
        guard labels.width * labels.height == soft.count, let subjectSoft = try? subjects.soft.pixelBytes(),
              subjectSoft.count == soft.count else { return }
        let w = labels.width
        for info in subjects.instances {
            let b = info.boundingBox
            var total = 0, person = 0, votes: [Int32: Int] = [:]
            for y in b.y..<(b.y + b.height) {
                for x in b.x..<(b.x + b.width) where labels.bytes[y * labels.bytesPerRow + x] == info.label {
                    total += 1
                    if soft[y * w + x] >= 0.5 { person += 1 }
                    if owner[y * w + x] >= 0 { votes[owner[y * w + x], default: 0] += 1 }
                }
            }
            guard total > 0, Double(person) >= share * Double(total),
                  let face = votes.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key })?.key else { continue }
            for y in b.y..<(b.y + b.height) {
                for x in b.x..<(b.x + b.width) where labels.bytes[y * labels.bytesPerRow + x] == info.label {
                    let i = y * w + x
                    soft[i] = max(soft[i], Float(subjectSoft[i]) / 255)
                    if owner[i] < 0 { owner[i] = face }
                }
            }
        }
    }

    /// The mask's edges moved onto the picture's: a guided filter under the
    /// luminance (balanced) or the colours (accurate), radius a 1/100 of the side.
    static func refined(_ soft: [Float], guide: VeilImage, quality: GeneratePersonSegmentationRequest.QualityLevel) throws -> [Float] {
        let source = try VeilImage(floats: soft, width: guide.width, height: guide.height)
        let filter = GuidedFilter(radius: max(2, max(guide.width, guide.height) / 100), epsilon: 0.01)
        let out = quality == .accurate
            ? try filter.apply(source: source, colourGuide: guide.linear(1 / 255.0, 0))
            : try filter.apply(source: source, guide: guide.luminance().linear(1 / 255.0, 0))
        return try out.floatValues()
    }
}
