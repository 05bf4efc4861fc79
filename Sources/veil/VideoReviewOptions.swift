import Foundation
import VeilKit
import VeilVocabulary

/// The CLI's side of `VideoReview` (VeilKit): which state, the edits from
/// the flags, and its refusals said as the command's mistakes (exit 2).
enum VideoReviewOptions {
    /// Nil for live sources and non-file outputs, which keep no state.
    static func prepare(_ args: Arguments, input: String, output: String, source: VideoSource, segment: VideoSegment?, format: String?,
                        cover: VideoAnonymizer.Cover, home: VeilHome) throws -> VideoReview? {
        let edits = try VideoEdits(args)
        guard !source.isLive, VideoReview.keepsState(output: output, format: format) else {
            guard edits.isEmpty else { throw InputError("track edits need a file INPUT and a file OUTPUT of the whole video (no --segment)") }
            return nil
        }
        let statePath = PhotoBlurrer.sidecar(for: URL(fileURLWithPath: output))
        // A part keeps a state that says which part it is, for the join; it is never edited.
        if let segment {
            guard edits.isEmpty else { throw InputError("track edits need a file OUTPUT of the whole video: join the parts, then edit the joined output") }
            return try VideoReview.part(input: URL(fileURLWithPath: input), statePath: statePath, segment: segment)
        }
        let review: VideoReview
        do {
            review = try VideoReview.open(input: URL(fileURLWithPath: input), output: URL(fileURLWithPath: output), statePath: statePath, edits: edits,
                                          cover: cover, home: home)
        } catch let VeilError.invalidInput(error) {
            // The state's refusals are the command's mistakes (exit 2), each with what to do.
            switch error.code {
            case .stateMissing:
                throw InputError("--drop-track, --keep-track, --merge-tracks, the people's edits, --add, --stroke and --confirm edit the tracks of a run: run `veil video \(input) -o \(output)` first")
            case .stateOfAnotherSource, .stateWithoutText:
                throw InputError("\(error.description): remove it to detect again, or write to another output")
            default: throw error
            }
        }
        if let state = review.previous {
            let added = state.manual.filter { $0.status == .covered }.count, dropped = state.tracks.filter { $0.status == .dropped }.count
            let unsure = (state.unsure.map { ", \($0.count) unsure" } ?? "") + (state.hasPeople ? ", \(state.people.count) people" : "")
            printError("veil video: re-rendering from \(statePath.lastPathComponent) (\(state.tracks.count) tracks\(unsure), \(dropped) dropped, "
                       + "\(added) added\(state.strokes.map { ", \($0.count) pen strokes" } ?? "")\(state.texts.map { ", \($0.count) text tracks" } ?? "")); the detector does not run (remove it to detect again)")
        }
        return review
    }
}
