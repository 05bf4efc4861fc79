import Foundation

extension PhotoBlurrer {
    /// The digests of a job already done: its output exists and is byte for
    /// byte the file its editing state says it exported, made from exactly
    /// this input, with the cover options asked for now (text included). Nil means render it
    /// (nothing there, a half-finished earlier run, a changed input, an
    /// output edited since, other options). A re-run of a batch skips what
    /// this finds, so a killed task resumes without redoing work.
    public func finished(_ job: Job) -> (source: String, output: String)? {
        let files = FileManager.default
        guard job.edits.isEmpty, files.fileExists(atPath: job.output.path), files.fileExists(atPath: job.state.path),
              let state = try? EditingState.load(from: job.state), let exported = state.exported,
              style.map({ $0 == state.style }) ?? true, shape.map({ $0 == state.shape }) ?? true,
              maskScale.map({ $0 == state.maskScale }) ?? true,
              // Text asked for with the same match, and faces found if they are covered.
              text.map({ state.texts != nil && state.texts?.match == $0.match?.spelling }) ?? true,
              !coversFaces || state.faces != .notYet,
              (try? SHA256.hex(fileAt: job.output)) == exported.sha256,
              (try? SHA256.hex(fileAt: job.input)) == state.source.sha256 else { return nil }
        return (state.source.sha256, exported.sha256)
    }
}
