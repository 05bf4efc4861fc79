import VeilKit
import VeilVocabulary

/// What `veil video` writes besides the covered video, and which part of the
/// input it covers, each option one line: `-o`, `--out-dir`, `--json`,
/// `--preview`, `--segment`.
struct VideoRunOptions: ParsableOptions {
    var output: String?, outDir: String?, json: String?, preview: String?, segment: ShardChoice?

    static var options: [Option<Self>] {
        [
            .text("-o", "OUTPUT", \.output, .output, "the covered video (a file, or with --output-format a URL or device)", kind: .file,
                  sample: "out.mp4"),
            .outDir(\.outDir),
            .text("json", "FRAMES.jsonl", \.json, .output, "every frame's boxes as JSON Lines, written as frames come (see README)", kind: .file,
                  sample: "frames.jsonl"),
            .text("preview", "OUT.preview.mp4", \.preview, .output, "a review video: the input's frames, uncovered, with each track's box and id drawn "
                  + "(green covered, red dropped, blue added, violet text; keep it as private as the input)", kind: .file, sample: "out.preview.mp4"),
            .parsed("segment", "I/N", \.segment, .batch, "only the I-th (0-based) of N time ranges, cut at any frame; join them with `veil video join`",
                    default: "the array task from the environment, as --shard", sample: "0/2") { text, option in
                ShardChoice(shard: try ShardChoice.parse(text, option: option), origin: "\(option) \(text)")
            },
        ]
    }
}
