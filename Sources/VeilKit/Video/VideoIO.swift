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

    public var framesPerSecond: Double { rate.den == 0 ? 25 : Double(rate.num) / Double(rate.den) }

    public static func == (a: VideoInfo, b: VideoInfo) -> Bool {
        a.width == b.width && a.height == b.height && a.rate == b.rate && a.timeBase == b.timeBase
            && a.frameCount == b.frameCount && a.duration == b.duration && a.rotation == b.rotation && a.hasAudio == b.hasAudio && a.audioDuration == b.audioDuration
    }
}

/// One step of reading: a decoded frame, another stream's packet, or the end.
enum VideoEvent: @unchecked Sendable {
    case frame(pixels: [UInt8], pts: Int64)
    case packet(UnsafeMutableRawPointer)
    case end
}

/// Frees a packet taken from a reader and not written.
func veil_free(_ packet: UnsafeMutableRawPointer) { veil_video_free_packet(packet) }

/// Reads a file, URL or device through FFmpeg: RGB frames, other packets passed on.
final class VideoReader: @unchecked Sendable {
    private let reader: OpaquePointer
    let info: VideoInfo

    init(url: String, format: String? = nil) throws {
        veil_video_quiet()
        var message = [CChar](repeating: 0, count: 256)
        guard let reader = veil_video_open(url, format, &message, message.count) else {
            throw VeilError.undecodable(reason: "\(url): \(String(cString: message))")
        }
        self.reader = reader
        var raw = VeilVideoInfo()
        veil_video_info(reader, &raw)
        info = VideoInfo(width: Int(raw.width), height: Int(raw.height), rate: (Int(raw.rate_num), Int(raw.rate_den)),
                         timeBase: (Int(raw.time_base_num), Int(raw.time_base_den)), frameCount: Int(raw.frames),
                         duration: raw.duration, rotation: Int(raw.rotation), hasAudio: raw.has_audio != 0,
                         audioDuration: raw.audio_duration)
    }

    deinit { veil_video_close(reader) }

    var pointer: OpaquePointer { reader }

    func next() throws -> VideoEvent {
        var pixels = [UInt8](repeating: 0, count: info.width * info.height * 3)
        var pts: Int64 = 0
        var message = [CChar](repeating: 0, count: 256)
        let rc = pixels.withUnsafeMutableBufferPointer { veil_video_read(reader, $0.baseAddress, &pts, &message, message.count) }
        switch rc {
        case Int32(VEIL_VIDEO_FRAME): return .frame(pixels: pixels, pts: pts)
        case Int32(VEIL_VIDEO_PACKET): return .packet(veil_video_take_packet(reader))
        case Int32(VEIL_VIDEO_END): return .end
        default: throw VeilError.undecodable(reason: String(cString: message))
        }
    }
}

/// Encodes frames (H.264 by default) and copies the reader's other streams.
final class VideoWriter: @unchecked Sendable {
    private var writer: OpaquePointer?
    private let reader: VideoReader
    /// Streams kept besides the video (audio, subtitles), and how many of
    /// them had to be re-encoded for the output container.
    let copiedStreams: Int
    let reencodedStreams: Int

    struct Options: Sendable {
        var format: String?
        var codec: String?
        var crf = 20
        var preset = "veryfast"
        var dropOtherStreams = false
    }

    init(url: String, reader: VideoReader, options: Options) throws {
        self.reader = reader
        var message = [CChar](repeating: 0, count: 256)
        guard let writer = veil_writer_open(url, options.format, reader.pointer, options.codec, Int32(options.crf), options.preset,
                                            options.dropOtherStreams ? 1 : 0, &message, message.count) else {
            throw VeilError.unwritable(path: url, reason: String(cString: message))
        }
        self.writer = writer
        copiedStreams = Int(veil_writer_copied_streams(writer))
        reencodedStreams = Int(veil_writer_transcoded_streams(writer))
    }

    deinit { if let writer { _ = veil_writer_close(writer, 0, nil, 0) } }

    func write(frame pixels: [UInt8], pts: Int64) throws {
        var message = [CChar](repeating: 0, count: 256)
        let rc = pixels.withUnsafeBufferPointer { veil_writer_frame(writer, $0.baseAddress, pts, &message, message.count) }
        if rc < 0 { throw VeilError.unwritable(path: "video output", reason: String(cString: message)) }
    }

    func write(packet: UnsafeMutableRawPointer) throws {
        var message = [CChar](repeating: 0, count: 256)
        if veil_writer_packet(writer, reader.pointer, packet, &message, message.count) < 0 {
            throw VeilError.unwritable(path: "video output", reason: String(cString: message))
        }
    }

    /// Flushes and finishes the file.
    func finish() throws {
        guard let writer else { return }
        self.writer = nil
        var message = [CChar](repeating: 0, count: 256)
        if veil_writer_close(writer, 1, &message, message.count) < 0 {
            throw VeilError.unwritable(path: "video output", reason: String(cString: message))
        }
    }
}

/// Makes a clip from RGB frames, with an optional 440 Hz tone and a display
/// rotation: test inputs and demos, through the same FFmpeg libraries.
final class ClipWriter {
    private var clip: OpaquePointer?
    let width: Int, height: Int

    enum Audio: Int32 { case none = 0, aac = 1, pcm = 2 }

    init(path: String, width: Int, height: Int, fps: Int, audio: Audio, rotation: Int = 0) throws {
        veil_video_quiet()
        var message = [CChar](repeating: 0, count: 256)
        guard let clip = veil_clip_open(path, Int32(width), Int32(height), Int32(fps), audio.rawValue, Int32(rotation), &message, message.count) else {
            throw VeilError.unwritable(path: path, reason: String(cString: message))
        }
        self.clip = clip
        self.width = width
        self.height = height
    }

    func add(_ image: VeilImage) throws {
        let pixels = try image.srgb8().pixelBytes()
        guard image.width == width, image.height == height else { throw VeilError.invalidArgument("frame size differs from the clip's") }
        guard pixels.withUnsafeBufferPointer({ veil_clip_frame(clip, $0.baseAddress) }) >= 0 else {
            throw VeilError.unwritable(path: "clip", reason: "cannot encode a frame")
        }
    }

    func close() throws {
        guard let clip else { return }
        self.clip = nil
        guard veil_clip_close(clip) >= 0 else { throw VeilError.unwritable(path: "clip", reason: "cannot finish the clip") }
    }

    deinit { if let clip { _ = veil_clip_close(clip) } }
}
