import Foundation
import VeilKit
import VeilVocabulary

/// The video editing state beside a file output (`OUTPUT.veil.json`): kept
/// after every run of a file, reused by the next run into the same output
/// (the detector does not run), edited from the command line.
struct VideoReview {
    let statePath: URL
    /// The state this run re-renders from, with the edits applied; nil on a first run.
    let previous: VideoEditingState?
    let recorder = TrackRecorder()
    let inputDigest: String
    let inputSize: Int

    /// Reads the state beside `output` when there is one (it must be of
    /// `input`: same sha256), applies the edits, and sets `anonymizer` to
    /// re-render from it. Nil for live sources and non-file outputs, which
    /// keep no state.
    static func prepare(_ args: Arguments, input: String, output: String, source: VideoSource,
                        anonymizer: inout VideoAnonymizer) throws -> VideoReview? {
        let edits = try VideoEdits(args)
        let fileOutput = anonymizer.outputFormat == nil && !output.contains("://") && !output.hasPrefix("/dev/")
        guard !source.isLive, fileOutput, anonymizer.segment == nil else {
            guard edits.isEmpty else { throw InputError("track edits need a file INPUT and a file OUTPUT of the whole video (no --segment)") }
            return nil
        }
        let statePath = PhotoBlurrer.sidecar(for: URL(fileURLWithPath: output))
        let inputURL = URL(fileURLWithPath: input)
        let size = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? NSNumber)?.intValue ?? 0
        let digest = try VideoReview.digest(of: inputURL)
        guard FileManager.default.fileExists(atPath: statePath.path) else {
            guard edits.isEmpty else {
                throw InputError("--drop-track, --keep-track, --add and --confirm edit the tracks of a run: run `veil video \(input) -o \(output)` first")
            }
            return VideoReview(statePath: statePath, previous: nil, inputDigest: digest, inputSize: size)
        }
        var state: VideoEditingState
        do { state = try VideoEditingState.load(from: statePath) } catch let error as VeilError { throw InputError(error.description) }
        guard state.source.sha256 == digest else {
            throw InputError("\(statePath.path) is the state of another video (\(state.source.file), sha256 \(state.source.sha256.prefix(12))...; "
                             + "\(input) is \(digest.prefix(12))...): remove it to detect again, or write to another output")
        }
        do { try state.apply(edits) } catch let error as VeilError { throw InputError(error.description) }
        if args.value("--style") == nil { anonymizer.cover.style = state.style }
        if args.value("--shape") == nil { anonymizer.shape = state.shape }
        if args.value("--mask-scale") == nil { anonymizer.cover.profile.scale = state.maskScale }
        anonymizer.replay = state
        // No detector to share the cores with: the encoder takes them all
        // (one x264 thread left a 1080p re-render at 1.5x the first run's speed).
        anonymizer.encoderThreads = ProcessInfo.processInfo.activeProcessorCount
        let added = state.manual.filter { $0.status == .covered }.count, dropped = state.tracks.filter { $0.status == .dropped }.count
        printError("veil video: re-rendering from \(statePath.lastPathComponent) (\(state.tracks.count) tracks, \(dropped) dropped, "
                   + "\(added) added); the detector does not run (remove it to detect again)")
        return VideoReview(statePath: statePath, previous: state, inputDigest: digest, inputSize: size)
    }

    /// Writes the state of the finished run: the detector's tracks on a first
    /// run; on a re-render the previous state with its edits, and the boxes
    /// followed for added regions.
    func finish(_ report: VideoAnonymizer.Report, input: String, anonymizer: VideoAnonymizer) throws {
        guard let info = report.info else { return }
        let frame = PixelSize(width: info.width, height: info.height)
        var state: VideoEditingState
        if var previous {
            let recorded = Dictionary(uniqueKeysWithValues: recorder.tracks(frameSize: frame).map { ($0.id, $0.frames) })
            for i in previous.manual.indices where previous.manual[i].follow && previous.manual[i].followed == nil {
                previous.manual[i].followed = recorded[previous.manual[i].id] ?? []
            }
            state = previous
        } else {
            state = VideoEditingState(
                source: .init(file: URL(fileURLWithPath: input).lastPathComponent, sha256: inputDigest, size: inputSize,
                              width: info.width, height: info.height, framesPerSecond: info.framesPerSecond, frames: report.frames),
                style: anonymizer.cover.style, shape: anonymizer.shape, maskScale: anonymizer.cover.profile.scale,
                tracks: recorder.tracks(frameSize: frame), manual: [])
        }
        state.style = anonymizer.cover.style
        state.shape = anonymizer.shape
        state.maskScale = anonymizer.cover.profile.scale
        try state.save(to: statePath)
    }

    /// The input's sha256, read in 8 MiB pieces (a long video is not mapped whole).
    static func digest(of url: URL) throws -> String {
        do { return try VideoEditingState.digest(ofFileAt: url) } catch let error as VeilError { throw InputError(error.description) }
    }
}
