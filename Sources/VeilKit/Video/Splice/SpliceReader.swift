import CVideoShim
import Foundation

/// The reader thread of a spliced re-render (`VideoSplice`), in place of
/// `VideoAnonymizer.readAll`: piece by piece, the previous output's packets
/// of the GOPs it copies (read, never decoded), and for the GOPs it
/// re-encodes, the restart of the encoder and the input's frames of those
/// GOPs (decoded from the keyframe before them, those before dropped).
/// The input's other streams (audio) are read on their own, without its
/// video, and sent in time order between the video's packets and frames, so
/// the muxer holds little.
struct SpliceReader {
    let splice: VideoSplice
    /// The input, as `VideoReader.open` takes it.
    let input: (url: String, format: String?, maxPixels: Int)

    func run(_ first: VideoReader, into queue: ThreadChannel<ReadItem>) {
        defer { queue.close() }
        do {
            try first.openOnce(input.url, format: input.format, maxPixels: input.maxPixels)
            guard queue.sendBlocking(.opened(first.info, first.streams())) else { return }
            let unit = Double(first.info.timeBase.num) / Double(max(1, first.info.timeBase.den))
            let others = try PacketSource(input.url, video: false)
            let copied = try PacketSource(splice.previousOutput, video: true)
            var next = 0
            for piece in splice.pieces {
                switch piece {
                case let .copy(packets, _):
                    while next < packets.upperBound {
                        guard let packet = try copied.next() else { throw VideoReadError(message: "the previous output ended before its packet \(next)") }
                        next += 1
                        guard next > packets.lowerBound else { continue }
                        guard try others.send(before: packet.seconds, into: queue), queue.sendBlocking(.copied(packet)) else { return }
                    }
                case let .render(frames, start, end):
                    guard queue.sendBlocking(.restart(at: frames.lowerBound)) else { return }
                    // One open input for the run: each GOP range seeks (the decoder flushed).
                    let reader = first
                    try reader.seek(to: start)
                    // Decoded from the keyframe before, converted only from the GOP's first frame
                    // (crowd-1080p has one keyframe: a GOP from frame 50 decodes 50 frames first).
                    reader.skip(before: start)
                    var sent = 0
                    decoding: while sent < frames.count {
                        switch try reader.next() {
                        case let .frame(pixels, pts, picture):
                            if pts < start { continue }
                            if let end, pts >= end { break decoding }
                            guard try others.send(before: Double(pts) * unit, into: queue),
                                  queue.sendBlocking(.frame(pixels: pixels, pts: pts, decodedAt: Uptime.now(), skipped: 0, picture: picture)) else { return }
                            sent += 1
                        case .packet: continue
                        case .end: break decoding
                        }
                    }
                    guard sent == frames.count else {
                        throw VideoReadError(message: "decoded \(sent) of the \(frames.count) frames from \(frames.lowerBound) to re-encode")
                    }
                }
            }
            guard try others.send(before: .infinity, into: queue) else { return }
            queue.sendBlocking(.end(damagedPackets: 0))
        } catch {
            queue.sendBlocking(.failed(error))
        }
    }
}

/// One file's packets, read without decoding: its video stream alone, or
/// every other stream (`veil_part_open_streams`).
final class PacketSource {
    private let part: OpaquePointer
    /// A packet read but not yet sent (it was later than asked for).
    private var held: Packet?

    init(_ url: String, video: Bool) throws {
        try VideoLibraries.require()
        let (opened, failure) = VideoShimFailure.calling { veil_part_open_streams(url, video ? 1 : 0, $0) }
        guard let part = opened else { throw VeilError.unreadable(path: url, reason: failure.description) }
        self.part = part
    }

    deinit { veil_part_close(part) }

    /// The video stream: its clock, size, codec and parameter sets (the
    /// bytes the source's, copied here), and its index's size.
    var video: (header: VeilPartVideo, extradata: [UInt8]) {
        var header = VeilPartVideo()
        veil_part_video(part, &header)
        return (header, Array(UnsafeBufferPointer(start: header.extradata.data, count: Int(header.extradata.size))))
    }

    /// The keyframes' times in the container's index of the video stream (mp4, mov: read
    /// at open, nothing else read), in its order; empty when it has none.
    var indexedKeyframes: [Int64] {
        (0..<video.header.index_entries).compactMap { i in
            var (time, key): (Int64, Int32) = (0, 0)
            veil_part_index_entry(part, i, &time, &key)
            return key != 0 && time != veil_no_time() ? time : nil
        }
    }

    func next() throws -> Packet? {
        if let held { self.held = nil; return held }
        let (packet, failure) = read()
        if let failure { throw VideoReadError(message: failure.description) }
        return packet
    }

    /// The next packet (nil at the end), or why it could not be read.
    func read() -> (Packet?, VideoShimFailure?) {
        var raw: UnsafeMutableRawPointer?
        let (rc, failure) = VideoShimFailure.calling { veil_part_read(part, &raw, $0) }
        return rc < 0 ? (nil, failure) : (rc > 0 ? raw.map(Packet.init) : nil, nil)
    }

    /// Every packet to the end, as `body` takes it; a failure to read is
    /// worded as the input's (`VEIL_FAILED_READ_INPUT`).
    func readAll(_ body: (Packet) -> Void) throws {
        while true {
            let (packet, failure) = read()
            if var failure {
                failure.raw.step = Int32(VEIL_FAILED_READ_INPUT)
                throw VideoReadError(message: failure.description)
            }
            guard let packet else { return }
            body(packet)
        }
    }

    /// Sends the packets before `seconds` (and those without a time) as
    /// `.packet`s; false when the queue closed.
    func send(before seconds: Double, into queue: ThreadChannel<ReadItem>) throws -> Bool {
        while let packet = try next() {
            let t = packet.seconds
            guard t.isNaN || t < seconds else { held = packet; return true }
            guard queue.sendBlocking(.packet(packet)) else { return false }
        }
        return true
    }
}
