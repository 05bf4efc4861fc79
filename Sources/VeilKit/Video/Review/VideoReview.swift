import Foundation

/// One run of a file into a file with its video editing state beside the
/// output (`OUTPUT.veil.json`): a first run records the detector's tracks
/// (and with `--cover text` the text tracker's); a
/// run that finds the state re-renders from it with the edits applied, and
/// the detector does not run. Shared by `veil video` and the editor's Video
/// tab (`veil serve --media`), so both keep and read the same state.
public struct VideoReview: Sendable {
    public let statePath: URL
    /// The state this run re-renders from, with the edits applied; nil on a first run.
    public let previous: VideoEditingState?
    /// The output the state was last rendered into, for the run to copy from (`replay`).
    public var previousRender: PreviousRender?
    public let recorder = TrackRecorder()
    public let inputDigest: String
    public let inputSize: Int
    /// How the run proposes people (a first run's, where the model is installed); nil: it does not.
    public var people: PersonProposal?
    /// The part of the video this run writes (`--segment I/N`), recorded in its state.
    public private(set) var segment: VideoEditingState.Part?

    /// The request's re-render from this review's state (nil on a first run).
    /// `copiesUnchangedGOPs` false: every frame is rendered (`--json` logs each).
    public func replay(copiesUnchangedGOPs: Bool = true) -> VideoAnonymizer.Review? {
        previous.map { VideoAnonymizer.Review(state: $0, previous: previousRender, copiesUnchangedGOPs: copiesUnchangedGOPs) }
    }

    /// Reads the state at `statePath` when there is one (it must be of
    /// `input`: same sha256) and applies `edits`; the run then re-renders
    /// from it (`replay`), its style, shape and mask scale the state's where
    /// the caller names none. A state that cannot be used is refused as an
    /// `InputError` (inside `VeilError.invalidInput`) of code `stateMissing`
    /// (edits, no state), `stateOfAnotherSource` or `stateWithoutText`, which
    /// the CLI and the service each phrase in their own words.
    /// `output`: the video `statePath` is the state of; a re-render copies
    /// what its edits leave unchanged from it (`VideoSplice`), when it is the
    /// file the state records. `cover`: what the run covers (text needs a
    /// state that holds text; a first run covering faces proposes people
    /// where the model is installed in `home`).
    public static func open(input: URL, output: URL, statePath: URL, edits: VideoEdits, cover: VideoAnonymizer.Cover,
                            home: VeilHome = .default) throws -> VideoReview {
        let size = fileSize(input)
        let digest = try VideoEditingState.digest(ofFileAt: input)
        guard FileManager.default.fileExists(atPath: statePath.path) else {
            guard edits.isEmpty else { throw missing(statePath) }
            // A first run proposes which tracks are one person, where the model is installed
            // (a home from before it covers as ever, its state without people).
            var people: PersonProposal?
            if cover.faces, case .installed = AssetStore(home: home).state(of: .sface) { people = PersonProposal() }
            return VideoReview(statePath: statePath, previous: nil, inputDigest: digest, inputSize: size, people: people)
        }
        var state = try VideoEditingState.load(from: statePath)
        if let part = state.segment {
            throw VeilError.invalidInput(InputError(.stateOfAnotherSource, "\(statePath.path) is the state of \(part.name) of \(state.source.file), "
                                                    + "not of the whole video: join the parts (veil video join) and edit the joined output"))
        }
        guard state.source.sha256 == digest else {
            throw VeilError.invalidInput(InputError(.stateOfAnotherSource, "\(statePath.path) is the state of another video (\(state.source.file), "
                                                    + "sha256 \(state.source.sha256.prefix(12))...; \(input.path) is \(digest.prefix(12))...)"))
        }
        // Text asked for but never found: a re-render would leave it uncovered.
        guard cover.text == nil || state.texts != nil else {
            throw VeilError.invalidInput(InputError(.stateWithoutText, "\(statePath.path) was made without --cover text, so it holds no text to cover"))
        }
        let rendered = state
        try state.apply(edits)
        var review = VideoReview(statePath: statePath, previous: state, inputDigest: digest, inputSize: size)
        review.previousRender = PreviousRender(path: output.path, state: rendered)
        return review
    }

    /// Whether a run into `output` (written with the muxer `format`, if named)
    /// keeps a state beside it: a file does; a URL or a device does not.
    public static func keepsState(output: String, format: String?) -> Bool {
        OutputTarget.isFile(output, explicitFormat: format)
    }

    /// The review of one part of a video split in time: always a first run
    /// (a part is detected anew, never re-rendered from a state, and takes
    /// no edits: the joined output does), its state saying which part it is.
    public static func part(input: URL, statePath: URL, segment: VideoSegment) throws -> VideoReview {
        let size = fileSize(input)
        var review = VideoReview(statePath: statePath, previous: nil, inputDigest: try VideoEditingState.digest(ofFileAt: input), inputSize: size)
        review.segment = VideoEditingState.Part(index: segment.index, count: segment.count, start: segment.start.map { _ in segment.startSeconds },
                                                end: segment.end.map { _ in segment.endSeconds })
        return review
    }

    /// Whether `edits` apply to the state at `statePath`, checked without
    /// reading the input: a render queued for later (the editor's Video tab)
    /// refuses an id that names no track before it answers, in the words
    /// `open` refuses it in for the CLI. Throws what `open` throws for them.
    public static func check(_ edits: VideoEdits, statePath: URL) throws {
        guard !edits.isEmpty else { return }
        guard FileManager.default.fileExists(atPath: statePath.path) else { throw missing(statePath) }
        var state = try VideoEditingState.load(from: statePath)
        try state.apply(edits)
    }

    /// Bytes of `url` (0 when it cannot be read: the digest then fails with the reason).
    private static func fileSize(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
    }

    private static func missing(_ statePath: URL) -> VeilError {
        .invalidInput(InputError(.stateMissing, "\(statePath.path) does not exist: there are no tracks to edit"))
    }

    /// Writes the state of the finished run: the detector's tracks on a first
    /// run; on a re-render the previous state with its edits, and the boxes
    /// followed for added regions; and the output it made (size, sha256,
    /// encoder settings), for the next re-render to copy from; all of it from
    /// the report (`Report.rendered`), not read back out of the request.
    /// Returns what it wrote.
    @discardableResult
    public func finish(_ report: VideoAnonymizer.Report, input: URL, output: URL) throws -> VideoEditingState? {
        guard let info = report.info, let rendered = report.rendered else { return nil }
        let frame = PixelSize(width: info.width, height: info.height)
        var state: VideoEditingState
        if var previous {
            let recorded = Dictionary(uniqueKeysWithValues: recorder.tracks(frameSize: frame).map { ($0.id, $0.frames) })
            for i in previous.manual.indices where previous.manual[i].follow && previous.manual[i].followed == nil {
                previous.manual[i].followed = recorded[previous.manual[i].id] ?? []
            }
            state = previous
            // A state written before clocks gets one from a run that saw every frame.
            if state.source.clock == nil { state.source.clock = recorder.clock(frames: report.frames) }
        } else {
            state = VideoEditingState(
                source: .init(file: RelativePath.of(input, from: statePath.deletingLastPathComponent()), sha256: inputDigest, size: inputSize,
                              width: info.width, height: info.height, framesPerSecond: info.framesPerSecond, frames: report.frames,
                              clock: recorder.clock(frames: report.frames)),
                style: rendered.style, shape: rendered.shape, maskScale: rendered.maskScale,
                tracks: recorder.tracks(frameSize: frame), manual: [])
            if let people { state.tracks = recorder.people(for: state.tracks, threshold: people.threshold) }
            state.unsure = recorder.unsure(frameSize: frame)
            if rendered.coversText { state.texts = recorder.textTracks(frameSize: frame) }
            state.segment = segment
        }
        // The input by its path from the state's folder, wherever it is now.
        state.source.file = RelativePath.of(input, from: statePath.deletingLastPathComponent())
        state.style = rendered.style
        state.shape = rendered.shape
        state.maskScale = rendered.maskScale
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? NSNumber)?.intValue
        state.output = try size.map {
            VideoEditingState.Output(file: output.lastPathComponent, size: $0, sha256: try VideoEditingState.digest(ofFileAt: output),
                                     encoder: rendered.encoder)
        }
        try state.save(to: statePath)
        return state
    }
}
