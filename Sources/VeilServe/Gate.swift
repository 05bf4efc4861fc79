import Foundation

/// At most `limit` requests work at once; the next few wait briefly for a
/// slot and the rest are turned away (503), so a burst cannot pile up memory.
actor Gate {
    private let limit: Int
    private let maxWaiting: Int
    private var busy = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID: UInt64 = 0

    init(limit: Int, maxWaiting: Int) {
        self.limit = limit
        self.maxWaiting = maxWaiting
    }

    /// True when a slot was taken (call `release` later); false after `wait`
    /// seconds, or at once when too many are already waiting.
    func acquire(wait: Double) async -> Bool {
        if busy < limit { busy += 1; return true }
        if waiters.count >= maxWaiting || wait <= 0 { return false }
        nextID += 1
        let id = nextID
        return await withCheckedContinuation { continuation in
            waiters.append((id, continuation))
            Task { [weak self] in
                try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
                await self?.expire(id)
            }
        }
    }

    func release() {
        if waiters.isEmpty { busy -= 1 } else { waiters.removeFirst().continuation.resume(returning: true) }
    }

    private func expire(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: false)
    }
}

/// Runs `work` with a deadline: nil when time ran out first. The work is then
/// cancelled (VeilKit checks cancellation between stages) and keeps its
/// concurrency slot until it has really stopped.
func withDeadline<T: Sendable>(_ seconds: Double, _ work: @escaping @Sendable () async -> T) async -> T? {
    let once = Once<T?>()
    let timer = TimerBox()
    return await withCheckedContinuation { continuation in
        let worker = Task {
            let value = await work()
            timer.cancel()
            once.run { continuation.resume(returning: value) }
        }
        timer.task = Task {
            // Cancelled when the work ends first: no sleeper outlives its request.
            do { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) } catch { return }
            once.run {
                worker.cancel()
                continuation.resume(returning: nil)
            }
        }
    }
}

/// The deadline's timer, set after the worker may already have finished.
private final class TimerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _task: Task<Void, Never>?
    private var cancelled = false
    var task: Task<Void, Never>? {
        get { lock.withLock { _task } }
        set {
            let cancelNow: Bool = lock.withLock { _task = newValue; return cancelled }
            if cancelNow { newValue?.cancel() }
        }
    }
    func cancel() {
        let current: Task<Void, Never>? = lock.withLock { cancelled = true; return _task }
        current?.cancel()
    }
}

/// Runs the first closure given to it, ignores the rest.
final class Once<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    func run(_ body: () -> Void) {
        lock.lock()
        let first = !done
        done = true
        lock.unlock()
        if first { body() }
    }
}
