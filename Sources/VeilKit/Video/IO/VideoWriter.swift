import CVideoShim
import Foundation

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
