import Foundation
import VeilKit

/// One `--live NAME=SOURCE`: the source covered frame by frame while someone
/// watches (started by the first viewer, stopped 10 s after the last one
/// left), each covered frame encoded once as JPEG and handed to every
/// viewer's connection. A slow viewer skips to the newest frame rather than
/// queueing old ones. The cover comes from the realtime path of `veil video
/// --realtime` (`VideoAnonymizer.view`): detections are skipped, never
/// frames, when frames wait.
final class LiveChannel: @unchecked Sendable {
    let spec: LiveSourceSpec
    let coverSwitch: CoverSwitch
    /// Frames not shown because covering had not caught up with the source.
    let dropped = DroppedFrames()
    private let anonymizer: VideoAnonymizer
    private let lock = NSLock()
    private var latest: (seq: Int, jpeg: Data, decodedAt: UInt64)?
    private var viewers: [ObjectIdentifier: LiveViewer] = [:]
    private var task: Task<Void, Never>?
    private var stop: RecordingStop?
    private var idleSince: UInt64?
    private var ended = false
    /// Seconds from a frame's decoding to its last byte handed to a viewer's connection (the last 2,000).
    private var latencies: [Double] = []
    private var shownTotal = 0, coveredTotal = 0, skippedDetections = 0
    private var state = "idle"
    private var frameSize: (width: Int, height: Int)?
    /// idle, waiting (for the source's first frame), running, or why it stopped.
    var status: String { lock.withLock { state } }
    var size: (width: Int, height: Int)? { lock.withLock { frameSize } }

    static let idleStop: UInt64 = 10_000_000_000

    init(_ spec: LiveSourceSpec) {
        self.spec = spec
        var anonymizer = VideoAnonymizer()
        anonymizer.inputFormat = spec.format
        self.anonymizer = anonymizer
        coverSwitch = CoverSwitch(cover: anonymizer.cover, shape: anonymizer.shape)
    }

    /// A new viewer; starts covering the source if it was not running.
    func subscribe() -> LiveViewer {
        let viewer = LiveViewer(channel: self)
        lock.withLock {
            viewers[ObjectIdentifier(viewer)] = viewer
            idleSince = nil
            if task == nil && !ended { start() }
        }
        return viewer
    }

    func unsubscribe(_ viewer: LiveViewer) {
        lock.withLock {
            viewers[ObjectIdentifier(viewer)] = nil
            if viewers.isEmpty { idleSince = DispatchTime.now().uptimeNanoseconds }
        }
    }

    /// The newest frame after `seq`, if there is one.
    func frame(after seq: Int) -> (seq: Int, jpeg: Data, decodedAt: UInt64)? {
        lock.withLock { latest.flatMap { $0.seq > seq ? $0 : nil } }
    }

    /// A frame's last byte went to a viewer.
    func shown(decodedAt: UInt64) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds &- decodedAt) / 1e9
        lock.withLock {
            latencies.append(seconds)
            if latencies.count > 2000 { latencies.removeFirst(1000) }
            shownTotal += 1
        }
    }

    /// Ends every viewer's stream and stops the source (the server is stopping).
    func end() {
        let all: [LiveViewer] = lock.withLock {
            ended = true
            stop?.request()
            task?.cancel()
            return Array(viewers.values)
        }
        for viewer in all { viewer.finish() }
    }

    // Runs while someone watches; a source that ends (a stream that stopped
    // sending) is opened again after a second. Called with the lock held.
    private func start() {
        let stop = RecordingStop()
        self.stop = stop
        state = "waiting"
        task = Task.detached { [self] in
            while !Task.isCancelled && !stop.isRequested {
                do {
                    let sink = CoveredFrameSink { [self] in publish($0) }
                    let report = try await anonymizer.view(input: spec.source, stop: stop, sink: sink, coverSwitch: coverSwitch, dropped: dropped) { [self] p in
                        lock.withLock { skippedDetections = p.skippedDetections; state = "running" }
                    }
                    lock.withLock { state = "ended after \(report.frames) frames; reopening" }
                } catch {
                    lock.withLock { state = "failed: \(error); retrying" }
                }
                // Nobody watching: stop until the next viewer.
                if lock.withLock({ viewers.isEmpty }) { break }
                try? await Task.sleep(nanoseconds: 1_000_000_000)
            }
            lock.withLock {
                task = nil; self.stop = nil; state = "idle"
                // A viewer who came while this run was stopping starts the next.
                if !viewers.isEmpty && !ended { start() }
            }
        }
    }

    /// On the live view's writer thread: one JPEG for every viewer; with
    /// nobody watching for 10 s, the source stops.
    private func publish(_ frame: CoveredFrameSink.Frame) {
        let watched: Bool = lock.withLock {
            coveredTotal += 1
            frameSize = (frame.width, frame.height)
            if let idle = idleSince, DispatchTime.now().uptimeNanoseconds &- idle > LiveChannel.idleStop { stop?.request() }
            return !viewers.isEmpty
        }
        guard watched,
              let image = try? VeilImage(pixels: frame.pixels, width: frame.width, height: frame.height, bands: 3),
              let jpeg = try? ImageEncoder(format: .jpeg, quality: 80).encode(image) else { return }
        let all: [LiveViewer] = lock.withLock {
            latest = ((latest?.seq ?? -1) + 1, jpeg, frame.decodedAt)
            return Array(viewers.values)
        }
        for viewer in all { viewer.wake() }
    }

    /// For /metrics and the Live tab.
    var figures: (p50: Double?, p99: Double?, shown: Int, covered: Int, skipped: Int, viewers: Int, dropped: Int) {
        lock.withLock {
            let sorted = latencies.sorted()
            let at = { (q: Double) in sorted.isEmpty ? nil : sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))] }
            return (at(0.5), at(0.99), shownTotal, coveredTotal, skippedDetections, viewers.count, dropped.total)
        }
    }
}
