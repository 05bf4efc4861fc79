/// Every exit status veil uses, in one place: `veil --help`, the man page
/// and the README list these, and scripts (a cluster's retry rules) rely on them.
enum ExitCode: Int32, CaseIterable, Sendable {
    case ok = 0
    case failed = 1
    case usage = 2
    case truncated = 3
    case interrupted = 130
    case terminated = 143

    /// 0 when `ok`, else 1: a batch with failures, an incomplete status.
    static func succeeded(_ ok: Bool) -> Int32 { (ok ? ExitCode.ok : .failed).rawValue }

    /// What the status means, one line. (VideoCommand returns 3, 130 and 143
    /// as numbers: keep them equal to these.)
    var meaning: String {
        switch self {
        case .ok: "done (a live recording stopped by a signal or its stream's end is done too)"
        case .failed: "an input failed (reported on one line; the others were still processed); "
            + "`veil status`: the batch is incomplete; `veil models`: a default asset is missing"
        case .usage: "a usage mistake (an unknown option, a value out of range), said on one line before any work"
        case .truncated: "`veil video`: the input was cut short or damaged; the frames that could be read were kept"
        case .interrupted: "stopped by SIGINT (a video file's run: nothing written under the output's name)"
        case .terminated: "stopped by SIGTERM (likewise)"
        }
    }
}
