import Foundation
import Synchronization
import VeilKit
import VeilVocabulary

/// The Video tab's renders, one at a time (a render takes both cores): the
/// first run of a video detects and records its tracks; later runs re-render
/// from its editing state with the edits sent, without detecting. A render
/// outlives its request (it takes longer than --timeout): the editor polls
/// its progress.
final class VideoJobs: Sendable {
    struct Job: Sendable {
        var status = "idle"        // idle, queued, running, done, failed
        var frames = 0, total = 0
        var detector = ""          // ran, reused
        var error: String?
        var seconds = 0.0
    }

    let media: MediaFolder
    /// The jobs by video name, and the last render queued (each waits for the one before):
    /// read and changed from the HTTP threads and the render task.
    private let state = Mutex<(jobs: [String: Job], chain: Task<Void, Never>?)>(([:], nil))

    init(media: MediaFolder) { self.media = media }

    func job(_ name: String) -> Job { state.withLock { $0.jobs[name] ?? Job() } }

    /// Queues a render of `name`; false when one is queued or running for it.
    func start(_ name: String, path: String, edits: VideoEdits, cover: CoverOptions) -> Bool {
        state.withLock { state in
            if let job = state.jobs[name], job.status == "queued" || job.status == "running" { return false }
            state.jobs[name] = Job(status: "queued")
            let previous = state.chain
            state.chain = Task.detached { [self] in
                await previous?.value
                await render(name, path: path, edits: edits, cover: cover)
            }
            return true
        }
    }

    private func update(_ name: String, _ change: (inout Job) -> Void) {
        state.withLock { change(&$0.jobs[name, default: Job()]) }
    }

    private func render(_ name: String, path: String, edits: VideoEdits, cover: CoverOptions) async {
        let began = Date()
        update(name) { $0.status = "running" }
        do {
            try FileManager.default.createDirectory(at: media.outputs, withIntermediateDirectories: true)
            let output = media.output(for: name)
            let statePath = PhotoBlurrer.sidecar(for: output)
            let input = URL(fileURLWithPath: path)
            MemoryPolicy.reuseLargeBlocks()
            // The frames' blocks kept for reuse go back once the render ends:
            // the server's memory falls after a job as after a burst.
            defer { MemoryPolicy.releaseFreePages() }
            let detection = cover.detection()
            let review: VideoReview
            do {
                review = try VideoReview.open(input: input, output: output, statePath: statePath, edits: edits, cover: cover.video(), home: detection.detector.home)
            } catch let VeilError.invalidInput(error) where error.code == .stateOfAnotherSource {
                // The file under this name changed: its old state says nothing about it.
                unlink(statePath.path)
                guard edits.isEmpty else { throw InputError("\(name) changed since its tracks were found; it is analysed again, then edit it") }
                review = try VideoReview.open(input: input, output: output, statePath: statePath, edits: edits, cover: cover.video(), home: detection.detector.home)
            }
            update(name) { $0.detector = review.previous == nil ? "ran" : "reused" }
            var found = detection
            found.people = review.people
            let request = VideoAnonymizer(cover: cover.video(over: review.previous), detection: found, review: review.replay())
            let recorder = review.recorder
            let report = try await request.run(input: path, output: output.path, progress: { [self] p in
                update(name) { $0.frames = p.frames; $0.total = max(p.info.frameCount, p.frames) }
            }, record: { recorder.record($0) })
            if let state = try review.finish(report, input: input, output: output) {
                // The review sheet (a thumbnail a track) for the tab's track list, made while the frames are warm.
                try ImageEncoder(format: .png).write(try TrackSheet.render(state, video: input), to: VideoJobs.sheet(for: output))
            }
            update(name) { $0.status = "done"; $0.seconds = Date().timeIntervalSince(began); $0.error = nil }
        } catch {
            let message: String
            switch error {
            case let VeilError.invalidInput(e) where e.code == .stateMissing: message = VideoJobs.noTracks(name)
            case let VeilError.invalidInput(e) where e.code == .stateWithoutText:
                message = "\(name)'s tracks were found without text: its text cannot be covered from them"
            case let e as VeilError: message = e.description
            case let e as InputError: message = e.description
            default: message = "\(error)"
            }
            update(name) { $0.status = "failed"; $0.error = VideoJobs.withoutPaths(message) }
        }
    }

    /// Edits sent before the first render found any tracks.
    static func noTracks(_ name: String) -> String { "\(name) has no tracks yet: render it once without edits first" }

    /// Where a rendered video's track sheet is kept: beside its state.
    static func sheet(for output: URL) -> URL { output.appendingPathExtension("tracks.png") }

    /// A message as a client may see it: every absolute path cut to its last
    /// name (a client names videos; the server's folders are none of its business).
    static func withoutPaths(_ message: String) -> String {
        guard let pattern = try? NSRegularExpression(pattern: #"(?<![\w.])/(?:[^\s/:'"]+/)+([^\s/:'"]+)"#) else { return message }
        return pattern.stringByReplacingMatches(in: message, range: NSRange(message.startIndex..., in: message), withTemplate: "$1")
    }
}
