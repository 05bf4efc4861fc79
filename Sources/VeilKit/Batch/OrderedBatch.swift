/// Runs one piece of work per input with at most `jobs` in flight, and hands
/// each result to `deliver` in input order, as soon as it and all earlier ones
/// are done. Memory stays bounded whatever the number of inputs: at most
/// `jobs` inputs are being worked on, and out-of-order results wait only while
/// an earlier one is still running (at most `jobs - 1` of them).
///
/// A failure is a result like any other (`.failure`), so one bad input never
/// stops the batch. Cancelling the calling task stops starting new work.
public func processInOrder<Input: Sendable, Output: Sendable>(
    _ inputs: [Input],
    jobs: Int,
    work: @escaping @Sendable (Input) async throws -> Output,
    deliver: (Int, Input, Result<Output, Error>) throws -> Void
) async rethrows {
    let jobs = max(1, jobs)
    try await withThrowingTaskGroup(of: (Int, Result<Output, Error>).self) { group in
        var next = 0, due = 0
        var waiting: [Int: Result<Output, Error>] = [:]
        func start(_ i: Int) {
            let input = inputs[i]
            group.addTask {
                do { return (i, .success(try await work(input))) } catch { return (i, .failure(error)) }
            }
        }
        while next < min(jobs, inputs.count) { start(next); next += 1 }
        while let (index, result) = try await group.next() {
            waiting[index] = result
            while let ready = waiting.removeValue(forKey: due) {
                try deliver(due, inputs[due], ready)
                due += 1
            }
            if next < inputs.count && !Task.isCancelled { start(next); next += 1 }
        }
    }
}
