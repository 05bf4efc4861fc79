import VeilKit

/// How a video's stream is encoded (`EncoderSettings`): `veil video`'s encoding, each option one line.
public struct EncodingOptions: ParsableOptions {
    public var crf: Int?, preset: String?, x264Params: String?, codec: String?, dropAudio = false

    public init() {}

    public static var options: [Option<Self>] {
        let e = EncoderSettings()
        return [
            .int("crf", "N", \.crf, in: 0...51, .encoding, "H.264 quality, 0 (lossless) ... 51", default: "\(e.crf)", sample: "23"),
            .text("preset", "P", \.preset, .encoding, "the x264 preset", default: "veryfast; ultrafast with --realtime",
                  choices: ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"], sample: "veryfast"),
            .text("x264-params", "K=V:...", \.x264Params, .encoding,
                  "x264's own options; a keyframe every \(String(format: "%g", e.keyframeSeconds)) s is added unless they set keyint",
                  default: "\(EncoderSettings.defaultX264Params(preset: "veryfast")); \(EncoderSettings.defaultX264Params(preset: "ultrafast")) with ultrafast",
                  sample: "rc-lookahead=5"),
            .text("codec", "NAME", \.codec, .encoding, "an FFmpeg video encoder instead of libx264", sample: "libx264"),
            .flag("no-audio", \.dropAudio, .encoding, "drop audio and the other streams (kept by default, copied where the container takes them)"),
        ]
    }

    /// The encoder's settings, written with the muxer `format` (nil: by the output's extension).
    public func settings(format: String?) -> EncoderSettings {
        var e = EncoderSettings(format: format, codec: codec, preset: preset, x264Params: x264Params, dropAudio: dropAudio)
        if let crf { e.crf = crf }
        return e
    }
}
