import Dispatch

/// The clock frames are stamped with: `DispatchTime` nanoseconds since boot,
/// monotonic, cheap to read from any thread. A frame's `decodedAt` is one.
public enum Uptime {
    /// Now, in nanoseconds.
    public static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Seconds from `start` to `now` (both in nanoseconds), never negative.
    public static func seconds(since start: UInt64, now: UInt64 = Uptime.now()) -> Double {
        now > start ? Double(now - start) / 1e9 : 0
    }
}
