import VeilKit
import VeilVocabulary

extension FacesCommand {
    static let definition = CommandSpec.imageReport(
        "faces", summary: "find faces: a table, or JSON with --json",
        details: "Prints each image's size and each face's box (pixels of the upright image, origin top left) and confidence.",
        options: [
            FaceOptions.spec(\.preset),
            .faceModel(default: DetectFaceRectanglesRequest().model),
            .facePrecision,
            FaceOptions.spec(\.tileScale),
            .faceThreshold(default: "\(OptionSpec.number(Double(DetectFaceRectanglesRequest.defaultConfidenceThreshold))); "
                           + "privacy: the model's own (" + FaceModel.allCases.map { "\($0.rawValue) \(OptionSpec.number(Double($0.privacyThreshold)))" }
                               .joined(separator: ", ") + ")"),
            ReportOptions.spec(\.json), ReportOptions.spec(\.preview),
        ])
        .runs { try await run($0) }
        .examples(.init("veil faces group.jpg", "a table of the faces found: box, confidence"),
                  .init("veil faces photos/ --json > faces.json", "every photo of the folder as JSON (boxes in pixels and normalized, landmarks)"),
                  .init("veil faces crowd.jpg --preset privacy --preview crowd-faces.png", "what `veil blur` would cover, drawn with numbers"))
}
