import CVideoShim
import Foundation
import Synchronization

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
    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
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

/// Reads a file, URL or device through FFmpeg: RGB frames, other packets
/// passed on. Used from one thread (the reader's); only `interrupt` may be
/// called from another.
final class VideoReader: @unchecked Sendable {
    private let reader: OpaquePointer
    private(set) var info = VideoInfo(width: 0, height: 0, rate: (25, 1), timeBase: (1, 25), frameCount: 0, duration: 0,
                                      rotation: 0, hasAudio: false, audioDuration: 0)

    init() {
        veil_video_quiet()
        reader = veil_reader_alloc()
    }

    deinit { veil_reader_close(reader) }

    /// Two decoder threads: beside detection on two cores, more only compete
    /// with it; one leaves a 1080p decode behind a live source.
    static let decoderThreads = 2

    /// Frames come with their `Picture` (for a writer; a viewer or a
    /// follower needs only the RGB).
    var keepsPictures = false

    /// Whether `open` succeeded: a run's plan may open the input to learn its
    /// streams, and the reader thread then reads from the same open input.
    private(set) var isOpen = false

    /// How many inputs readers of this process have opened: a run opens its
    /// input once (the tests hold it to that, counting across one run).
    static let opens = Atomic<Int>(0)

    /// Opens `url` unless this reader already has it open (`isOpen`).
    func openOnce(_ url: String, format: String?, maxPixels: Int, live: Bool = false) throws {
        if !isOpen { try open(url, format: format, maxPixels: maxPixels, live: live) }
    }

    /// Frames a live source's open reads ahead to measure the frame rate.
    /// FFmpeg reads 20 by default, all decoded at once when the open
    /// returns, so the stream's first frames were covered late one after
    /// another; a stream's frame rate is in its header or measured from its
    /// timestamps as well from 3 (docs/design/video-tracking.md#a-streams-first-second).
    static let liveProbeFrames = 3

    /// Opens `url`; frames over `maxPixels` are refused from the header. Blocks
    /// until a live source sends enough to know its streams (`live`: a
    /// stream or a device, read ahead as little as may be).
    func open(_ url: String, format: String?, maxPixels: Int, live: Bool = false) throws {
        try VideoLibraries.require()
        let probe = Int32(live ? Self.liveProbeFrames : 0)
        let (rc, failure) = VideoShimFailure.calling {
            veil_reader_open(reader, url, format, Int64(maxPixels), Int32(Self.decoderThreads), probe, $0)
        }
        guard rc >= 0 else { throw VeilError.unreadable(path: url, reason: failure.description) }
        isOpen = true
        Self.opens.add(1, ordering: .relaxed)
        var raw = VeilVideoInfo()
        veil_reader_info(reader, &raw)
        info = VideoInfo(width: Int(raw.width), height: Int(raw.height),
                         rate: Self.rate(average: (Int(raw.rate_num), Int(raw.rate_den)), base: (Int(raw.real_rate_num), Int(raw.real_rate_den))),
                         timeBase: (Int(raw.time_base_num), Int(raw.time_base_den)), frameCount: Int(raw.frames),
                         duration: raw.duration, rotation: Self.quarterTurns(raw.display_angle), hasAudio: raw.has_audio != 0,
                         audioDuration: raw.audio_duration, audioSampleRate: Int(raw.audio_sample_rate))
    }

    /// The frame rate a video is taken at: its average, else its base rate,
    /// else 25 (a stream that says neither: PAL's, the commonest of cameras').
    static func rate(average: (Int, Int), base: (Int, Int)) -> (num: Int, den: Int) {
        if average.0 > 0, average.1 > 0 { return (average.0, average.1) }
        if base.0 > 0, base.1 > 0 { return (base.0, base.1) }
        return (25, 1)
    }

    /// A display matrix's angle (degrees clockwise, NaN when there is none)
    /// as the quarter turn nearest it: 0, 90, 180 or 270.
    static func quarterTurns(_ angle: Double) -> Int {
        guard angle.isFinite else { return 0 }
        let degrees = (Int(angle.rounded()) % 360 + 360) % 360
        return (degrees + 45) / 90 * 90 % 360
    }

    /// Goes to the keyframe at or before `pts`, before the first read or
    /// mid-way (a splice's next range of GOPs): the decoder is flushed and
    /// the packet the loop held for it let go, so decoding starts afresh.
    func seek(to pts: Int64) throws {
        if pending != nil { veil_reader_drop_packet(reader) }
        (pending, inputDone, decoderDone) = (nil, false, false)
        let (rc, failure) = VideoShimFailure.calling { veil_reader_seek(reader, pts, $0) }
        if rc < 0 { throw VideoReadError(message: failure.description) }
    }

    /// Frames shown before `pts` are decoded where later ones need them (those
    /// nothing references are not), and neither converted nor returned: the
    /// frames between a keyframe and a cut.
    func skip(before pts: Int64) { skipBefore = pts }

    /// A copy of the streams' parameters, for a writer.
    func streams() -> VideoStreams { VideoStreams(veil_reader_streams(reader)) }

    /// Packets dropped because the input was cut inside them.
    private(set) var damagedPackets = 0

    /// From any thread: a blocked open or read returns, and reading drains.
    func interrupt() { veil_reader_interrupt(reader) }

    // The decode loop's state (`next`), on the reading thread alone.
    private var skipBefore: Int64?
    /// No more packets: the decoder is being drained.
    private var inputDone = false
    /// The reader's packet is a video packet the decoder refused for now (EAGAIN), with its info.
    private var pending: VeilPacketInfo?
    private var decoderDone = false
    private static let noPTS = Int64.min  // AV_NOPTS_VALUE
    private static let again = veil_error_again(), eof = veil_error_eof(), invalidData = veil_error_invalid_data()

    /// The next frame, packet or the end. A thrown error leaves the reader
    /// usable: reading on drains the frames the decoder holds, then ends.
    ///
    /// The loop: take a frame out of the decoder while it has one; else feed
    /// it the next packet (another stream's is handed out as it comes; one
    /// the input was cut inside is dropped and counted, as copying it would
    /// break the output); at the input's end, an error or an interrupt, the
    /// decoder is drained of what it holds, then `.end`.
    func next() throws -> VideoEvent {
        while !decoderDone {
            var frame = VeilFrameInfo()
            let rc = veil_reader_receive_frame(reader, &frame)
            if rc == 0 {
                if Int(frame.width) != info.width || Int(frame.height) != info.height {
                    veil_reader_drop_frame(reader)
                    endInput()
                    throw VideoReadError(message: "the frame size changes mid-stream")
                }
                if let skipBefore, frame.pts != Self.noPTS, frame.pts < skipBefore {
                    veil_reader_drop_frame(reader)
                    continue
                }
                // Not zeroed first (a 1080p frame's 6 MB memset was 2.7% of a live run's CPU):
                // the conversion writes every byte, or fails and the buffer is dropped.
                let count = info.width * info.height * 3
                let picture = keepsPictures ? veil_reader_keep_picture(reader).map(Picture.init) : nil
                var converted: Int32 = 0
                let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    converted = veil_reader_convert_frame(reader, buffer.baseAddress)
                    initialized = count
                }
                guard converted >= 0 else { throw Self.failure("cannot convert the frame", converted) }
                return .frame(pixels: pixels, pts: frame.pts, picture: picture)
            }
            if rc == Self.eof || (rc == Self.again && inputDone) {
                decoderDone = true
                break
            }
            if rc != Self.again {
                if !inputDone { endInput() } else { decoderDone = true }
                throw Self.failure("cannot decode the video", rc)
            }
            if try feedPacket() { return .packet(Packet(veil_reader_take_packet(reader))) }
        }
        return .end
    }

    /// The next packet into the decoder, or held: true when another stream's
    /// packet is held for the caller.
    private func feedPacket() throws -> Bool {
        var packet = VeilPacketInfo()
        if let pending { packet = pending } else {
            let rc = veil_reader_read_packet(reader, &packet)
            if rc == Self.eof || (rc < 0 && veil_reader_interrupted(reader) != 0) {
                endInput()
                return false
            }
            if rc < 0 {
                endInput()
                throw Self.failure("cannot read the input", rc)
            }
            // Read after a stop was asked for: a demuxer cut off mid-stream hands
            // out what it had buffered (the last audio packet of a stream cut
            // short among it, unflagged); the recording ends with the packets read before.
            if veil_reader_interrupted(reader) != 0 {
                endInput()
                return false
            }
        }
        if packet.video != 0 {
            // A frame shown before the cut that nothing references is not decoded at all.
            let discard = skipBefore.map { packet.pts != Self.noPTS && packet.pts < $0 } ?? false
            let rc = veil_reader_send_packet(reader, discard ? 1 : 0)
            if rc == Self.again {  // take a frame out first, then send again
                pending = packet
                return false
            }
            pending = nil
            // A damaged video packet is the decoder's to conceal; anything else ends the input.
            if rc < 0 && rc != Self.invalidData {
                endInput()
                throw Self.failure("cannot decode the video", rc)
            }
            return false
        }
        if packet.corrupt != 0 {
            damagedPackets += 1
            veil_reader_drop_packet(reader)
            return false
        }
        veil_reader_hold_packet(reader)
        return true
    }

    /// The input stops (end, error or interrupt): the decoder gives up what it holds.
    private func endInput() {
        inputDone = true
        pending = nil
        _ = veil_reader_end_input(reader)
    }

    private static func failure(_ what: String, _ code: Int32) -> VideoReadError {
        VideoReadError(message: "\(what): \(VideoShimFailure.reason(code))")
    }
}

/// The input failed mid-way (cut short, a network error, a damaged frame).
struct VideoReadError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Encodes frames (H.264 by default) and copies the input's other streams.
/// Used from one thread (the writer's).
final class VideoWriter: @unchecked Sendable {
    private var writer: OpaquePointer?
    private let path: String
    /// Streams kept besides the video (audio, subtitles), and how many of
    /// them had to be re-encoded for the output container.
    let copiedStreams: Int
    let reencodedStreams: Int

    struct Options: Sendable {
        var format: String?
        var codec: String?
        var crf = 20
        var preset = "veryfast"
        var tune: String?
        var x264Params: String?
        /// `VideoAnonymizer.encoderThreads`, `.dropAudio`: the same names and defaults.
        var encoderThreads = 1
        var dropAudio = false
        /// "key=value:..." for the muxer (`SegmentClock.muxerOptions`); one
        /// the muxer does not know is ignored.
        var muxerOptions: String?
        /// A segment's part: audio is copied, never re-encoded (`WriterLoop`).
        var copyAudioOnly = false
    }

    init(url: String, streams: VideoStreams, options o: Options) throws {
        try VideoLibraries.require()
        path = url
        var failure = VideoShimFailure()
        let choice = try EncoderChoice(asked: o.codec, streams: streams)
        let actions = StreamPlan.actions(for: streams, format: o.format, url: url, dropOthers: o.dropAudio).map(\.rawValue)
        let opened = actions.withUnsafeBufferPointer { planned in
            Self.withRaw(o, choice) { raw in
                raw.stream_actions = planned.baseAddress
                raw.stream_action_count = Int32(planned.count)
                return veil_writer_open(url, streams.pointer, &raw, &failure.raw)
            }
        }
        guard let opened else {
            let reason = failure.description
            throw VeilError.unwritable(path: url, reason: Int(failure.raw.step) == VEIL_FAILED_UNKNOWN_OUTPUT_FORMAT ? "\(reason) (name it with --output-format)" : reason)
        }
        writer = opened
        copiedStreams = Int(veil_writer_copied_streams(opened))
        reencodedStreams = Int(veil_writer_transcoded_streams(opened))
    }

    /// The C options of `o`, valid inside `body`.
    private static func withRaw<R>(_ o: Options, _ choice: EncoderChoice, _ body: (inout VeilWriterOptions) -> R) -> R {
        withOptionalCString(o.format) { format in
            choice.encoder.withCString { codec in
              choice.pixelFormat.withCString { pixelFormat in
                withOptionalCString(o.tune) { tune in
                    withOptionalCString(o.x264Params) { params in
                        withOptionalCString(o.muxerOptions) { muxer in
                            o.preset.withCString { preset in
                                var raw = VeilWriterOptions(format: format, codec: codec, pixel_format: pixelFormat, crf: Int32(o.crf), preset: preset, tune: tune,
                                                            x264_params: params, threads: Int32(o.encoderThreads),
                                                            muxer_options: muxer, stream_actions: nil, stream_action_count: 0)
                                return body(&raw)
                            }
                        }
                    }
                }
              }
            }
        }
    }

    /// The H.264 parameter sets (extradata) an encoder opened with `o` for
    /// `streams`' video makes: what a spliced re-render's must equal.
    static func headers(streams: VideoStreams, options o: Options) throws -> [UInt8] {
        var failure = VideoShimFailure()
        var data: UnsafeMutablePointer<UInt8>?
        var size: Int32 = 0
        let choice = try EncoderChoice(asked: o.codec, streams: streams)
        guard withRaw(o, choice, { veil_encoder_headers(streams.pointer, &$0, &data, &size, &failure.raw) }) >= 0 else {
            throw VeilError.unwritable(path: o.format ?? "output", reason: failure.description)
        }
        defer { veil_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: Int(size)))
    }

    /// Writes a video packet copied from a previous output (`VideoSplice`).
    func write(video packet: Packet) throws {
        try call { veil_writer_video_packet(writer, packet.pointer, $0) }
    }

    /// Flushes the encoder and starts another with the same settings: the
    /// next frame begins a GOP of its own.
    func restartVideo() throws {
        try call { veil_writer_restart_video(writer, $0) }
    }

    /// Runs a writer call that records why it failed.
    private func call(_ body: (UnsafeMutablePointer<VeilFailure>) -> Int32) throws {
        let (rc, failure) = VideoShimFailure.calling(body)
        if rc < 0 { throw VeilError.unwritable(path: path, reason: failure.description) }
    }

    /// Abandons an output not finished.
    deinit { if let writer { _ = veil_writer_close(writer, 0, nil) } }

    func write(frame pixels: [UInt8], pts: Int64) throws {
        try call { failure in pixels.withUnsafeBufferPointer { veil_writer_frame(writer, $0.baseAddress, pts, failure) } }
    }

    /// The covered frame `pixels` written as the decoder's `picture` with
    /// only the `changed` rectangles taken from `pixels` (without a picture,
    /// all of `pixels`).
    func write(frame pixels: [UInt8], pts: Int64, over picture: Picture?, changed: [PixelRect]) throws {
        guard let picture else { return try write(frame: pixels, pts: pts) }
        let rects = changed.flatMap { [Int32(clamping: $0.x), Int32(clamping: $0.y), Int32(clamping: $0.width), Int32(clamping: $0.height)] }
        try call { failure in
            pixels.withUnsafeBufferPointer { rgb in
                rects.withUnsafeBufferPointer { veil_writer_frame_over(writer, rgb.baseAddress, picture.pointer, $0.baseAddress, Int32(changed.count), pts, failure) }
            }
        }
    }

    /// Another stream's packet. One damaged in the input (a lossy stream, a
    /// cut file) that the muxer or the audio decoder refuses is dropped and
    /// counted, not the whole output: the rest of the stream is still good.
    func write(_ packet: Packet) throws {
        let (rc, failure) = VideoShimFailure.calling { veil_writer_packet(writer, packet.pointer, $0) }
        if rc == Int32(VEIL_PACKET_REFUSED) { refusedPackets += 1; return }
        if rc < 0 { throw VeilError.unwritable(path: path, reason: failure.description) }
    }

    /// Packets of the other streams dropped as damaged (the muxer or the audio decoder refused them).
    private(set) var refusedPackets = 0

    /// Flushes and finishes the file.
    func finish() throws {
        guard let writer else { return }
        self.writer = nil
        try call { veil_writer_close(writer, 1, $0) }
    }
}

func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
