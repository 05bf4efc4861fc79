import Foundation
import Synchronization
import VeilKit

/// One `--live NAME=SOURCE`: the source covered frame by frame while someone
/// watches (started by the first viewer, stopped 10 s after the last one
/// left), each covered frame encoded once as JPEG and handed to every
/// viewer's connection. A slow viewer skips to the newest frame rather than
/// queueing old ones. The cover comes from the realtime path of `veil video
/// --realtime` (`VideoAnonymizer.view`): detections are skipped, never
/// frames, when frames wait.
final class LiveChannel: Sendable {
    let spec: LiveSourceSpec
    let coverSwitch: CoverSwitch
    /// Frames not shown because covering had not caught up with the source.
    let dropped = DroppedFrames()
    private let anonymizer: VideoAnonymizer
    /// Everything that changes, read and changed from the HTTP threads, the
    /// live view's writer thread and the channel's task, under one lock.
    private struct State {
        var latest: (seq: Int, jpeg: Data, decodedAt: UInt64)?
        var viewers: [ObjectIdentifier: LiveViewer] = [:]
        var task: Task<Void, Never>?
        var stop: RecordingStop?
        var idleSince: UInt64?
        var ended = false
        /// Seconds from a frame's decoding to its last byte handed to a viewer's connection (the last 2,000).
        var latencies: [Double] = []
        var shownTotal = 0, coveredTotal = 0, skippedDetections = 0
        var status = "idle"
        var frameSize: (width: Int, height: Int)?
    }
    private let state = Mutex(State())
    /// idle, waiting (for the source's first frame), running, or why it stopped.
    var status: String { state.withLock { $0.status } }
    var size: (width: Int, height: Int)? { state.withLock { $0.frameSize } }

    static let idleStop: UInt64 = 10_000_000_000

    init(_ spec: LiveSourceSpec) {
        self.spec = spec
        let anonymizer = VideoAnonymizer(source: VideoAnonymizer.Source(format: spec.format))
        self.anonymizer = anonymizer
        coverSwitch = CoverSwitch(cover: anonymizer.cover.face, shape: anonymizer.cover.shape)
    }

    /// A new viewer; starts covering the source if it was not running.
    func subscribe() -> LiveViewer {
        let viewer = LiveViewer(channel: self)
        state.withLock { s in
            s.viewers[ObjectIdentifier(viewer)] = viewer
            s.idleSince = nil
            if s.task == nil && !s.ended { start(&s) }
        }
        return viewer
    }

    func unsubscribe(_ viewer: LiveViewer) {
        state.withLock { s in
            s.viewers[ObjectIdentifier(viewer)] = nil
            if s.viewers.isEmpty { s.idleSince = Uptime.now() }
        }
    }

    /// The newest frame after `seq`, if there is one.
    func frame(after seq: Int) -> (seq: Int, jpeg: Data, decodedAt: UInt64)? {
        state.withLock { s in s.latest.flatMap { $0.seq > seq ? $0 : nil } }
    }

    /// A frame's last byte went to a viewer.
    func shown(decodedAt: UInt64) {
        let seconds = Uptime.seconds(since: decodedAt)
        state.withLock { s in
            s.latencies.append(seconds)
            if s.latencies.count > 2000 { s.latencies.removeFirst(1000) }
            s.shownTotal += 1
        }
    }

    /// Ends every viewer's stream and stops the source (the server is stopping).
    func end() {
        let all: [LiveViewer] = state.withLock { s in
            s.ended = true
            s.stop?.request()
            s.task?.cancel()
            return Array(s.viewers.values)
        }
        for viewer in all { viewer.finish() }
    }

    // Runs while someone watches; a source that ends (a stream that stopped
    // sending) is opened again after a second. Called with the state locked.
    private func start(_ s: inout State) {
        let stop = RecordingStop()
        s.stop = stop
        s.status = "waiting"
        s.task = Task.detached { [self] in
            while !Task.isCancelled && !stop.isRequested {
                do {
                    let sink = CoveredFrameSink { [self] in publish($0) }
                    let report = try await anonymizer.view(input: spec.source, stop: stop, sink: sink, coverSwitch: coverSwitch, dropped: dropped) { [self] p in
                        state.withLock { $0.skippedDetections = p.skippedDetections; $0.status = "running" }
                    }
                    state.withLock { $0.status = "ended after \(report.frames) frames; reopening" }
                } catch {
                    state.withLock { $0.status = "failed: \(error); retrying" }
                }
                // Nobody watching: stop until the next viewer.
                if state.withLock({ $0.viewers.isEmpty }) { break }
                try? await Task.sleep(nanoseconds: 1_000_000_000)
            }
            state.withLock { s in
                s.task = nil; s.stop = nil; s.status = "idle"
                // A viewer who came while this run was stopping starts the next.
                if !s.viewers.isEmpty && !s.ended { start(&s) }
            }
        }
    }

    /// On the live view's writer thread: one JPEG for every viewer; with
    /// nobody watching for 10 s, the source stops.
    private func publish(_ frame: CoveredFrameSink.Frame) {
        let watched: Bool = state.withLock { s in
            s.coveredTotal += 1
            s.frameSize = (frame.width, frame.height)
            if let idle = s.idleSince, Uptime.now() &- idle > LiveChannel.idleStop { s.stop?.request() }
            return !s.viewers.isEmpty
        }
        guard watched,
              let image = try? VeilImage(pixels: frame.pixels, width: frame.width, height: frame.height, bands: 3),
              let jpeg = try? ImageEncoder(format: .jpeg, quality: 80).encode(image) else { return }
        let all: [LiveViewer] = state.withLock { s in
            s.latest = ((s.latest?.seq ?? -1) + 1, jpeg, frame.decodedAt)
            return Array(s.viewers.values)
        }
        for viewer in all { viewer.wake() }
    }

    /// For /metrics and the Live tab.
    var figures: (p50: Double?, p99: Double?, shown: Int, covered: Int, skipped: Int, viewers: Int, dropped: Int) {
        state.withLock { s in
            let sorted = s.latencies.sorted()
            return (sorted.nearestRank(0.5), sorted.nearestRank(0.99), s.shownTotal, s.coveredTotal, s.skippedDetections, s.viewers.count, dropped.total)
        }
    }
}
