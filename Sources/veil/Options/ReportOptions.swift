import VeilVocabulary

/// What `faces`, `text` and `saliency` print and draw, each option one line:
/// JSON instead of a table, and the one image's picture (faces' boxes, the heat map).
struct ReportOptions: ParsableOptions {
    var json = false, preview: String?, heatmap: String?

    static var options: [Option<Self>] {
        [
            .flag("json", \.json, .output, "print JSON (see README: Commands) instead of a table"),
            .text("preview", "OUT.png", \.preview, .output, "draw the boxes and landmarks of the one IMAGE into OUT.png (its extension picks the format)",
                  kind: .file, sample: "preview.png"),
            .text("heatmap", "OUT.png", \.heatmap, .output, "write the one IMAGE's heat map, stretched to its size (8-bit grey)",
                  kind: .file, sample: "heat.png"),
        ]
    }
}
