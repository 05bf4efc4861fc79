import Foundation

/// When each frame of a video is shown, in seconds of the video's own clock:
/// its presentation timestamps as FFmpeg's demuxer gives them (a start
/// offset, edit lists and a variable frame rate applied), the clock a
/// browser's `<video>.currentTime` follows. A frame's index divided by the
/// frame rate is not that time when the video starts after its audio, hides
/// frames behind an edit list or varies its rate
/// (docs/design/editing-state.md#videos).
///
/// Kept compactly: the first frame's time and one step when the frames are
/// evenly spaced (within `FrameClock.jitter` of a step), else every frame's time.
public struct FrameClock: Codable, Sendable, Equatable {
    /// Seconds at which frame 0 is shown.
    public var start: Double
    /// Seconds between frames when they are evenly spaced; nil when `times` lists them.
    public var step: Double?
    /// Every frame's time in seconds, increasing, when they are not evenly spaced.
    public var times: [Double]?

    /// How far from evenly spaced a frame may be (a fraction of a step) for
    /// the clock to keep one step: well inside the half step a seek lands on.
    public static let jitter = 0.05

    public init(start: Double, step: Double) { self.start = start; self.step = step }
    public init(times: [Double]) { start = times.first ?? 0; self.times = times }

    /// The clock of frames shown at `times` (seconds, in frame order), rounded to
    /// microseconds; nil without frames or when the times do not increase.
    public init?(frameTimes times: [Double]) {
        guard let first = times.first, times.allSatisfy(\.isFinite), zip(times, times.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        func micro(_ t: Double) -> Double { (t * 1e6).rounded() / 1e6 }
        guard times.count > 1 else { self.init(times: [micro(first)]); return }
        let step = (times.last! - first) / Double(times.count - 1)
        let even = times.enumerated().allSatisfy { abs($1 - (first + Double($0) * step)) <= Self.jitter * step }
        if even { self.init(start: micro(first), step: (step * 1e9).rounded() / 1e9) } else { self.init(times: times.map(micro)) }
    }

    /// The clock of a video without recorded times (a state written before
    /// them): frame i at i ÷ fps.
    public init(framesPerSecond fps: Double) { self.init(start: 0, step: 1 / fps) }

    /// When frame `index` is shown.
    public func time(ofFrame index: Int) -> Double {
        if let times, !times.isEmpty { return times[min(max(0, index), times.count - 1)] }
        return start + Double(index) * (step ?? 0)
    }

    /// Whether it can be the clock of a video of `frames` frames (checked with the state).
    func isValid(frames: Int) -> Bool {
        let bound = 1e9
        guard start.isFinite, abs(start) < bound else { return false }
        if let times {
            return step == nil && times.count == frames && times.first == start
                && times.allSatisfy({ $0.isFinite && abs($0) < bound }) && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }
        }
        guard let step else { return false }
        return step.isFinite && step > 0 && step < 3600
    }
}

extension VideoEditingState {
    /// The video's clock: the one recorded, else frames at the frame rate (a state written before clocks).
    public var clock: FrameClock { source.clock ?? FrameClock(framesPerSecond: source.framesPerSecond) }

    /// When frame `index` is shown, in seconds of the video's clock.
    public func time(ofFrame index: Int) -> Double { clock.time(ofFrame: index) }
}
