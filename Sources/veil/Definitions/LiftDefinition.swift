import VeilKit

extension LiftCommand {
    static let definition: CommandSpec = {
        let d = GenerateForegroundInstanceMaskRequest()
        return CommandSpec(
            path: ["lift"], arguments: "IMAGE...",
            summary: "cut the subjects out of photos, apply an effect round them, or write their soft mask",
            details: ["Without -o or --out-dir, writes NAME-lifted.png (NAME-mask.png with --mask-only) beside each input. "
                      + "- as IMAGE reads one image from standard input and writes the result to standard output (PNG), or to -o; "
                      + "-o - writes to standard output."],
            options: [
                .output("OUT", "the one IMAGE's output (PNG or WebP keep the transparency); - for standard output", sample: "out.png"),
                .outDir,
                .valued("--tap", "x,y", .subject, "pick the subject under this normalized point (0...1, origin top left; the background picks all)",
                        sample: "0.5,0.5", alternative: "pick"),
                .valued("--instances", "1,3", .subject, "pick subjects by label (see --json)", sample: "1", alternative: "pick"),
                .flag("--crop", .subject, "crop to the chosen subjects"),
                .flag("--mask-only", .subject, "write the soft mask (8-bit grey) instead"),
                .valued("--effect", "remove|replace=PATH|color=HEX|highlight[=EV]|bokeh[=SIGMA]|bokeh-halo[=SIGMA]", .subject,
                        "what happens round the subjects: transparent, a new background, a colour, darkened, blurred (with a white halo)",
                        default: "remove", choices: ["remove", "replace=", "color=", "highlight", "bokeh", "bokeh-halo"], sample: "bokeh=8"),
                .valued("--model", GenerateForegroundInstanceMaskRequest.Model.allCases.map(\.rawValue).joined(separator: "|"), .subject,
                        "the network (u2net after `veil models install u2net`)", default: d.model.rawValue,
                        choices: GenerateForegroundInstanceMaskRequest.Model.allCases.map(\.rawValue), sample: "u2netp"),
                .flag("--people", .subject, "people instead of subjects, one instance a person (found by their faces)"),
                .valued("--quality", "fast|balanced|accurate", .tuning,
                        "with --people: one model run a person; then edges refined; then mirrored runs and colour-guided edges",
                        default: GeneratePersonSegmentationRequest().qualityLevel.rawValue,
                        choices: GeneratePersonSegmentationRequest.QualityLevel.allCases.map(\.rawValue), sample: "accurate"),
                .flag("--bodies", .tuning, "with --people: also find people by their bodies (BlazePose), faces or not (off by default: it takes a swan for a person)"),
                .valued("--max-people", "N", .tuning, "with --people: only the largest N people are instances (1...255; Vision's request keeps 4)",
                        default: "every person", sample: "4"),
                .flag("--json", .output, "print the instances (label, area, box in pixels) as JSON"),
                .valued("--sides", "320,384", .tuning, "the network's input sides, their maps averaged (one to four)",
                        default: d.inputSides.map(String.init).joined(separator: ","), sample: "320,384"),
                .flag("--mirror", .tuning, "also average the map of the mirrored image"),
                .valued("--threshold", "T", .tuning, "where the map's value makes foreground (0.01...0.99)",
                        default: OptionSpec.number(d.foregroundThreshold), sample: "0.6"),
                .valued("--refine", "none|R,EPS|colour:R,EPS", .tuning, "a guided filter on the map (radius in map pixels, epsilon)",
                        default: "none", sample: "none"),
                .flag("--no-stretch", .tuning, "use the map as it comes, not min-max stretched"),
                .precision("u2netp's convolutions in 8 bits (0.54x the inference CPU, mean J 0.742 against 0.747) or in float",
                            group: .tuning),
                .threads, .jobs.with(default: "2"), .maxPixels,
            ] + BatchRun.options)
            .runs { try await run($0) }
            .examples(.init("veil lift photo.jpg", "photo-lifted.png: the subjects, the background transparent"),
                      .init("veil lift photo.jpg --tap 0.5,0.4 --crop", "the subject under the tap, cropped to it"),
                      .init("veil lift photo.jpg --effect bokeh -o bokeh.png", "the background blurred round the subject"),
                      .init("veil lift group.jpg --people --json", "each person's label, area and box"))
    }()
}
