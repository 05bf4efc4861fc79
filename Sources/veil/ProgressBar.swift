import Foundation
import Synchronization

/// A one-line progress bar with rate and ETA on standard error, drawn only
/// when standard error is a terminal (quiet in pipes, logs and CI).
final class ProgressBar {
    private let total: Int
    private let unit: String
    private let start = Date()
    private var done = 0
    private var lastDraw = Date.distantPast
    private let enabled: Bool

    init(total: Int, unit: String, enabled: Bool = isatty(STDERR_FILENO) != 0) {
        self.total = total
        self.unit = unit
        self.enabled = enabled && total > 1
    }

    func advance() {
        done += 1
        guard enabled else { return }
        let now = Date()
        if done < total && now.timeIntervalSince(lastDraw) < 0.1 { return }
        lastDraw = now
        let elapsed = now.timeIntervalSince(start)
        // No rate until there is something to measure it on: the first item's
        // rate over microseconds read "262144.0 frames/s".
        let measured = elapsed >= 0.5 && done > 1
        let rate = measured ? Double(done) / elapsed : 0
        let width = 30, filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let speed = measured ? String(format: "%.1f %@/s  ETA %@", rate, unit, ProgressBar.clock(Double(total - done) / rate)) : "-- \(unit)/s"
        let line = String(format: "\r%@ %d/%d %@  %@ ", bar, done, total, unit, speed)
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Redraws the bar for one long item at `fraction` (0...1) of its work,
    /// labelled `what`: a single large photo's detection, hundreds of tiles.
    /// Calls may come from any thread, one at a time; drawn at most ten times
    /// a second, with the ETA from the rate so far.
    func show(fraction: Double, _ what: String) {
        guard isatty(STDERR_FILENO) != 0 else { return }
        let now = Date()
        if fraction < 1 && now.timeIntervalSince(lastDraw) < 0.1 { return }
        lastDraw = now
        let f = min(1, max(0, fraction)), elapsed = now.timeIntervalSince(start)
        let eta = f > 0 ? elapsed * (1 - f) / f : 0
        let width = 30, filled = Int(Double(width) * f)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = String(format: "\r%@ %3d%% %@  ETA %@ ", bar, Int(f * 100), what, ProgressBar.clock(eta))
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Clears the bar so a normal line can be printed; the next advance redraws it.
    func clearLine() {
        guard enabled else { return }
        ProgressBar.eraseLine()
    }

    func finish() {
        guard enabled else { return }
        ProgressBar.eraseLine()
    }

    /// Returns to the start of the line and erases it.
    static func eraseLine() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// One input's failure on one line, its path said once (most errors name it already).
func printFileError(_ path: String, _ error: any Error) {
    let text = "\(error)"
    printError(text.contains(path) ? "veil: \(text)" : "veil: \(path): \(text)")
}

/// One photo's detection drawn as it goes (`ProgressBar.show`), fed by the
/// request's progress handler from the detecting task: a lock keeps the
/// drawing to one thread at a time.
final class DetectionProgress: Sendable {
    private let bar = Mutex(ProgressBar(total: 1, unit: "photo"))

    func show(_ fraction: Double) { bar.withLock { $0.show(fraction: fraction, "detecting faces") } }

    func clear() {
        guard isatty(STDERR_FILENO) != 0 else { return }
        bar.withLock { _ in ProgressBar.eraseLine() }
    }
}
