import Foundation
import VeilKit

/// How faces are covered, as `veil blur`, `veil video` and `POST /v1/blur`
/// spell it: `style`, `shape`, `mask-scale` (alias `maskScale`), `threshold`, `model`, `precision`.
/// Absent options stay nil so each job keeps its own defaults.
public struct CoverOptions: Sendable {
    public var style: CoverStyle?
    public var shape: CoverRegion.Shape?
    public var maskScale: Double?
    public var threshold: Float?
    public var model: FaceModel?
    public var precision: ModelPrecision?
    /// `cover`: any of faces, text and people (`faces,text`, `people`); nil keeps faces alone.
    public var coverFaces = true, coverText = false, coverPeople = false
    /// `text-match` (alias `textMatch`): only text whose reading matches is covered.
    public var textMatch: TextMatch?
    /// Whether `cover` or `text-match` was given: if not, an edit of a saved
    /// state covers what the state covers (`PhotoBlurrer.keepsStateCoverSet`).
    public var namesCoverSet = false

    /// `allowingFiles`: whether `style=image=PATH` may name a file. A remote
    /// client may not name files on the server.
    public init(_ source: some OptionSource, allowingFiles: Bool) throws {
        if let text = source.value("style") {
            do { style = try CoverStyle(spelling: text) } catch { throw InputError("\(source.spelling("style")): \(error)") }
            if case let .image(path) = style {
                guard allowingFiles else { throw InputError("image styles name a file on the server; not accepted over HTTP") }
                // Read before any work: a missing picture was found only after
                // detection, as an error against each photo (exit 1).
                do { _ = try ImageDecoder().decode(.url(URL(fileURLWithPath: path))) } catch {
                    throw InputError("\(source.spelling("style")) image=\(path): \(error)")
                }
            }
        }
        if let text = source.value("shape") {
            guard let s = CoverRegion.Shape(rawValue: text) else {
                throw InputError("\(source.spelling("shape")) must be disc, ellipse or box, not '\(text)'")
            }
            shape = s
        }
        maskScale = try source.double(["mask-scale", "maskScale"], in: 0.1...10)
        threshold = try source.double("threshold", in: 0...1).map(Float.init)
        model = try FaceOptions.model(source)
        precision = try FaceOptions.precision(source)
        if let text = source.value("cover") {
            let parts = Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            guard !parts.isEmpty, parts.isSubset(of: ["faces", "text", "people"]) else {
                throw InputError("\(source.spelling("cover")) takes faces, text and people, alone or joined by commas (faces,text), not '\(text)'")
            }
            coverFaces = parts.contains("faces"); coverText = parts.contains("text"); coverPeople = parts.contains("people")
            namesCoverSet = true
        }
        if let text = source.value(["text-match", "textMatch"]) {
            guard text.count <= 1_000 else { throw InputError("\(source.spelling("text-match")) is longer than 1000 characters") }
            do { textMatch = try TextMatch(text) } catch { throw InputError("\(source.spelling("text-match")): \(error)") }
            coverText = true
            namesCoverSet = true
        }
    }

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
