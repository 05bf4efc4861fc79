import Foundation

/// How the output's video stream is encoded, as asked (`--crf`, `--preset`,
/// `--codec`, ...): the one value the request holds, handed to the writer
/// resolved for a video (`resolved(for:realtime:replaying:)`) and recorded in
/// the state (`record(width:height:)`), so the writer, a splice and the state
/// read the same settings.
public struct EncoderSettings: Sendable, Equatable {
    /// The muxer (`--output-format`); nil: by the output's extension.
    public var format: String?
    /// An FFmpeg video encoder; nil: this FFmpeg's libx264, else H.264 or MPEG-4 (`EncoderChoice`).
    public var codec: String?
    public var crf = 20
    /// x264's preset; nil: veryfast, or ultrafast with `realtime`. Live,
    /// the encoder's time is taken from detection: at 1280x720 on 2 cores
    /// veryfast alone runs at 26 fps without any detection, ultrafast at
    /// 53 (files 1.7x larger than superfast's at the same CRF).
    public var preset: String?
    /// x264's tune (e.g. "zerolatency").
    public var tune: String?
    /// x264's extra parameters ("key=value:..."); nil: `defaultX264Params(preset:)`; "" for x264's own.
    public var x264Params: String?
    /// Encoder threads; nil: one beside the detector, every core on a
    /// re-render. One: beside detection's two on two cores, a second x264
    /// frame thread only competed for them (crowd-1080p, paired: wall 1.12x
    /// faster with one, the same CPU, peak RSS -35 MB); with no detector to
    /// share the cores with, one thread left a 1080p re-render at 1.5x the
    /// first run's speed.
    public var threads: Int?
    /// `--no-audio`: the output carries the video stream alone (no audio, no subtitles).
    public var dropAudio = false
    /// Seconds between keyframes (x264's keyint, unless `x264Params` sets
    /// one): GOPs a re-render can copy, for some file size and no measurable
    /// encoding time
    /// (docs/design/splice-and-segments.md#re-rendering-only-what-an-edit-changes).
    public var keyframeSeconds = 2.0

    public init(format: String? = nil, codec: String? = nil, crf: Int = 20, preset: String? = nil, tune: String? = nil,
                x264Params: String? = nil, threads: Int? = nil, dropAudio: Bool = false, keyframeSeconds: Double = 2.0) {
        self.format = format; self.codec = codec; self.crf = crf; self.preset = preset; self.tune = tune
        self.x264Params = x264Params; self.threads = threads; self.dropAudio = dropAudio; self.keyframeSeconds = keyframeSeconds
    }

    /// A 5-frame lookahead, not veryfast's 10, and no frames buffered ahead
    /// of it: less memory and CPU for nearly the same quality, and less
    /// latency live. With `ultrafast` (live), no lookahead at all: that
    /// preset uses none (x264's own `rc-lookahead` 0 there), so 5 only held
    /// frames back, behind a live stream's slowest frame, its first
    /// (docs/design/video-tracking.md#a-streams-first-second).
    ///
    /// Files are encoded without x264's adaptive quantization (`aq-mode=0`):
    /// at CRF 20 it took bits from textured areas, the crowds Veil covers, and
    /// the re-encode alone changed 0.6% of cuts-dev's and cuts-dense's pixels
    /// away from every face by more than 12 grey levels; without it 0.03–0.04%,
    /// at about the input's size (1.5–1.7x the output's size with it). Live
    /// (ultrafast) keeps x264's own, for speed.
    public static func defaultX264Params(preset: String) -> String {
        preset == "ultrafast" ? "rc-lookahead=0:sync-lookahead=0" : "rc-lookahead=5:sync-lookahead=0:aq-mode=0"
    }

    /// These settings with every choice made for a video of `info` into
    /// `format`: the preset, x264's parameters with a keyframe every
    /// `keyframeSeconds` unless they set keyint, the threads. What the writer is handed.
    func resolved(for info: VideoInfo, format: String?, realtime: Bool, replaying: Bool) -> EncoderSettings {
        var out = self
        out.format = format
        let preset = preset ?? (realtime ? "ultrafast" : "veryfast")
        out.preset = preset
        let given = x264Params ?? Self.defaultX264Params(preset: preset)
        if !given.contains("keyint=") {
            let keyint = "keyint=\(max(1, Int((keyframeSeconds * info.framesPerSecond).rounded())))"
            out.x264Params = given.isEmpty ? keyint : "\(given):\(keyint)"
        } else {
            out.x264Params = given
        }
        out.threads = threads ?? (replaying ? ProcessInfo.processInfo.activeProcessorCount : 1)
        return out
    }

    /// What the state records of resolved settings: the encoder `EncoderChoice`
    /// takes (the one asked for, else this FFmpeg's libx264, H.264 or MPEG-4),
    /// not the name asked for, so a state made where libx264 is missing says
    /// what wrote the file.
    func record(width: Int, height: Int) -> VideoEditingState.EncoderSettings {
        let encoder = (try? EncoderChoice.encoder(asked: codec)) ?? codec ?? "libx264"
        return .init(format: format, codec: encoder, crf: crf, preset: preset ?? "veryfast", tune: tune,
                     x264Params: x264Params, width: width, height: height)
    }

    /// The encoder's own options in the order they are set (x264's; another
    /// encoder ignores those it does not have): the CRF unless negative,
    /// and each other one given and not empty.
    var encoderOptions: [(String, String)] {
        var pairs: [(String, String)] = crf >= 0 ? [("crf", "\(crf)")] : []
        for (key, value) in [("preset", preset ?? "veryfast"), ("tune", tune), ("x264-params", x264Params)] {
            if let value, !value.isEmpty { pairs.append((key, value)) }
        }
        return pairs
    }
}
