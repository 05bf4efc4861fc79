import CVideoShim
import Foundation

/// What a video input is: size, rate, time base, rotation, other streams.
public struct VideoInfo: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Frames per second as a fraction.
    public var rate: (num: Int, den: Int)
    public var timeBase: (num: Int, den: Int)
    /// Frames the container announces (0 when unknown, e.g. live).
    public var frameCount: Int
    public var duration: Double
    /// Degrees clockwise the frames must turn to be upright (0, 90, 180, 270).
    public var rotation: Int
    public var hasAudio: Bool
    /// Seconds of the first audio stream (0 when none or unknown).
    public var audioDuration: Double
    /// Samples per second of the first audio stream (0 when none).
    public var audioSampleRate = 0

    public var framesPerSecond: Double { rate.den == 0 ? 25 : Double(rate.num) / Double(rate.den) }

    public static func == (a: VideoInfo, b: VideoInfo) -> Bool {
        a.width == b.width && a.height == b.height && a.rate == b.rate && a.timeBase == b.timeBase
            && a.frameCount == b.frameCount && a.duration == b.duration && a.rotation == b.rotation && a.hasAudio == b.hasAudio && a.audioDuration == b.audioDuration
            && a.audioSampleRate == b.audioSampleRate
    }
}

/// Another stream's packet (audio, subtitles) on its way from the reader to
/// the writer. It has one owner at a time (it moves through a queue) and is
/// freed when the last reference goes, written or not.
final class Packet: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
    deinit { veil_packet_free(pointer) }
    /// Its presentation time in seconds (NaN when it has none).
    var seconds: Double { veil_packet_seconds(pointer) }
}

/// A decoded frame as the decoder made it (8-bit 4:2:0), kept beside its RGB
/// so that the writer re-encodes the decoder's own pixels wherever no cover
/// was drawn: no round trip through RGB there, and no conversion of the
/// whole frame (a 1080p frame's RGB to 4:2:0 was a third of the writer's
/// time). A reference to the decoder's buffer, freed by its last holder.
final class Picture: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    let width: Int, height: Int
    init(_ pointer: UnsafeMutableRawPointer, width: Int, height: Int) { (self.pointer, self.width, self.height) = (pointer, width, height) }
    deinit { veil_picture_free(pointer) }
}

/// The input's stream parameters, copied when it opens: the writer mirrors
/// them without holding the reader. Immutable once made.
final class VideoStreams: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { veil_streams_free(pointer) }
}

/// One step of reading: a decoded frame, another stream's packet, or the end.
enum VideoEvent: Sendable {
    /// `picture`: the decoded frame itself, when `VideoReader.keepsPictures` and it is 8-bit 4:2:0.
    case frame(pixels: [UInt8], pts: Int64, picture: Picture?)
    case packet(Packet)
    case end
}
