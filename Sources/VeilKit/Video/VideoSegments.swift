import CVideoShim
import Foundation

/// One of N time ranges of a video, cut at keyframes, so that N processes
/// (array tasks) can anonymise one long video between them and `VideoJoin`
/// can copy their parts into one file without re-encoding. The ranges
/// partition the frames by presentation time: each frame, and each audio
/// packet, falls in exactly one. A part keeps the input's timestamps.
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
    /// The video stream's time base, seconds per unit.
    public var unit: Double

    /// `start`/`end` in seconds, for other streams' packets (audio).
    var startSeconds: Double { start.map { Double($0) * unit } ?? -.infinity }
    var endSeconds: Double { end.map { Double($0) * unit } ?? .infinity }

    /// Whether a frame at `pts` is before the range (pre-roll), in it, or past it.
    enum Place { case before, inside, after }
    func place(_ pts: Int64) -> Place {
        if let start, pts < start { return .before }
        if let end, pts >= end { return .after }
        return .inside
    }
}

public enum VideoSegments {
    /// Seconds of pre-roll: longer than the tracker's grace (25 frames) and a
    /// full sweep of the detector's tiles at 25–30 fps.
    public static let defaultPreroll = 2.0

    /// Cuts `input` into `count` ranges at keyframes as evenly spaced in time
    /// as they allow. Every task probes the same file and gets the same plan.
    public static func plan(_ input: String, count: Int, preroll: Double = defaultPreroll) throws -> [VideoSegment] {
        guard count >= 1 else { throw VeilError.invalidArgument("a video splits into at least one segment") }
        var raw: UnsafeMutablePointer<Int64>?
        var n: Int32 = 0, num: Int32 = 0, den: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard veil_probe_keyframes(input, &raw, &n, &num, &den, &message, message.count) >= 0 else {
            throw VeilError.unreadable(path: input, reason: String(cString: message))
        }
        defer { veil_free(raw) }
        let keys = Array(Set(UnsafeBufferPointer(start: raw, count: Int(n)))).sorted()
        guard keys.count >= count else {
            throw VeilError.invalidArgument("\(input) has \(keys.count) keyframe(s), so it splits into at most \(keys.count) segment(s), not \(count)")
        }
        let unit = Double(num) / Double(max(1, den))
        // Boundary i (1..<count): the keyframe nearest i/count of the way, after the one before.
        var cuts: [Int64] = []
        var last = 0
        let (first, span) = (Double(keys[0]), Double(keys.last! - keys[0]) * Double(keys.count) / Double(max(1, keys.count - 1)))
        for i in 1..<count {
            let target = first + span * Double(i) / Double(count)
            let range = (last + 1)...(keys.count - (count - i))
            let j = range.min { abs(Double(keys[$0]) - target) < abs(Double(keys[$1]) - target) }!
            cuts.append(keys[j])
            last = j
        }
        let back = Int64((preroll / unit).rounded())
        return (0..<count).map { i in
            let start = i == 0 ? nil : cuts[i - 1]
            let seek = start.map { $0 - back }.flatMap { $0 > keys[0] ? $0 : nil }
            return VideoSegment(index: i, count: count, start: start, end: i == count - 1 ? nil : cuts[i], seek: seek, unit: unit)
        }
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
        case let .frame(_, pts):
            switch segment.place(pts) {
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

/// Joins the parts of one video's segments, in order, into one file by
/// copying their packets: nothing is re-encoded, and since each part kept
/// the input's timestamps the result's frames, times and audio are a single
/// run's. Written to a temporary name and renamed when finished.
public enum VideoJoin {
    public static func run(parts: [String], output: String, format: String? = nil) throws {
        guard !parts.isEmpty else { throw VeilError.invalidArgument("join needs at least one part") }
        for part in parts { try SameFile.refuse(output: output, input: part) }
        let target = OutputTarget(output, explicitFormat: format)
        var message = [CChar](repeating: 0, count: 512)
        let pointers = parts.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        let muxer = format ?? target.impliedFormat
        let rc = pointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { list in
            withOptionalCString(muxer) { veil_join(list.baseAddress, Int32(parts.count), target.writePath, $0, &message, message.count) }
        }
        guard rc >= 0 else {
            target.discard()
            throw VeilError.unwritable(path: output, reason: String(cString: message))
        }
        try target.commit()
    }

}
