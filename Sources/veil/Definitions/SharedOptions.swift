import Foundation
import VeilKit

/// Options several commands share, declared once. Defaults are read from
/// the library where it keeps them, so help cannot go stale when a default
/// changes there.
extension OptionSpec {
    /// `-o`: the one input's output (batch commands: the alternative to --out-dir).
    static func output(_ value: String, _ help: String, sample: String) -> OptionSpec {
        valued("-o", value, .output, help, kind: .file, sample: sample, alternative: "output")
    }
    static let outDir = valued("--out-dir", "DIR", .output, "write every output under DIR, keeping the inputs' folder layout",
                               kind: .directory, sample: "out", alternative: "output")
    static let cover = valued("--cover", "faces|text|faces,text", .detection,
                              "what to cover: faces, text (signs, plates, labels: every region the text detector finds) or both",
                              default: "faces", sample: "faces,text")
    /// A photo's `--cover`: people too.
    static let photoCover = valued("--cover", "faces|text|people|faces,text,people", .detection,
                                   "what to cover: faces, text (signs, plates, labels: every region the text detector finds), "
                                   + "people (whole, found by their faces), or any of them joined by commas",
                                   default: "faces", sample: "faces,people")
    static let textMatch = valued("--text-match", "REGEX|plates|emails|phones", .detection,
                                  "cover only text whose reading matches (case-insensitive; implies text in --cover); plates, emails, phones: see README",
                                  sample: "plates")
    static let threads = valued("--threads", "N", .performance, "ONNX Runtime's threads for one image", default: "the cores", sample: "2")
    static let jobs = valued("--jobs", "N", .performance, "inputs in flight at once (memory grows with each)", sample: "2")
    static let maxPixels = valued("--max-pixels", "N", .limits, "refuse an image of more than N pixels, from its header, before decoding",
                                  default: "\(ImageDecoder().maxPixels)", sample: "50000000")

    static let style = valued("--style", "pixelate[=S]|blur[=S]|solid[=#RRGGBB[AA]]|image=PATH", .cover,
                              "how a face is covered: pixels of (longest side / 60) x S, a blur of (face / 6) x S, a colour, or a picture",
                              default: CoverStyle.default.spelling, choices: ["pixelate", "blur", "solid", "image="], sample: "blur=2")
    static let shape = valued("--shape", "disc|ellipse|box", .cover, "the soft mask round each face", default: CoverRegion.Shape.disc.rawValue,
                              choices: CoverRegion.Shape.allCases.map(\.rawValue), sample: "ellipse")
    static func maskScale(default scale: Double) -> OptionSpec {
        valued("--mask-scale", "K", .cover, "the masks' size, times the face's", default: number(scale), sample: "1.2")
    }

    /// `--model` of the face detector, with the command's default.
    static func faceModel(default model: FaceModel) -> OptionSpec {
        valued("--model", FaceModel.allCases.map(\.rawValue).joined(separator: "|"), .detection,
               "the detector; without --threshold it runs at its own privacy threshold (scores are not on one scale)",
               default: model.rawValue, choices: FaceModel.allCases.map(\.rawValue), sample: "retinaface")
    }
    /// `--precision` of a network with an 8-bit form; `what` says what runs in 8 bits and what it measured.
    static func precision(_ what: String, group: OptionGroup) -> OptionSpec {
        valued("--precision", "int8|float", group, what, default: "int8 with AVX2 or VNNI (7-bit weights without VNNI) and on arm64, else float",
               choices: ModelPrecision.allCases.map(\.rawValue), sample: "float")
    }
    static let facePrecision = precision("CenterFace in 8 bits (half the network's time, the same recall) or in float; RetinaFace is always float",
                                          group: .detection)

    /// `--tile-scale`: how much the small faces' passes are upsampled (video's
    /// tiles, a photo's finer passes round its small sightings).
    static func tileScale(_ what: String, default scale: Double) -> OptionSpec {
        valued("--tile-scale", "S", .detection, what + " (1...4)", default: number(scale), sample: "2")
    }

    static func faceThreshold(default text: String) -> OptionSpec {
        valued("--threshold", "T", .detection, "keep faces scoring at least T (0...1)", default: text, sample: "0.3")
    }

    /// `1.1`, `0.08`, `1`: a default as a person writes it.
    static func number(_ value: Double) -> String { String(format: "%g", value) }
}
