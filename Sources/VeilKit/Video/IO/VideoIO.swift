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

/// Reads a file, URL or device through FFmpeg: RGB frames, other packets
/// passed on. Used from one thread (the reader's); only `interrupt` may be
/// called from another.
final class VideoReader: @unchecked Sendable {
    private let reader: OpaquePointer
    private(set) var info = VideoInfo(width: 0, height: 0, rate: (25, 1), timeBase: (1, 25), frameCount: 0, duration: 0,
                                      rotation: 0, hasAudio: false, audioDuration: 0)

    init() { reader = veil_reader_alloc() }

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

    /// Opens `url`; frames over `maxPixels` (0: no limit) are refused from
    /// the header, as is a video without a frame size. Blocks until a live
    /// source sends enough to know its streams (`live`: a stream or a
    /// device, read ahead as little as may be).
    func open(_ url: String, format: String?, maxPixels: Int, live: Bool = false) throws {
        try VideoLibraries.require()
        veil_video_quiet()
        // FFmpeg's default read-ahead unless live.
        let probe = Int32(live ? Self.liveProbeFrames : -1)
        var (rc, failure) = VideoShimFailure.calling { failure in
            withOptionalCString(format.flatMap { $0.isEmpty ? nil : $0 }) { veil_reader_open(reader, url, $0, probe, failure) }
        }
        if rc >= 0 {
            var (width, height): (Int32, Int32) = (0, 0)
            veil_reader_frame_size(reader, &width, &height)
            if width <= 0 || height <= 0 {
                (rc, failure.raw.step) = (-1, Int32(VEIL_FAILED_NO_FRAME_SIZE))
            } else if maxPixels > 0, Int64(width) * Int64(height) > Int64(maxPixels) {
                (rc, failure.raw.step) = (-1, Int32(VEIL_FAILED_FRAMES_OVER_LIMIT))
                failure.raw.detail = (Int64(width), Int64(height), Int64(maxPixels))
            } else {
                rc = veil_reader_open_decoder(reader, Int32(Self.decoderThreads), &failure.raw)
            }
        }
        guard rc >= 0 else { throw VeilError.unreadable(path: url, reason: failure.description) }
        isOpen = true
        Self.opens.add(1, ordering: .relaxed)
        info = Self.info(of: reader)
    }

    /// What the open reader's streams say: the video's size, rate, clock,
    /// length (its stream's, else the container's) and turn, and the first
    /// audio stream's length and rate.
    private static func info(of reader: OpaquePointer) -> VideoInfo {
        var raw = VeilVideoInfo()
        veil_reader_info(reader, &raw)
        let none = veil_no_time()
        func seconds(_ duration: Int64, _ num: Int32, _ den: Int32) -> Double? {
            duration == none ? nil : Double(duration) * (Double(num) / Double(den))
        }
        var info = VideoInfo(width: Int(raw.width), height: Int(raw.height),
                             rate: rate(average: (Int(raw.rate_num), Int(raw.rate_den)), base: (Int(raw.real_rate_num), Int(raw.real_rate_den))),
                             timeBase: (Int(raw.time_base_num), Int(raw.time_base_den)), frameCount: Int(raw.frames),
                             duration: seconds(raw.duration, raw.time_base_num, raw.time_base_den)
                                 ?? (raw.container_duration == none ? 0 : Double(raw.container_duration) / 1_000_000),
                             rotation: quarterTurns(raw.display_angle), hasAudio: false, audioDuration: 0)
        for index in 0..<raw.streams where index != raw.stream {
            var stream = VeilStreamInfo()
            veil_reader_stream_info(reader, index, &stream)
            guard stream.audio != 0 else { continue }
            info.hasAudio = true
            info.audioSampleRate = Int(stream.sample_rate)
            info.audioDuration = seconds(stream.duration, stream.time_base_num, stream.time_base_den) ?? 0
            break
        }
        return info
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
                let picture = keepsPictures && frame.yuv420p != 0
                    ? veil_reader_keep_picture(reader).map { Picture($0, width: info.width, height: info.height) } : nil
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
    /// What the encoder is opened from, again at a restart (`restartVideo`).
    private let streams: VideoStreams
    private let options: Options
    private let choice: EncoderChoice
    /// The video's size as the encoder takes it.
    private let width: Int, height: Int
    /// Streams kept besides the video (audio, subtitles), and how many of
    /// them had to be re-encoded for the output container.
    private(set) var copiedStreams = 0
    private(set) var reencodedStreams = 0

    /// The encoder's settings, resolved (`EncoderSettings.resolved`), and what a part of a split run adds.
    struct Options: Sendable {
        var encoder: EncoderSettings
        /// "key=value:..." for the muxer (`SegmentClock.muxerOptions`); one
        /// the muxer does not know is ignored.
        var muxerOptions: String?
        /// A segment's part: audio is copied, never re-encoded (`WriterLoop`).
        var copyAudioOnly = false

        init(encoder: EncoderSettings) { self.encoder = encoder }
    }

    init(url: String, streams: VideoStreams, options o: Options) throws {
        try VideoLibraries.require()
        path = url
        (self.streams, options) = (streams, o)
        var failure = VideoShimFailure()
        choice = try EncoderChoice(asked: o.encoder.codec, streams: streams)
        var (w, h): (Int32, Int32) = (0, 0)
        veil_streams_video_size(streams.pointer, &w, &h)
        (width, height) = (Int(w), Int(h))
        let opened = Self.withRaw(o, choice) { veil_writer_open(url, streams.pointer, &$0, &failure.raw) }
        guard let opened else {
            let reason = failure.description
            throw VeilError.unwritable(path: url, reason: Int(failure.raw.step) == VEIL_FAILED_UNKNOWN_OUTPUT_FORMAT ? "\(reason) (name it with --output-format)" : reason)
        }
        writer = opened  // from here a throw abandons it (deinit)
        // The other streams as the plan says, in the input's order; an audio
        // stream whose re-encoder cannot open is left out.
        for (index, action) in StreamPlan.actions(for: streams, format: o.encoder.format, url: url, dropOthers: o.encoder.dropAudio).enumerated() {
            switch action {
            case .drop: continue
            case .copy:
                let rc = veil_writer_copy_stream(opened, streams.pointer, Int32(index))
                guard rc >= 0 else {
                    (failure.raw.step, failure.raw.code) = (Int32(VEIL_FAILED_OPEN_OUTPUT), rc)
                    throw VeilError.unwritable(path: url, reason: failure.description)
                }
                copiedStreams += 1
            case .reencode:
                if veil_writer_reencode_stream(opened, streams.pointer, Int32(index)) >= 0 { (copiedStreams, reencodedStreams) = (copiedStreams + 1, reencodedStreams + 1) }
            }
        }
        let (rc, started) = VideoShimFailure.calling { failure in
            withOptionalCString(o.muxerOptions) { veil_writer_start(opened, url, $0, failure) }
        }
        guard rc >= 0 else { throw VeilError.unwritable(path: url, reason: started.description) }
    }

    /// The C options of `o`, valid inside `body`.
    private static func withRaw<R>(_ o: Options, _ choice: EncoderChoice, _ body: (inout VeilWriterOptions) -> R) -> R {
        let pairs = o.encoder.encoderOptions.flatMap { [$0.0, $0.1] }
        return withCStrings(pairs) { encoderOptions in
            withOptionalCString(o.encoder.format) { format in
                choice.encoder.withCString { codec in
                    choice.pixelFormat.withCString { pixelFormat in
                        var raw = VeilWriterOptions(format: format, codec: codec, pixel_format: pixelFormat, encoder_options: encoderOptions,
                                                    encoder_option_count: Int32(pairs.count / 2), threads: Int32(o.encoder.threads ?? 1))
                        return body(&raw)
                    }
                }
            }
        }
    }

    /// The H.264 parameter sets (extradata) an encoder opened with `o` for
    /// `streams`' video makes: what a spliced re-render's must equal.
    static func headers(streams: VideoStreams, options o: Options) throws -> [UInt8] {
        try VideoLibraries.require()
        var failure = VideoShimFailure()
        var data: UnsafeMutablePointer<UInt8>?
        var size: Int32 = 0
        let choice = try EncoderChoice(asked: o.encoder.codec, streams: streams)
        guard withRaw(o, choice, { veil_encoder_headers(streams.pointer, &$0, &data, &size, &failure.raw) }) >= 0 else {
            throw VeilError.unwritable(path: o.encoder.format ?? "output", reason: failure.description)
        }
        defer { veil_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: Int(size)))
    }

    /// Writes a video packet copied from a previous output (`VideoSplice`):
    /// H.264 whose NAL units follow 4-byte lengths (an mp4's), into an
    /// output whose encoder writes start codes.
    func write(video packet: Packet) throws {
        var data: UnsafeMutablePointer<UInt8>?
        var size: Int32 = 0
        var rc = veil_packet_data(packet.pointer, &data, &size)
        if rc >= 0, !Self.lengthsToStartCodes(UnsafeMutableBufferPointer(start: data, count: Int(size))) { rc = veil_error_invalid_data() }
        guard rc >= 0 else {
            var failure = VideoShimFailure()
            (failure.raw.step, failure.raw.code) = (Int32(VEIL_FAILED_COPIED_NOT_AVCC), rc)
            throw VeilError.unwritable(path: path, reason: failure.description)
        }
        try call { veil_writer_video_packet(writer, packet.pointer, $0) }
    }

    /// NAL units after 4-byte lengths (an mp4's) as the encoder writes them:
    /// each length becomes a start code of the same size (0, 0, 0, 1), so the
    /// muxer, which writes lengths again, writes the sample as it was. False
    /// (and the bytes part-changed) when a length does not fit.
    static func lengthsToStartCodes(_ bytes: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        var at = 0
        while at < bytes.count {
            guard bytes.count - at >= 4 else { return false }
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length > 0, length <= bytes.count - at - 4 else { return false }
            (bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]) = (0, 0, 0, 1)
            at += 4 + length
        }
        return true
    }

    /// Flushes the encoder and starts another with the same settings: the
    /// next frame begins a GOP of its own. The file has one set of parameter
    /// sets (an mp4's avcC): the new encoder must make the same, or its
    /// frames would not decode with them.
    func restartVideo() throws {
        try call { failure in Self.withRaw(options, choice) { veil_writer_restart_video(writer, streams.pointer, &$0, failure) } }
        var (made, held) = (VeilBytes(), VeilBytes())
        veil_writer_parameter_sets(writer, &made, &held)
        guard Self.bytes(made) == Self.bytes(held) else {
            var failure = VideoShimFailure()
            failure.raw.step = Int32(VEIL_FAILED_RESTART_PARAMETERS)
            throw VeilError.unwritable(path: path, reason: failure.description)
        }
    }

    private static func bytes(_ b: VeilBytes) -> [UInt8] { Array(UnsafeBufferPointer(start: b.data, count: Int(b.size))) }

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
    /// only the `changed` rectangles converted from `pixels` (`YUV420Covers`).
    /// Without a picture the encoder takes as it is (8-bit 4:2:0 of its
    /// size), all of `pixels`, converted by swscale.
    func write(frame pixels: [UInt8], pts: Int64, over picture: Picture?, changed: [PixelRect]) throws {
        guard let picture, choice.pixelFormat == "yuv420p", picture.width == width, picture.height == height else {
            return try write(frame: pixels, pts: pts)
        }
        var planes = VeilPlanes()
        try call { veil_writer_picture(writer, picture.pointer, &planes, $0) }
        func plane(_ data: UnsafeMutablePointer<UInt8>?, _ stride: Int32) -> YUV420Covers.Plane { .init(base: data!, stride: Int(stride)) }
        pixels.withUnsafeBufferPointer { rgb in
            YUV420Covers.convert(rgb: rgb.baseAddress!, width: width, height: height, y: plane(planes.data.0, planes.linesize.0),
                                 u: plane(planes.data.1, planes.linesize.1), v: plane(planes.data.2, planes.linesize.2), rects: changed)
        }
        try call { veil_writer_send(writer, pts, $0) }
    }

    /// Another stream's packet. One damaged in the input (a lossy stream, a
    /// cut file) that the muxer or the audio decoder refuses is dropped and
    /// counted, not the whole output: the rest of the stream is still good.
    func write(_ packet: Packet) throws {
        let (rc, failure) = VideoShimFailure.calling { veil_writer_packet(writer, packet.pointer, $0) }
        if rc == Self.invalidData { refusedPackets += 1; return }
        if rc < 0 { throw VeilError.unwritable(path: path, reason: failure.description) }
    }

    private static let invalidData = veil_error_invalid_data()

    /// Packets of the other streams dropped as damaged (the muxer or the audio decoder refused them).
    private(set) var refusedPackets = 0

    /// Flushes and finishes the file.
    func finish() throws {
        guard let writer else { return }
        self.writer = nil
        try call { veil_writer_close(writer, 1, $0) }
    }
}

/// `strings` as C strings, valid inside `body` (nil when there are none).
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { body(strings.isEmpty ? nil : $0.baseAddress) }
}

func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
