/// Runs one piece of work per input with at most `jobs` in flight, and hands
/// each result to `deliver` in input order, as soon as it and all earlier ones
/// are done. Memory stays bounded whatever the number of inputs: at most
/// `jobs` inputs are being worked on, and out-of-order results wait only while
/// an earlier one is still running (at most `jobs - 1` of them).
///
/// A failure is a result like any other (`.failure`), so one bad input never
/// stops the batch. Cancelling the calling task stops starting new work.
/// `inputs` is read lazily, one element ahead of the work, so a stream of
/// millions of paths is never held in memory.
public func processInOrder<Inputs: Sequence, Output: Sendable>(
    _ inputs: Inputs,
    jobs: Int,
    work: @escaping @Sendable (Inputs.Element) async throws -> Output,
    deliver: (Int, Inputs.Element, Result<Output, Error>) throws -> Void
) async rethrows where Inputs.Element: Sendable {
    let jobs = max(1, jobs)
    try await withThrowingTaskGroup(of: (Int, Result<Output, Error>).self) { group in
        var iterator = inputs.makeIterator()
        var next = 0, due = 0
        var started: [Int: Inputs.Element] = [:]
        var waiting: [Int: Result<Output, Error>] = [:]
        func startNext() -> Bool {
            guard let input = iterator.next() else { return false }
            let i = next
            next += 1
            started[i] = input
            group.addTask {
                do { return (i, .success(try await work(input))) } catch { return (i, .failure(error)) }
            }
            return true
        }
        while next < jobs, startNext() {}
        while let (index, result) = try await group.next() {
            waiting[index] = result
            while let ready = waiting.removeValue(forKey: due) {
                try deliver(due, started.removeValue(forKey: due)!, ready)
                due += 1
            }
            if !Task.isCancelled { _ = startNext() }
        }
    }
}
