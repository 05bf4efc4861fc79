import CVideoShim
import Foundation

/// One of N time ranges of a video, cut at the frames N asks for, wherever
/// the keyframes are, so that N processes (array tasks) can anonymise one
/// long video between them and `VideoJoin` can copy their parts into one
/// file without re-encoding (each part's encoder starts it with a keyframe).
/// The ranges partition the frames by presentation time: each frame, and
/// each audio packet, falls in exactly one. A part keeps the input's
/// timestamps. A part seeks to the keyframe before its pre-roll, decodes and
/// drops up to it, and analyses the pre-roll without writing it.
public struct VideoSegment: Sendable, Equatable {
    public var index: Int
    public var count: Int
    /// The first presentation time written (nil: from the beginning) and the
    /// first one not written (nil: to the end), in the video stream's time base.
    public var start: Int64?
    public var end: Int64?
    /// Where decoding begins: the pre-roll before `start`, whose frames the
    /// detector and tracker see but the output does not, so a face already
    /// in view at the cut is covered from the part's first frame.
    public var seek: Int64?
    /// Frames before this are decoded (from the keyframe `seek` finds) and
    /// dropped unseen: a video with a keyframe every 10 s or only one is cut
    /// anywhere at the cost of at most one GOP of decoding.
    public var prerollFrom: Int64?
    /// The video stream's time base, seconds per unit.
    public var unit: Double

    /// `start`/`end` in seconds, for other streams' packets (audio).
    var startSeconds: Double { start.map { Double($0) * unit } ?? -.infinity }
    var endSeconds: Double { end.map { Double($0) * unit } ?? .infinity }

    /// Whether a frame at `pts` is before the range (pre-roll), in it, or past it.
    enum Place { case skipped, before, inside, after }
    func place(_ pts: Int64) -> Place {
        if let prerollFrom, pts < prerollFrom { return .skipped }
        if let start, pts < start { return .before }
        if let end, pts >= end { return .after }
        return .inside
    }
}

public enum VideoSegments {
    /// Seconds of pre-roll: longer than the tracker's grace (25 frames) and a
    /// full sweep of the detector's tiles at 25–30 fps.
    public static let defaultPreroll = 2.0

    /// Cuts `input` into `count` ranges evenly spaced in time, at any frame.
    /// Every task probes the same file and gets the same plan.
    public static func plan(_ input: String, count: Int, preroll: Double = defaultPreroll) throws -> [VideoSegment] {
        guard count >= 1 else { throw VeilError.invalidArgument("a video splits into at least one segment") }
        let (times, num, den) = try keyframes(of: input)
        let keys = Array(Set(times)).sorted()
        guard let firstKey = keys.first else { throw VeilError.unreadable(path: input, reason: "no keyframe in its video stream") }
        let unit = Double(num) / Double(max(1, den))
        let reader = VideoReader()
        try reader.open(input, format: nil, maxPixels: .max)
        let info = reader.info
        let fps = info.framesPerSecond, seconds = info.duration
        let frames = info.frameCount > 0 ? info.frameCount : Int((seconds * fps).rounded())
        guard count <= max(1, frames) else {
            throw VeilError.invalidArgument("\(input) has \(frames) frame(s), so it splits into at most \(frames) segment(s), not \(count)")
        }
        // Boundary i: frame i/count of the way, in frame steps from the first
        // frame's presentation time (an index's keyframe times are decode
        // times, a B-frame delay earlier).
        var first = firstKey
        while let event = try? reader.next() {
            if case let .frame(_, pts, _) = event { first = pts; break }
            if case .end = event { break }
        }
        let step = 1 / fps / unit
        let cuts = (1..<max(1, count)).map { i in first + Int64((Double(frames * i / count) * step - step / 2).rounded()) }
        let back = Int64((preroll / unit).rounded())
        return (0..<count).map { i in
            let start = i == 0 ? nil : cuts[i - 1]
            let from = start.map { $0 - back }.flatMap { $0 > firstKey ? $0 : nil }
            return VideoSegment(index: i, count: count, start: start, end: i == count - 1 ? nil : cuts[i], seek: from, prerollFrom: from, unit: unit)
        }
    }

    /// The presentation times of `input`'s keyframes, in its video stream's
    /// clock (num/den), read without decoding. A container with an index
    /// (mp4, mov) lists its keyframes in the header: no need to read the
    /// whole file in every task. The index holds decode times; a cut there
    /// still partitions the frames exactly (by presentation time), a frame
    /// or two from the keyframe at most. Without one, every packet is read.
    static func keyframes(of input: String) throws -> (times: [Int64], num: Int32, den: Int32) {
        let source = try PacketSource(input, video: true)
        let header = source.video.header
        let indexed = source.indexedKeyframes
        guard indexed.isEmpty else { return (indexed, header.time_base_num, header.time_base_den) }
        var times: [Int64] = []
        do {
            try source.readAll { packet in
                if veil_packet_key(packet.pointer) != 0, let pts = packet.timing.pts { times.append(pts) }
            }
        } catch {
            throw VeilError.unreadable(path: input, reason: "\(error)")
        }
        return (times, header.time_base_num, header.time_base_den)
    }

    /// The ranges `plan` makes, for scripts that build their own arrays
    /// (`veil video plan`): `count` of them, or as many as `seconds` long ones fit.
    public static func plan(_ input: String, seconds: Double) throws -> [VideoSegment] {
        let reader = VideoReader()
        try reader.open(input, format: nil, maxPixels: .max)
        guard seconds > 0, seconds.isFinite else { throw VeilError.invalidArgument("segments need a positive length in seconds") }
        return try plan(input, count: max(1, Int((reader.info.duration / seconds).rounded(.up))))
    }
}

/// The reader thread's view of a segment: frames before it are pre-roll,
/// packets of other streams outside it are dropped, and reading ends once
/// the video is past it and (with audio) an audio packet is too, so a part
/// does not decode the rest of the file.
struct SegmentFilter {
    enum Verdict { case keep, preroll, drop, end }
    let segment: VideoSegment?
    private var videoDone = false

    init(segment: VideoSegment?) { self.segment = segment }

    mutating func judge(_ event: VideoEvent, audio: Bool) -> Verdict {
        guard let segment else { return .keep }
        switch event {
        case .end: return .end
        case let .frame(_, pts, _):
            switch segment.place(pts) {
            case .skipped: return .drop
            case .before: return .preroll
            case .inside: return .keep
            case .after:
                videoDone = true
                return audio ? .drop : .end
            }
        case let .packet(packet):
            let t = packet.seconds
            if t.isNaN { return .keep }
            if t >= segment.endSeconds { return videoDone ? .end : .drop }
            return t < segment.startSeconds ? .drop : .keep
        }
    }
}
