import VeilKit
import VeilVocabulary

extension BlurCommand {
    static let definition = CommandSpec(
        path: ["blur"], arguments: "INPUT...",
        summary: "cover every face of photos, keeping a re-editable state beside each output",
        details: ["INPUT may be files or folders (recursed). Outputs go beside each input as NAME-veil.EXT, under --out-dir keeping the "
                  + "folder layout, or to -o; the editing state goes to OUTPUT.veil.json (or --state), so a second run re-renders "
                  + "without detecting again.",
                  "- as INPUT reads one photo from standard input (its format from its bytes) and writes the result to standard "
                  + "output, or to -o; -o - writes to standard output. Neither keeps an editing state, and neither goes with "
                  + "--out-dir, --state, --preview, --shard or another INPUT."],
        options: [
            Options.spec(\.output).alternative("output"), Options.spec(\.outDir).alternative("output"),
            .style, .shape, .maskScale(default: 1),
            .faceThreshold(default: "the model's privacy threshold, \(OptionSpec.number(Double(PhotoBlurrer().detector.confidenceThreshold)))"),
            .faceModel(default: PhotoBlurrer().detector.model),
            .facePrecision,
            Options.spec(\.tileScale),
            .photoCover, .textMatch,
            Options.spec(\.quality), Options.spec(\.keepMetadata), Options.spec(\.preview), Options.spec(\.state),
            ] + EditOptions.specs + [
            .jobs.with(default: "the cores"), .threads.with(default: "1 for a batch (a run per core), the cores for one photo"), .maxPixels,
        ] + BatchRun.options)
        .runs { try await run($0) }
        .examples(.init("veil blur photo.jpg", "every face covered: photo-veil.jpg beside it, its editing state in photo-veil.jpg.veil.json"),
                  .init("veil blur photos/ --out-dir covered/ --style blur --shape ellipse", "a folder, its layout kept, a soft blur through ellipses"),
                  .init("veil blur street.jpg --cover faces,text --text-match plates", "the faces and the number plates"),
                  .init("veil blur march.jpg --cover people --preview", "every person covered whole, each numbered pN in the preview"),
                  .init("veil blur photo.jpg --preview --drop 2", "re-render without detecting: face 2 uncovered, a numbered preview beside it"))
}
