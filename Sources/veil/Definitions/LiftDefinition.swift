import VeilKit
import VeilVocabulary

extension LiftCommand {
    static let definition = CommandSpec(
        path: ["lift"], arguments: "IMAGE...",
        summary: "cut the subjects out of photos, apply an effect round them, or write their soft mask",
        details: ["Without -o or --out-dir, writes NAME-lifted.png (NAME-mask.png with --mask-only) beside each input. "
                  + "- as IMAGE reads one image from standard input and writes the result to standard output (PNG), or to -o; "
                  + "-o - writes to standard output."],
        options: [
            Outputs.spec(\.output).alternative("output"), Outputs.spec(\.outDir).alternative("output"),
            LiftOptions.spec(\.tap).alternative("pick"), LiftOptions.spec(\.instances).alternative("pick"),
        ] + LiftOptions.specs(from: \.crop, through: \.maxPeople) + [Outputs.spec(\.json)] + LiftOptions.specs(from: \.sides, through: \.precision) + [
            .threads, .jobs.with(default: "2"), .maxPixels,
        ] + BatchRun.options)
        .runs { try await run($0) }
        .examples(.init("veil lift photo.jpg", "photo-lifted.png: the subjects, the background transparent"),
                  .init("veil lift photo.jpg --tap 0.5,0.4 --crop", "the subject under the tap, cropped to it"),
                  .init("veil lift photo.jpg --effect bokeh -o bokeh.png", "the background blurred round the subject"),
                  .init("veil lift group.jpg --people --json", "each person's label, area and box"))
}
