import VeilKit

extension FacesCommand {
    static let definition = CommandSpec(
        path: ["faces"], arguments: "IMAGE...",
        summary: "find faces: a table, or JSON with --json",
        details: ["Prints each image's size and each face's box (pixels of the upright image, origin top left) and confidence. "
                  + "A file that cannot be read is reported on one line, the others are still processed, and the exit status is 1."],
        options: [
            .valued("--preset", "analysis|privacy", .detection, "analysis: precision first; privacy: what `veil blur` covers (finer passes round small faces)",
                    default: "analysis", choices: ["analysis", "privacy"], sample: "privacy"),
            .faceModel(default: DetectFaceRectanglesRequest().model),
            .facePrecision,
            .tileScale("privacy: the finer passes round small faces upsampled S times",
                       default: DetectFaceRectanglesRequest.privacy.refinement?.scale ?? 1),
            .faceThreshold(default: "\(OptionSpec.number(Double(DetectFaceRectanglesRequest.defaultConfidenceThreshold))); "
                           + "privacy: the model's own (" + FaceModel.allCases.map { "\($0.rawValue) \(OptionSpec.number(Double($0.privacyThreshold)))" }
                               .joined(separator: ", ") + ")"),
            .flag("--json", .output, "print JSON (see README: Commands) instead of a table"),
            .valued("--preview", "OUT.png", .output, "draw the boxes and landmarks of the one IMAGE into OUT.png (its extension picks the format)",
                    kind: .file, sample: "preview.png"),
            .threads, .jobs.with(default: "1"), .maxPixels,
        ] + BatchRun.selection)
        .runs { try await run($0) }
        .examples(.init("veil faces group.jpg", "a table of the faces found: box, confidence"),
                  .init("veil faces photos/ --json > faces.json", "every photo of the folder as JSON (boxes in pixels and normalized, landmarks)"),
                  .init("veil faces crowd.jpg --preset privacy --preview crowd-faces.png", "what `veil blur` would cover, drawn with numbers"))
}
