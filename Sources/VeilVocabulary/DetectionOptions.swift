import VeilKit

/// How often and how much of a frame a video's detector sees, and how long a
/// face stays covered after it: `veil video`'s detection, each option one line.
public struct DetectionOptions: ParsableOptions {
    public var every: Int?, grace: Int?, wholePixels: Int?, tilePixels: Int?, tileScale: Double?

    public init() {}

    public static var options: [Option<Self>] {
        let d = VideoAnonymizer.Detection()
        return [
            .int("detect-every", "K", \.every, in: 1...100, .detection, "run the detector on every k-th frame; the tracker carries faces between",
                 default: "\(d.schedule.every)", sample: "2"),
            .int("grace", "N", \.grace, in: 0...1000, .detection, "keep a face covered N frames after the detector last saw it (a sighting never sure ends sooner when looks at the whole frame keep missing it)",
                 default: "\(d.grace)", sample: "10"),
            .int("detect-pixels", "N", \.wholePixels, in: 10_000...100_000_000, .detection, "the whole frame's pass shrunk to N pixels (the large faces)",
                 default: "\(d.schedule.wholePixels)\(d.liveWholePixels.map { ", live \($0) above it while keeping up" } ?? "")", sample: "500000"),
            .int("tile-pixels", "N", \.tilePixels, in: 10_000...100_000_000, .detection,
                 "each full-resolution tile at most N pixels (the small faces; one a frame, in turn)", default: "\(d.schedule.tilePixels)", sample: "400000"),
            .double("tile-scale", "S", \.tileScale, in: 1...4, .detection, "tiles upsampled S times before detection (1...4)",
                    default: String(format: "%g", d.schedule.tiling.tileScale), sample: "2"),
        ]
    }

    /// The detection group: `base` (the cover's model, threshold and
    /// precision) with the schedule and grace given.
    public func video(_ base: VideoAnonymizer.Detection) -> VideoAnonymizer.Detection {
        var d = base
        d.schedule.every = every ?? d.schedule.every
        d.grace = grace ?? d.grace
        d.schedule.wholePixels = wholePixels ?? d.schedule.wholePixels
        // A whole pass asked for is the one every frame gets, live too.
        if wholePixels != nil { d.liveWholePixels = nil }
        d.schedule.tilePixels = tilePixels ?? d.schedule.tilePixels
        d.schedule.tiling.tileScale = tileScale ?? d.schedule.tiling.tileScale
        return d
    }
}
