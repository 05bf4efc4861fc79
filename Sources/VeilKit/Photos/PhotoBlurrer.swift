import Foundation

/// Covers the faces of one photo and keeps its editing state: decode, detect
/// (only the first time for a given source), apply the user's edits, render,
/// encode, write the output and then the sidecar, each atomically.
public struct PhotoBlurrer: Sendable {
    public var detector = DetectFaceRectanglesRequest.privacy
    /// Whether faces are covered (`--cover text` alone: no).
    public var coversFaces = true
    /// Text to cover (`--cover faces,text`, `--text-match`); nil covers none.
    public var text: TextCovering?
    /// People to cover whole (`--cover people`); nil covers none.
    public var people: PeopleCovering?
    /// Whether a run on a saved state covers what that state covers (faces,
    /// text, people) rather than `coversFaces`, `text` and `people`: set when
    /// the user named no cover set (`--cover`, `--text-match`), so an edit of
    /// a text-only state (`--drop t0`) stays text-only instead of detecting
    /// faces it was never asked to cover.
    public var keepsStateCoverSet = false
    /// Overrides for what the sidecar says (or the defaults, for a new photo).
    public var style: CoverStyle?
    public var shape: CoverRegion.Shape?
    public var maskScale: Double?
    /// Keep EXIF/XMP (orientation reset to upright); dropped by default.
    public var keepMetadata = false
    /// JPEG/WebP quality; nil keeps the source JPEG's estimated quality (90 otherwise).
    public var quality: Int?
    /// Also write a side-by-side check image (original with boxes | result).
    public var writePreview = false

    public init() {}

    /// One photo to cover.
    public struct Job: Sendable {
        public var input: URL
        public var output: URL
        public var state: URL
        public var edits: RegionEdits
        public init(input: URL, output: URL, state: URL? = nil, edits: RegionEdits = RegionEdits()) {
            self.input = input
            self.output = output
            self.state = state ?? PhotoBlurrer.sidecar(for: output)
            self.edits = edits
        }
    }

    /// What happened to one photo.
    public struct Outcome: Sendable {
        public var output: URL
        public var state: EditingState
        /// Whether the detector ran (false when the sidecar already had the faces).
        public var detectorRan: Bool
        public var detectedFaces: Int
        public var coveredRegions: Int
        public var preview: URL?
    }

    /// The sidecar path for an output: `OUTPUT.veil.json`.
    /// (A name too long for that is shortened, see `FileName`.)
    public static func sidecar(for output: URL) -> URL {
        FileName.sibling(output, adding: ".veil.json")
    }

    /// Opens the face detector's model now, so that a batch's first photos
    /// are decoded while it opens instead of waiting for it: ONNX Runtime's
    /// session is made on one core before any photo's first pass can run
    /// (10 ms from the prepared-model cache, 60 ms and more the first time a
    /// build runs). Nothing to open when faces are not covered.
    public func prepare() async throws {
        guard coversFaces else { return }
        try await detector.prepare()
    }

    public func run(_ job: Job) async throws -> Outcome {
        try Task.checkCancellation()
        let inputBytes = try PhotoBlurrer.read(job.input)
        let inputDigest = SHA256.hex(inputBytes)
        let previous = FileManager.default.fileExists(atPath: job.state.path) ? try EditingState.load(from: job.state) : nil

        // Which file is the original? The input, unless the input is our own
        // earlier output (re-editing in place): then the original kept aside.
        var sourceURL = job.input, sourceBytes = inputBytes, sourceDigest = inputDigest
        if let previous, previous.source.sha256 != inputDigest, previous.exported?.sha256 == inputDigest {
            // The sidecar names the original: only in its own folder, and only
            // the very bytes it was made from.
            try EditingState.requireInside(job.state.deletingLastPathComponent(), previous.original, what: "its original")
            sourceURL = URL(fileURLWithPath: previous.original, relativeTo: job.state.deletingLastPathComponent())
            sourceBytes = try PhotoBlurrer.read(sourceURL)
            sourceDigest = SHA256.hex(sourceBytes)
            guard sourceDigest == previous.source.sha256 else {
                throw VeilError.invalidArgument("\(sourceURL.path) is not the original this editing state was made from (sha256 differs)")
            }
        }
        let decoded = try detector.decoder.decode(.data(Data(sourceBytes)))
        var (state, result, detectorRan, regions) = try await cover(
            decoded.image, digest: sourceDigest, file: sourceURL.path,
            previous: previous?.source.sha256 == sourceDigest ? previous : nil, edits: job.edits)
        let image = decoded.image

        let format = try EncodedFormat(outputPath: job.output.path) ?? decoded.format
        let encoder = ImageEncoder(format: format, quality: quality ?? JPEGQuality.estimate(sourceBytes) ?? 90, keepMetadata: keepMetadata)
        let encoded = try encoder.encode(result)

        // Overwriting the original (only when the output names it): keep it aside first.
        var keep: URL?
        if job.output.standardizedFileURL.path == sourceURL.standardizedFileURL.path {
            keep = FileName.sibling(job.output.deletingLastPathComponent().appendingPathComponent("." + job.output.lastPathComponent),
                                    adding: ".veil-original")
        }
        // Files named from the sidecar's folder, never by absolute paths: a
        // shared state tells no one where the photo sat (`RelativePath`).
        let folder = job.state.deletingLastPathComponent()
        state.source.file = RelativePath.of(sourceURL, from: folder)
        state.source.size = sourceBytes.count
        state.original = keep.map { RelativePath.of($0, from: folder) } ?? state.source.file
        state.exported = .init(file: RelativePath.of(job.output, from: folder), sha256: SHA256.hex(encoded), date: ISO8601DateFormatter().string(from: Date()))
        // Every file staged before any is put in place: a sidecar that cannot
        // be written (a missing folder, a full disk) leaves no output behind.
        let output = try AtomicFile.stage(encoded, for: job.output)
        let sidecar: AtomicFile.Staged
        do {
            sidecar = try AtomicFile.stage(state.sidecarData(), for: job.state)
            if let keep, !FileManager.default.fileExists(atPath: keep.path) {
                do { try AtomicFile.write(Data(sourceBytes), to: keep) } catch { sidecar.discard(); throw error }
            }
        } catch {
            output.discard()
            throw error
        }
        // Both into place as one step: a batch stopped by a signal never
        // leaves an output without its sidecar.
        try AtomicFile.commit([output, sidecar])

        var preview: URL?
        if writePreview {
            let url = FileName.sibling(job.output.deletingPathExtension(), adding: ".preview.jpg")
            // The original's half shows every face: the owner's eyes only.
            try ImageEncoder(format: .jpeg, quality: 85).write(PhotoBlurrer.sideBySide(original: image, result: result, state: state), to: url, ownerOnly: true)
            preview = url
        }
        let detected: Int
        if case let .recognized(_, faces) = state.faces { detected = faces.count } else { detected = 0 }
        return Outcome(output: job.output, state: state, detectorRan: detectorRan, detectedFaces: detected,
                       coveredRegions: regions.count, preview: preview)
    }

    /// The heart of both the file job and the in-memory one: the state for
    /// this source (`previous` if given, else a new one named `file`), the
    /// options applied, faces detected if the state has none yet, the edits
    /// applied, and the faces covered.
    func cover(_ image: VeilImage, digest: String, file: String, previous: EditingState?, edits: RegionEdits) async throws
        -> (state: EditingState, result: VeilImage, detectorRan: Bool, regions: [CoverRegion]) {
        var state = previous ?? EditingState(
            source: .init(file: file, sha256: digest, width: image.width, height: image.height),
            original: file, faces: .notYet, regions: .notYet, strokes: [],
            style: .default, shape: .disc, maskScale: 1, exported: nil)
        if let style { state.style = style }
        if let shape { state.shape = shape }
        if let maskScale { state.maskScale = maskScale }

        var (coversFaces, text, peopleCovering) = (self.coversFaces, self.text, self.people)
        if keepsStateCoverSet, let previous {
            coversFaces = previous.faces != .notYet
            text = previous.texts.map { TextCovering(match: $0.match.flatMap { try? TextMatch($0) }) }
            peopleCovering = previous.people == nil ? nil : (peopleCovering ?? PeopleCovering())
        }
        var detectorRan = false
        if let text, state.texts == nil || state.texts?.match != text.match?.spelling {
            state.texts = try await text.regions(in: image, device: detector.computeDevice)
            detectorRan = true
        }
        if let peopleCovering, state.people == nil {
            state.people = try await peopleCovering.regions(in: image, device: detector.computeDevice)
            detectorRan = true
        }
        if coversFaces, case .notYet = state.faces {
            let found = try await detector.detect(in: image)
            state.faces = .recognized(threshold: detector.confidenceThreshold, faces: found.map {
                EditingState.Face(box: EditingState.Box($0.box, in: image.size), confidence: $0.score)
            })
            detectorRan = true
        }
        try state.apply(edits)
        try Task.checkCancellation()

        let (regions, strokes) = state.coverInput()
        let cover = FaceCover(style: state.style, profile: MaskProfile(scale: state.maskScale))
        // Covered text counts as regions covered: a filled stroke each.
        let texts = state.coveredText().map { CoverRegion(rect: DetectedText(corners: $0.points, score: 0).bounds, shape: .box) }
        // And each covered person one region.
        let people = (state.people?.items ?? []).filter(\.covered).compactMap(\.extent).map {
            CoverRegion(rect: ImageRect(x: $0.x * Double(image.width), y: $0.y * Double(image.height),
                                        width: $0.width * Double(image.width), height: $0.height * Double(image.height)), shape: .box)
        }
        return (state, try cover.apply(to: image, regions: regions, strokes: strokes), detectorRan, regions + texts + people)
    }

    /// The bytes of a file, with the same one-line errors as decoding.
    public static func read(_ url: URL) throws -> [UInt8] {
        try ImageDecoder.checkReadable(url)
        do { return [UInt8](try Data(contentsOf: url)) } catch {
            throw VeilError.unreadable(path: url.path, reason: (error as NSError).localizedFailureReason ?? "cannot open")
        }
    }

    /// The original with the covered regions boxed and numbered (a detected
    /// face by the index `--drop` takes, a drawn box "+"), the pen strokes
    /// traced, beside the result.
    static func sideBySide(original: VeilImage, result: VeilImage, state: EditingState) throws -> VeilImage {
        let (regions, strokes) = state.coverInput()
        var marks = zip(regions, state.effectiveRegions).map { region, source in
            ReviewMark(box: region.rect, label: source.face.map(String.init) ?? "+")
        }
        // Dropped faces in red with their number: what `--undrop N` brings back.
        if case let .recognized(_, faces) = state.faces {
            let covered = Set(state.effectiveRegions.compactMap(\.face))
            let (w, h) = (Double(state.source.width), Double(state.source.height))
            for (index, face) in faces.enumerated() where !covered.contains(index) {
                let b = face.box
                marks.append(ReviewMark(box: ImageRect(x: b.x * w, y: b.y * h, width: b.width * w, height: b.height * h),
                                        label: "\(index) dropped", uncovered: true))
            }
        }
        // Text regions by the number `--drop tN` takes, red when uncovered.
        for (index, item) in (state.texts?.items ?? []).enumerated() {
            let points = item.corners.map { ImageRect.Point(x: $0[0] * Double(state.source.width), y: $0[1] * Double(state.source.height)) }
            marks.append(ReviewMark(box: DetectedText(corners: points, score: 0).bounds,
                                    label: "t\(index)" + (item.covered ? "" : " dropped"), uncovered: !item.covered))
        }
        // People by the number `--drop pN` takes, their silhouette's extent.
        for (index, person) in (state.people?.items ?? []).enumerated() {
            guard let b = person.extent else { continue }
            let (w, h) = (Double(state.source.width), Double(state.source.height))
            marks.append(ReviewMark(box: ImageRect(x: b.x * w, y: b.y * h, width: b.width * w, height: b.height * h),
                                    label: "p\(index)" + (person.covered ? "" : " dropped"), uncovered: !person.covered))
        }
        return try ReviewMark.draw(marks, strokes: strokes.filter { !$0.filled }, on: original).joined(beside: result.srgb8())
    }
}
