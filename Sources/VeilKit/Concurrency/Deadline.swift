import Foundation

/// Timers that must fire while the cooperative pool is saturated: CPU-bound
/// work can hold every one of its threads, so a `Task.sleep` timer would not
/// run until the work ends. A serial queue of its own gets a thread anyway.
public let deadlineQueue = DispatchQueue(label: "veil.deadlines")

/// Runs `work` with a deadline: nil when time ran out first. The work is then
/// cancelled (VeilKit checks cancellation between and within stages) and keeps
/// its concurrency slot until it has really stopped: whoever releases the
/// slot does so at the end of `work`, not here.
public func withDeadline<T: Sendable>(_ seconds: Double, _ work: @escaping @Sendable () async -> T) async -> T? {
    let worker = TaskBox()
    return await withCheckedContinuation { continuation in
        // The timer's closure is held until its deadline even when cancelled,
        // so it reaches the continuation and the task (whose captures live as
        // long as it does) through a box emptied on the answer.
        let waiter = Handoff((continuation, worker))
        let timer = DispatchWorkItem {
            guard let (continuation, worker) = waiter.take() else { return }
            worker.cancel()
            continuation.resume(returning: nil)
        }
        let cancelTimer = UncheckedSendable(timer)
        worker.task = Task {
            let value = await work()
            cancelTimer.value.cancel()
            waiter.take()?.0.resume(returning: value)
        }
        deadlineQueue.asyncAfter(deadline: .now() + seconds, execute: timer)
    }
}

/// DispatchWorkItem is thread-safe but not marked Sendable.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
