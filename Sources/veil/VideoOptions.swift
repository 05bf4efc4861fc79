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

    /// The request with these set (what was not given keeps its default).
    func apply(to a: inout VideoAnonymizer) {
        a.schedule.every = every ?? a.schedule.every
        a.grace = grace ?? a.grace
        a.schedule.wholePixels = wholePixels ?? a.schedule.wholePixels
        // A whole pass asked for is the one every frame gets, live too.
        if wholePixels != nil { a.liveWholePixels = nil }
        a.schedule.tilePixels = tilePixels ?? a.schedule.tilePixels
        a.schedule.tiling.tileScale = tileScale ?? a.schedule.tiling.tileScale
        a.crf = crf ?? a.crf
        a.preset = preset
        a.x264Params = x264Params ?? a.x264Params
        a.codec = codec
        a.inputFormat = inputFormat
        a.outputFormat = outputFormat
        a.dropAudio = dropAudio
        a.realtime = realtime
    }
}
