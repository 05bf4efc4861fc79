import VeilKit

/// `veil video`'s own options, read once with their ranges into the request:
/// detection (how often, how much of the frame, how long a face stays
/// covered), encoding (CRF, preset, x264's parameters, the codec, no audio)
/// and the source (formats, realtime). The cover and the performance options
/// are their own groups (`CoverOptions`, `PerformanceOptions`).
struct VideoOptions {
    var every: Int?, grace: Int?, wholePixels: Int?, tilePixels: Int?, tileScale: Double?
    var crf: Int?, preset: String?, x264Params: String?, codec: String?
    var inputFormat: String?, outputFormat: String?, dropAudio: Bool, realtime: Bool

    init(_ args: Arguments) throws {
        every = try args.int("--detect-every", in: 1...100)
        grace = try args.int("--grace", in: 0...1000)
        wholePixels = try args.int("--detect-pixels", in: 10_000...100_000_000)
        tilePixels = try args.int("--tile-pixels", in: 10_000...100_000_000)
        tileScale = try args.double("--tile-scale", in: 1...4)
        crf = try args.int("--crf", in: 0...51)
        preset = args.value("--preset")
        x264Params = args.value("--x264-params")
        codec = args.value("--codec")
        inputFormat = args.value("--input-format")
        outputFormat = args.value("--output-format")
        dropAudio = args.flag("--no-audio")
        realtime = args.flag("--realtime")
    }

    /// The detection group: `base` (the cover's model, threshold and
    /// precision) with the schedule and grace given.
    func detection(_ base: VideoAnonymizer.Detection) -> VideoAnonymizer.Detection {
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

    /// The encoding group (what was not given keeps its default).
    var encoding: EncoderSettings {
        var e = EncoderSettings(format: outputFormat, codec: codec, preset: preset, x264Params: x264Params, dropAudio: dropAudio)
        if let crf { e.crf = crf }
        return e
    }

    /// The source group, with the time range to read (`--segment`).
    func source(segment: VideoSegment?) -> VideoAnonymizer.Source {
        VideoAnonymizer.Source(format: inputFormat, realtime: realtime, segment: segment)
    }
}
