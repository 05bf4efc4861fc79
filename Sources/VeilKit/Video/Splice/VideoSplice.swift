import CVideoShim
import Foundation

/// A re-render that re-encodes only what its edits change: every GOP of the
/// previous output (keyframe to keyframe) on whose frames no cover changes
/// is copied from it packet for packet; the others are decoded from the
/// input, covered and encoded by an encoder started afresh at each run of
/// them (so each begins with a keyframe that references nothing before it),
/// with the settings the previous output was made with. Audio and the other
/// streams are copied from the input, as in any run.
///
/// Only when the previous output is really the one its state describes
/// (`VideoEditingState.Output`: its size and sha256 as written, the same
/// encoder settings) and can be spliced: an .mp4 or .mov of H.264 from
/// libx264 whose parameter sets an encoder opened now makes byte for byte
/// (the file has one avcC for every GOP), whose frames are the input's
/// (count and times), in closed GOPs. Anything else is a `Refusal`, and the
/// run re-encodes every frame.
struct VideoSplice: Sendable {
    /// One GOP of the previous output: its packets in file (decode) order,
    /// a keyframe first, and the frames they show, in presentation order.
    struct GOP: Sendable, Equatable {
        var packets: Range<Int>
        var frames: Range<Int>
    }

    enum Piece: Sendable, Equatable {
        /// The previous output's packets (decode order), copied as they are.
        case copy(packets: Range<Int>, frames: Range<Int>)
        /// Frames decoded from the input (its times: from `start`, before
        /// `end`, nil: to the end) and encoded afresh.
        case render(frames: Range<Int>, start: Int64, end: Int64?)
    }

    /// Why a re-render re-encodes every frame (said on stderr in one line).
    struct Refusal: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    let previousOutput: String
    let gops: [GOP]
    let pieces: [Piece]

    /// GOPs copied and re-encoded, and frames copied.
    var copiedGOPs: Int { gops.count - renderedGOPs }
    let renderedGOPs: Int
    var copiedFrames: Int {
        pieces.reduce(0) { total, piece in if case let .copy(_, frames) = piece { return total + frames.count } else { return total } }
    }

    /// The splice of `previous` (the output and the state it was rendered
    /// from) into a render whose covers differ on the frames `changed` says,
    /// with the encoder `settings` and writer `options`; a `Refusal` when the
    /// previous output cannot be spliced.
    static func plan(previous: PreviousRender, input: String, streams: VideoStreams, changed: [Bool],
                     settings: VideoEditingState.EncoderSettings, options: VideoWriter.Options) throws -> VideoSplice {
        let name = URL(fileURLWithPath: previous.path).lastPathComponent
        guard let record = previous.state.output else {
            throw Refusal("the state holds no record of the output it made (written by an earlier Veil)")
        }
        guard let format = settings.format, ["mp4", "mov"].contains(format) else {
            throw Refusal("packets are copied into .mp4 and .mov outputs only")
        }
        guard settings.codec == "libx264" else { throw Refusal("only libx264's H.264 is copied, not \(settings.codec)'s") }
        let differences = settings.differences(from: record.encoder)
        guard differences.isEmpty else { throw Refusal("\(name) was made with other encoder settings (\(differences.joined(separator: ", ")))") }
        guard let size = (try? FileManager.default.attributesOfItem(atPath: previous.path)[.size] as? NSNumber)?.intValue else {
            throw Refusal("\(name) is missing")
        }
        guard size == record.size, try VideoEditingState.digest(ofFileAt: URL(fileURLWithPath: previous.path)) == record.sha256 else {
            throw Refusal("\(name) changed since it was rendered (its size or sha256 is not the state's)")
        }
        let old = try VideoPackets(probing: previous.path, what: name)
        // An avcC whose NAL lengths are 4 bytes (the packets are copied through start codes of 4).
        guard old.h264, old.width == settings.width, old.height == settings.height, old.extradata.count > 4, old.extradata[4] & 3 == 3 else {
            throw Refusal("\(name) is not \(settings.width)x\(settings.height) H.264")
        }
        guard let sets = parameterSets(try VideoWriter.headers(streams: streams, options: options)), sets == parameterSets(old.extradata) else {
            throw Refusal("an encoder opened now makes other H.264 parameter sets than \(name)'s")
        }
        let new = try VideoPackets(probing: input, what: URL(fileURLWithPath: input).lastPathComponent)
        let frames = previous.state.source.frames
        guard old.pts.count == frames, new.pts.count == frames, changed.count == frames else {
            throw Refusal("\(name) has \(old.pts.count) frames, the input \(new.pts.count), the state \(frames)")
        }
        let times = new.pts.sorted(), shown = old.pts.sorted()
        guard !times.contains(veil_no_time()), !shown.contains(veil_no_time()), Set(times).count == frames,
              zip(shown, times).allSatisfy({ old.sameTime($0, as: $1, in: new) }) else {
            throw Refusal("\(name)'s frame times are not the input's")
        }
        let gops = try Self.gops(of: old, times: shown)
        var pieces: [Piece] = []
        var rendered = 0
        for gop in gops {
            let dirty = changed[gop.frames].contains(true)
            if dirty { rendered += 1 }
            switch (pieces.last, dirty) {
            case let (.copy(packets, range)?, false):
                pieces[pieces.count - 1] = .copy(packets: packets.lowerBound..<gop.packets.upperBound, frames: range.lowerBound..<gop.frames.upperBound)
            case let (.render(range, start, _)?, true):
                pieces[pieces.count - 1] = .render(frames: range.lowerBound..<gop.frames.upperBound, start: start,
                                                   end: gop.frames.upperBound < frames ? times[gop.frames.upperBound] : nil)
            case (_, false):
                pieces.append(.copy(packets: gop.packets, frames: gop.frames))
            case (_, true):
                pieces.append(.render(frames: gop.frames, start: times[gop.frames.lowerBound],
                                      end: gop.frames.upperBound < frames ? times[gop.frames.upperBound] : nil))
            }
        }
        return VideoSplice(previousOutput: previous.path, gops: gops, pieces: pieces, renderedGOPs: rendered)
    }

    /// The GOPs of a video's packets: each from a keyframe to the next, its
    /// frames (by presentation time, `times` sorted) a range that follows the
    /// GOP before it and begins with the keyframe: a closed GOP, which decodes
    /// without its neighbours.
    static func gops(of video: VideoPackets, times: [Int64]) throws -> [GOP] {
        let index = Dictionary(uniqueKeysWithValues: times.enumerated().map { ($1, $0) })
        var starts = video.key.indices.filter { video.key[$0] }
        guard starts.first == 0 else { throw Refusal("its first packet is not a keyframe") }
        starts.append(video.key.count)
        var gops: [GOP] = []
        for (a, b) in zip(starts, starts.dropFirst()) {
            let frames = video.pts[a..<b].compactMap { index[$0] }
            // Closed: its keyframe is shown first (an open GOP's leading frames, shown before
            // it, reference the GOP before), and its frames follow the GOP before's.
            guard let lo = frames.min(), let hi = frames.max(), hi - lo + 1 == b - a, lo == (gops.last?.frames.upperBound ?? 0),
                  index[video.pts[a]] == lo else {
                throw Refusal("its GOPs are open (frames shown before a keyframe reference the GOP before it)")
            }
            gops.append(GOP(packets: a..<b, frames: lo..<hi + 1))
        }
        return gops
    }
}

/// The SPS and PPS NAL units of H.264 extradata, as an encoder gives it
/// (Annex B: start codes before each) or as an mp4 holds it (avcC: counted,
/// each with its length); nil when it is neither.
func parameterSets(_ data: [UInt8]) -> [[UInt8]]? {
    if data.first == 1 {
        // avcC: version, profile, compatibility, level, length size, then SPS and PPS counted.
        guard data.count >= 7 else { return nil }
        var at = 5, sets: [[UInt8]] = []
        for mask in [0x1F, 0xFF] {
            guard at < data.count else { return nil }
            let count = Int(data[at]) & mask
            at += 1
            for _ in 0..<count {
                guard at + 2 <= data.count else { return nil }
                let length = Int(data[at]) << 8 | Int(data[at + 1])
                guard at + 2 + length <= data.count else { return nil }
                sets.append(Array(data[at + 2..<at + 2 + length]))
                at += 2 + length
            }
        }
        return sets
    }
    var sets: [[UInt8]] = [], start: Int?, i = 0
    while i + 3 <= data.count {
        if data[i] == 0, data[i + 1] == 0, data[i + 2] == 1 {
            if let start { sets.append(trimmedNAL(data[start..<i])) }
            i += 3
            start = i
        } else {
            i += 1
        }
    }
    if let start, start < data.count { sets.append(Array(data[start...])) }
    // Only the parameter sets (types 7 and 8) are in an avcC.
    let kept = sets.filter { ($0.first.map { $0 & 0x1F }).map { $0 == 7 || $0 == 8 } ?? false }
    return kept.isEmpty ? nil : kept
}

/// A NAL unit without the zero byte of a four-byte start code after it.
private func trimmedNAL(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    var end = bytes.endIndex
    while end > bytes.startIndex, bytes[end - 1] == 0 { end -= 1 }
    return Array(bytes[bytes.startIndex..<end])
}

/// The output a state was rendered into, and that state (before this run's edits).
public struct PreviousRender: Sendable {
    var path: String
    var state: VideoEditingState
}

/// A video stream's packets, read without decoding: times, keyframes, and
/// the parameter sets.
struct VideoPackets {
    var pts: [Int64] = [], dts: [Int64] = []
    var key: [Bool] = []
    var timeBase = (num: 1, den: 1)
    var width = 0, height = 0
    var h264 = false
    var extradata: [UInt8] = []

    init(pts: [Int64], key: [Bool]) { self.pts = pts; self.dts = pts; self.key = key }

    init(probing url: String, what: String) throws {
        let source: PacketSource
        do { source = try PacketSource(url, video: true) } catch let VeilError.unreadable(_, reason) {
            throw VideoSplice.Refusal("\(what) cannot be read (\(reason))")
        }
        let (header, parameterSets) = source.video
        timeBase = (Int(header.time_base_num), Int(header.time_base_den))
        (width, height, h264) = (Int(header.width), Int(header.height), header.h264 != 0)
        extradata = parameterSets
        do {
            try source.readAll { packet in
                let timing = packet.timing
                pts.append(timing.pts ?? veil_no_time())
                dts.append(timing.dts ?? veil_no_time())
                key.append(veil_packet_key(packet.pointer) != 0)
            }
        } catch {
            throw VideoSplice.Refusal("\(what) cannot be read (\(error))")
        }
    }

    /// Whether `t` in this stream's clock is the time `u` in `other`'s, exactly.
    func sameTime(_ t: Int64, as u: Int64, in other: VideoPackets) -> Bool {
        let (a, o1) = t.multipliedReportingOverflow(by: Int64(timeBase.num) * Int64(other.timeBase.den))
        let (b, o2) = u.multipliedReportingOverflow(by: Int64(other.timeBase.num) * Int64(timeBase.den))
        return !o1 && !o2 && a == b
    }
}
