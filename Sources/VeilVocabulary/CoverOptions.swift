import Foundation
import VeilKit

/// How faces are covered, as `veil blur`, `veil video` and `POST /v1/blur`
/// spell it, each option one line: `style`, `shape`, `mask-scale` (alias
/// `maskScale`), `threshold`, `model`, `precision`, `cover`, `text-match`
/// (alias `textMatch`). Absent options stay nil so each job keeps its own defaults.
public struct CoverOptions: ParsableOptions {
    public var style: CoverStyle?
    public var shape: CoverRegion.Shape?
    public var maskScale: Double?
    public var threshold: Float?
    public var model: FaceModel?
    public var precision: ModelPrecision?
    /// `cover`: any of faces, text and people (`faces,text`, `people`); nil: faces alone.
    public var covered: Set<String>?
    /// `text-match`: only text whose reading matches is covered.
    public var textMatch: TextMatch?

    public init() {}

    public static var options: [Option<Self>] {
        [
            .parsed("style", "pixelate[=S]|blur[=S]|solid[=#RRGGBB[AA]]|image=PATH", \.style, .cover,
                    "how a face is covered: pixels of (longest side / 60, or the next step past a sixth of the largest face) x S, a blur of (face / 6) x S, a colour, or a picture",
                    default: CoverStyle.default.spelling, choices: ["pixelate", "blur", "solid", "image="], sample: "blur=2") { text, option in
                do { return try CoverStyle(spelling: text) } catch { throw InputError("\(option): \(error)") }
            },
            .parsed("shape", "disc|ellipse|box", \.shape, .cover, "the soft mask round each face", default: CoverRegion.Shape.disc.rawValue,
                    choices: CoverRegion.Shape.allCases.map(\.rawValue), sample: "ellipse") { text, option in
                guard let shape = CoverRegion.Shape(rawValue: text) else { throw InputError("\(option) must be disc, ellipse or box, not '\(text)'") }
                return shape
            },
            .double("mask-scale", "K", \.maskScale, in: 0.1...10, .cover, "the masks' size, times the face's", sample: "1.2", aliases: ["maskScale"]),
            .faceThreshold(\.threshold),
            .faceModel(\.model),
            .facePrecision(\.precision),
            .parsed("cover", "faces|text|faces,text", \.covered, .detection,
                    "what to cover: faces, text (signs, plates, labels: every region the text detector finds) or both",
                    default: "faces", sample: "faces,text") { text, option in
                let parts = Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                guard !parts.isEmpty, parts.isSubset(of: ["faces", "text", "people"]) else {
                    throw InputError("\(option) takes faces, text and people, alone or joined by commas (faces,text), not '\(text)'")
                }
                return parts
            },
            .parsed("text-match", "REGEX|plates|emails|phones", \.textMatch, .detection,
                    "cover only text whose reading matches (case-insensitive; implies text in --cover); plates, emails, phones: see README",
                    sample: "plates", aliases: ["textMatch"]) { text, option in
                guard text.count <= 1_000 else { throw InputError("\(option) is longer than 1000 characters") }
                do { return try TextMatch(text) } catch { throw InputError("\(option): \(error)") }
            },
        ]
    }

    /// `allowingFiles`: whether `style=image=PATH` may name a file. A remote
    /// client may not name files on the server.
    public init(_ source: some OptionSource, allowingFiles: Bool) throws {
        self = try Self(source)
        if case let .image(path) = style {
            guard allowingFiles else { throw InputError("image styles name a file on the server; not accepted over HTTP") }
            // Read before any work: a missing picture was found only after
            // detection, as an error against each photo (exit 1).
            do { _ = try ImageDecoder().decode(.url(URL(fileURLWithPath: path))) } catch {
                throw InputError("\(source.spelling("style")) image=\(path): \(error)")
            }
        }
    }

    public var coverFaces: Bool { covered.map { $0.contains("faces") } ?? true }
    /// Text is covered when `cover` names it or `text-match` is given.
    public var coverText: Bool { covered?.contains("text") == true || textMatch != nil }
    public var coverPeople: Bool { covered?.contains("people") == true }
    /// Whether `cover` or `text-match` was given: if not, an edit of a saved
    /// state covers what the state covers (`PhotoBlurrer.keepsStateCoverSet`).
    public var namesCoverSet: Bool { covered != nil || textMatch != nil }

    public func apply(to blurrer: inout PhotoBlurrer) {
        if let style { blurrer.style = style }
        if let shape { blurrer.shape = shape }
        if let maskScale { blurrer.maskScale = maskScale }
        (blurrer.coversFaces, blurrer.text) = (coverFaces, textCovering)
        blurrer.people = coverPeople ? PeopleCovering() : nil
        blurrer.keepsStateCoverSet = !namesCoverSet
        applyDetection(to: &blurrer.detector)
    }

    /// Refuses what only photos cover yet: people (a person model run per frame
    /// and per face does not keep up with video here).
    public func requireVideo() throws {
        if coverPeople { throw InputError("cover people covers photos (veil blur, /v1/blur); video covers faces and text") }
    }

    /// A video's cover: what was given, else the state's where the run
    /// re-renders from one (it keeps its style, shape and mask scale unless
    /// told otherwise), else the request's own.
    public func video(over state: VideoEditingState? = nil) -> VideoAnonymizer.Cover {
        var cover = VideoAnonymizer.Cover(faces: coverFaces, text: textCovering)
        if let style = style ?? state?.style { cover.face.style = style }
        if let shape = shape ?? state?.shape { cover.shape = shape }
        if let maskScale = maskScale ?? state?.maskScale { cover.face.profile.scale = maskScale }
        return cover
    }

    /// A video's detection with the model, threshold and precision given.
    public func detection(_ base: VideoAnonymizer.Detection = VideoAnonymizer.Detection()) -> VideoAnonymizer.Detection {
        var detection = base
        applyDetection(to: &detection.detector)
        return detection
    }

    /// The text to cover, if any: every region, or those `textMatch` matches.
    public var textCovering: TextCovering? { coverText ? TextCovering(match: textMatch) : nil }

    /// The model, at its own privacy threshold unless one is given (a
    /// model's scores are its own), then the threshold.
    private func applyDetection(to detector: inout DetectFaceRectanglesRequest) {
        if let model {
            detector.model = model
            detector.confidenceThreshold = model.privacyThreshold
        }
        if let threshold { detector.confidenceThreshold = threshold }
        if let precision { detector.precision = precision }
    }
}
