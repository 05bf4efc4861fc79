import CVideoShim
import Foundation

/// Joins the parts of one video's segments, in order, into one file by
/// copying their packets: nothing is re-encoded, and since each part kept
/// the input's timestamps (written in a clock that holds them exactly,
/// `SegmentClock`) the result's frames, times and audio are a single run's:
/// every audio packet of the input once, in order, at its own time, so the
/// decoded samples are the single run's, none doubled or missing at a join.
/// Written to a temporary name and renamed when finished.
///
/// Each part's editing state (`PART.veil.json`, written by `--segment I/N`)
/// says which part it is: before anything is written the parts are checked
/// to be all N of one video, each once, in order (a failed array task's
/// missing part is refused, not joined around), and the joined output gets
/// the parts' states joined (`VideoEditingState.joined`).
public enum VideoJoin {
    /// Joins `parts` into `output` and writes the joined state beside it; returns it.
    @discardableResult
    public static func run(parts: [String], output: String, format: String? = nil) throws -> VideoEditingState {
        let states = try parts.map { part -> (path: String, state: VideoEditingState) in
            let url = PhotoBlurrer.sidecar(for: URL(fileURLWithPath: part))
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw VeilError.unreadable(path: part, reason: "its editing state \(url.lastPathComponent) is absent, so which part it is cannot be checked "
                                           + "(keep each part's .veil.json beside it)")
            }
            return (part, try VideoEditingState.load(from: url))
        }
        try VideoEditingState.checkPlaces(states)
        // It refuses no parts, and an output that is one of them, before it writes.
        try copy(parts: parts, output: output, format: format)
        var joined = VideoEditingState.joined(states.map(\.state))
        let url = URL(fileURLWithPath: output)
        // The input named from the joined state's folder, as from the first part's.
        let input = RelativePath.resolve(states[0].state.source.file, from: URL(fileURLWithPath: parts[0]).deletingLastPathComponent())
        joined.source.file = RelativePath.of(input, from: url.deletingLastPathComponent())
        let size = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.intValue ?? 0
        if let encoder = states[0].state.output?.encoder {
            joined.output = .init(file: url.lastPathComponent, size: size, sha256: try VideoEditingState.digest(ofFileAt: url), encoder: encoder)
        }
        try joined.save(to: PhotoBlurrer.sidecar(for: url))
        return joined
    }

    /// The parts' packets copied into `output`, through a temporary name, as
    /// given: no state read or written (the parts' order is checked only by
    /// their timestamps). `run` is the join users get.
    public static func copy(parts: [String], output: String, format: String? = nil) throws {
        guard let first = parts.first else { throw VeilError.invalidArgument("join needs at least one part") }
        for part in parts { try SameFile.refuse(output: output, input: part) }
        try VideoLibraries.require()
        let target = OutputTarget(output, explicitFormat: format)
        let fail = { (reason: String) -> VeilError in
            target.discard()
            return VeilError.unwritable(path: output, reason: reason)
        }
        let (opened, failure) = VideoShimFailure.calling(part: first) { failure in
            withOptionalCString(format ?? target.impliedFormat) { veil_join_open(first, target.writePath, $0, failure) }
        }
        guard let join = opened else { throw fail(failure.description) }
        var copier = PacketCopier()
        do {
            for part in parts {
                let (opened, failure) = VideoShimFailure.calling(part: part) { veil_part_open(join, part, $0) }
                guard let opened else { throw JoinFailure(failure.description) }
                defer { veil_part_close(opened) }
                try copier.copy(opened, named: part, into: join)
            }
            try copier.finish(into: join)
        } catch {
            _ = veil_join_close(join, 0, nil)
            throw fail("\(error)")
        }
        let (closed, closing) = VideoShimFailure.calling { veil_join_close(join, 1, $0) }
        guard closed >= 0 else { throw fail(closing.description) }
        try target.commit()
    }
}

private struct JoinFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The join's policy, packet by packet: a part whose packets do not follow
/// the part before it is refused (given out of order, or twice); each
/// stream's last packet in a part ends where that part's container says the
/// stream ends. That is where the single run's audio ended: the input's last
/// AAC packet holds 640 samples of sound and 384 of padding, the part's
/// container says so, but FFmpeg reads a packet there as a whole 1024, and
/// the joined audio was 8 ms longer than a single run's.
struct PacketCopier {
    /// Per stream, the last decode time written, and the packet held until
    /// the next one of its stream shows it was not the last of its part.
    private var lastDTS: [Int: Int64] = [:]
    private var held: [Int: (packet: Packet, end: Int64?)] = [:]

    mutating func copy(_ part: OpaquePointer, named name: String, into join: OpaquePointer) throws {
        var ends: [Int: Int64?] = [:]
        while true {
            var raw: UnsafeMutableRawPointer?
            let (rc, failure) = VideoShimFailure.calling(part: name) { veil_part_read(part, &raw, $0) }
            if rc < 0 { throw JoinFailure(failure.description) }
            guard rc > 0, let raw else { break }
            let packet = Packet(raw)
            let stream = Int(veil_packet_stream(raw))
            let timing = packet.timing
            if let dts = timing.dts {
                if let last = lastDTS[stream], dts <= last {
                    throw JoinFailure("part \(name) overlaps the part before it (give the parts in order, each once)")
                }
                lastDTS[stream] = dts
            }
            if let previous = held[stream] { try write(previous.packet, into: join) }
            if ends[stream] == nil { ends[stream] = .some(Self.end(of: stream, in: part, join: join)) }
            held[stream] = (packet, ends[stream]!)
        }
        // Each stream's last packet of this part ends where the part says.
        for (stream, entry) in held where ends[stream] != nil {
            entry.packet.trim(to: entry.end)
        }
    }

    mutating func finish(into join: OpaquePointer) throws {
        for stream in held.keys.sorted() { try write(held[stream]!.packet, into: join) }
        held = [:]
    }

    private func write(_ packet: Packet, into join: OpaquePointer) throws {
        let (rc, failure) = VideoShimFailure.calling { veil_join_write(join, packet.pointer, $0) }
        if rc < 0 { throw JoinFailure(failure.description) }
    }

    private static func end(of stream: Int, in part: OpaquePointer, join: OpaquePointer) -> Int64? {
        let end = veil_part_stream_end(part, Int32(stream), join)
        return end == veil_no_time() ? nil : end
    }
}

extension Packet {
    /// Presentation and decode times and the duration, in its stream's clock (nil: unknown).
    var timing: (pts: Int64?, dts: Int64?, duration: Int64) {
        var pts: Int64 = 0, dts: Int64 = 0, duration: Int64 = 0
        veil_packet_timing(pointer, &pts, &dts, &duration)
        let none = veil_no_time()
        return (pts == none ? nil : pts, dts == none ? nil : dts, duration)
    }

    /// Shortens the packet to end at `end` when that falls inside it (never lengthens it).
    func trim(to end: Int64?) {
        let t = timing
        guard let end, let pts = t.pts, end > pts, end < pts + t.duration else { return }
        veil_packet_set_duration(pointer, end - pts)
    }
}
