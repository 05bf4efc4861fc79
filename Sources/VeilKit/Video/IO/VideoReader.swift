import CVideoShim
import Foundation
import Synchronization

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
