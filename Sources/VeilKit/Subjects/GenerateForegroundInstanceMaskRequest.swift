import Foundation

/// Finds the foreground subjects of an image and splits them into
/// instances, as Vision's `GenerateForegroundInstanceMaskRequest` does,
/// with U^2-Net through ONNX Runtime.
///
/// ```swift
/// if let mask = try await GenerateForegroundInstanceMaskRequest().perform(on: url) {
///     let cutout = try mask.generateMaskedImage(for: mask.allInstances)
/// }
/// ```
/// The network gives one soft foreground map; instances are its connected
/// regions above one half. A request is a value: configure a copy and
/// perform it from any task. Each model is loaded once per process.
public struct GenerateForegroundInstanceMaskRequest: Sendable {
    /// Which U^2-Net to run.
    public enum Model: String, Sendable, CaseIterable {
        /// 4.6 MB, fast; installed by default.
        case u2netp
        /// 176 MB, better edges, about ten times slower; `veil models install u2net`.
        case u2net

        public var asset: Asset { self == .u2netp ? .u2netp : .u2net }
    }

    /// How the 320x320 map is brought to the image's resolution.
    public enum Refinement: Sendable, Hashable {
        /// Resampled with Lanczos-3 only.
        case none
        /// Then an edge-aware guided filter under the image's luminance;
        /// `radius` in pixels of the network's 320x320 map, `epsilon` on 0...1 grey.
        case guidedFilter(radius: Double, epsilon: Double)
        /// The same with the image's colours as the guide.
        case colourGuidedFilter(radius: Double, epsilon: Double)
    }

    /// The arithmetic of u2netp's convolutions (u2net always runs in float): `int8` (8-bit
    /// convolutions, max-pools, upsamplings and sums, made at load time from the pinned file)
    /// took 0.55x the CPU time, mean J 0.743 against 0.747 on the dev set.
    public typealias Precision = ModelPrecision

    public var model: Model = .u2netp
    /// u2netp in 8 bits where the CPU has exact 8-bit kernels (`Precision.preferred`):
    /// faster than rembg at 384x384.
    public var precision: Precision = .preferred
    /// Where inference runs (Vision's `setComputeDevice`).
    public var computeDevice: ComputeDevice = .cpu
    /// Limits and orientation handling for files and data.
    public var decoder = ImageDecoder()
    /// Where the runtime and models are installed.
    public var home: VeilHome = .default
    /// Edge refinement; the default was chosen by mean Jaccard on the dev set.
    public var refinement: Refinement = .none
    /// Stretch the map so its smallest value is 0 and largest 1, as rembg
    /// does: faint subjects then still cross one half.
    public var stretchesMap = true
    /// The map value (after stretching) that becomes alpha one half, the
    /// edge of the instances: the map is bent by a power curve so that 0 and
    /// 1 stay put. Below 0.5 the subjects grow.
    public var foregroundThreshold = 0.5
    /// The square input sizes the network is run at; their maps are averaged.
    /// U^2-Net was trained at 320, yet 384 alone scores better on the dev set,
    /// and averaging 320 and 384 adds a little for much more inference, so 384
    /// alone is the default and `[320, 384]` the choice when every hundredth of
    /// J counts (docs/design/lift.md#how-the-mask-is-made).
    public var inputSides = [384]
    /// Also run the network on the mirrored image and average the two maps:
    /// steadier masks for twice the inference time.
    public var averagesMirroredMap = false
    /// Regions smaller than this fraction of the image are specks, not instances
    /// (0.002: about 800 pixels of an 854x480 frame).
    public var minimumInstanceFraction = 0.002
    /// The longest side the mask is worked out at. The network sees 384x384
    /// whatever the photo, so refining, labelling and selecting at full size
    /// only cost time and memory (a 9999x9999 PNG took minutes and 2 GB):
    /// larger images are analysed shrunk to this, and their masks scaled back
    /// when they are applied (`InstanceMaskObservation.generateScaledMask`).
    public var workingSide = 2048

    public init() {}

    /// The instances in the image at `url`; nil if it has no foreground.
    /// With `orientation` nil the file's EXIF orientation is honoured.
    public func perform(on url: URL, orientation: ImageOrientation? = nil) async throws -> InstanceMaskObservation? {
        try await perform(on: decoder.decode(.url(url), orientation: orientation).image)
    }

    /// The instances in encoded image bytes.
    public func perform(on data: Data, orientation: ImageOrientation? = nil) async throws -> InstanceMaskObservation? {
        try await perform(on: decoder.decode(.data(data), orientation: orientation).image)
    }

    /// The instances in a decoded image, turned upright by `orientation` first.
    public func perform(on image: VeilImage, orientation: ImageOrientation = .up) async throws -> InstanceMaskObservation? {
        try Task.checkCancellation()
        let upright = orientation == .up ? image : try image.applying(orientation)
        let rgb = try Self.shrunk(upright.srgb8(), toFit: workingSide).materialized()
        let network = try await SaliencyNetwork.load(model, home: home, device: computeDevice, precision: precision)
        let map = try await averagedMap(network, rgb)
        let soft = try softMask(map: map, image: rgb)
        try Task.checkCancellation()
        let minimumArea = Int((minimumInstanceFraction * Double(rgb.width * rgb.height)).rounded())
        let (labels, instances) = try InstanceLabeling.label(foreground: soft.above(127.5), minimumArea: minimumArea)
        guard !instances.isEmpty else { return nil }
        let labelImage = try VeilImage(pixels: labels.bytes, width: labels.width, height: labels.height, bands: 1)
        let reach = max(2, Int((Double(max(rgb.width, rgb.height)) / 100).rounded()))
        return InstanceMaskObservation(instanceMask: labels, instances: instances.map { $0.scaled(from: rgb.size, to: upright.size) },
                                       image: upright, soft: soft, labelImage: labelImage, edgeReach: reach)
    }

    /// `image` resized so that its longest side is at most `side` (itself if it already is).
    static func shrunk(_ image: VeilImage, toFit side: Int) throws -> VeilImage {
        let longest = max(image.width, image.height)
        guard longest > max(side, 1) else { return image }
        let scale = Double(side) / Double(longest)
        return try image.resized(width: max(1, Int((Double(image.width) * scale).rounded())),
                                 height: max(1, Int((Double(image.height) * scale).rounded())), kernel: .linear)
    }

    /// The mean of the network's maps over `inputSides` (and mirrored), at 320x320.
    func averagedMap(_ network: SaliencyNetwork, _ rgb: VeilImage) async throws -> VeilImage {
        let side = SaliencyNetwork.side
        var maps: [VeilImage] = []
        for n in inputSides.isEmpty ? [side] : inputSides {
            guard (32...2048).contains(n) else { throw VeilError.invalidArgument("input side \(n) is outside 32...2048") }
            maps.append(try await network.map(for: rgb, side: n))
            if averagesMirroredMap {
                maps.append(try await network.map(for: rgb.flippedHorizontally(), side: n).flippedHorizontally())
            }
        }
        let resized = try maps.map { try $0.resized(width: side, height: side, kernel: .linear) }
        guard resized.count > 1 else { return resized[0] }
        var sum = resized[0]
        for m in resized.dropFirst() { sum = try sum + m }
        return try sum.linear(1 / Double(resized.count), 0).materialized()
    }

    /// The network's map at the image's size, refined, as 8-bit in memory.
    func softMask(map: VeilImage, image: VeilImage) throws -> VeilImage {
        var map = map
        if stretchesMap {
            let (lo, hi) = try map.extrema()
            if hi - lo > 1e-6 { map = try map.linear(1 / (hi - lo), -lo / (hi - lo)) }
        }
        if foregroundThreshold != 0.5, foregroundThreshold > 0, foregroundThreshold < 1 {
            map = try map.power(log(0.5) / log(foregroundThreshold))
        }
        var soft = try map.resized(width: image.width, height: image.height, kernel: .lanczos3)
        let scale = Double(max(image.width, image.height)) / Double(SaliencyNetwork.side)
        switch refinement {
        case .none: break
        case let .guidedFilter(radius, epsilon):
            let filter = GuidedFilter(radius: max(1, Int((radius * scale).rounded())), epsilon: epsilon)
            soft = try filter.apply(source: soft, guide: image.luminance().linear(1 / 255.0, 0))
        case let .colourGuidedFilter(radius, epsilon):
            let filter = GuidedFilter(radius: max(1, Int((radius * scale).rounded())), epsilon: epsilon)
            soft = try filter.apply(source: soft, colourGuide: image.linear(1 / 255.0, 0))
        }
        return try Self.settled(soft.linear(255, 0.5).asUChar())
    }

    /// How far from the mask's edge (alpha 0.5) a pixel may stay between
    /// subject and background, in pixels (a square: at most 5.7 px away).
    static let edgeBand = 4

    /// Each pixel subject, background, or an edge: alpha between 0 and 255
    /// only within `edgeBand` of where it crosses half, else snapped to its
    /// side. The network's map, upsampled and filtered, leaves faint
    /// half-transparent ghosts of whatever else it half saw (an audience
    /// behind a dancer), which a cut-out shows. Which side of half every
    /// pixel is on does not change, so neither does any mask's J.
    static func settled(_ soft: VeilImage) throws -> VeilImage {
        let hard = try soft.above(127.5)
        let around = try hard.boxBlurred(radius: edgeBand)
        let edge = try (around.above(0.5) - around.above(254.5)).linear(1 / 255.0, 0)
        return try (soft * edge + hard * edge.linear(-1, 1)).asUChar().materialized()
    }
}
