import Foundation
import VeilKit
import VeilVocabulary

/// Options several commands share, declared once. Defaults are read from
/// the library where it keeps them, so help cannot go stale when a default
/// changes there.
extension OptionSpec {
    /// The cover group's options (`CoverOptions`), with each command's defaults.
    static var cover: OptionSpec { CoverOptions.spec(\.covered) }
    /// A photo's `--cover`: people too.
    static var photoCover: OptionSpec {
        var spec = CoverOptions.spec(\.covered).with(help: "what to cover: faces, text (signs, plates, labels: every region the text detector finds), "
                                                      + "people (whole, found by their faces), or any of them joined by commas")
        (spec.value, spec.sample) = ("faces|text|people|faces,text,people", "faces,people")
        return spec
    }
    static var textMatch: OptionSpec { CoverOptions.spec(\.textMatch) }
    static var threads: OptionSpec { PerformanceOptions.spec(\.threads) }
    static var jobs: OptionSpec { PerformanceOptions.spec(\.jobs) }
    static var maxPixels: OptionSpec { PerformanceOptions.spec(\.maxPixels) }

    static var style: OptionSpec { CoverOptions.spec(\.style) }
    static var shape: OptionSpec { CoverOptions.spec(\.shape) }
    static func maskScale(default scale: Double) -> OptionSpec { CoverOptions.spec(\.maskScale).with(default: number(scale)) }

    /// `--model` of the face detector, with the command's default.
    static func faceModel(default model: FaceModel) -> OptionSpec { CoverOptions.spec(\.model).with(default: model.rawValue) }
    /// `--precision` of a network with an 8-bit form; `what` says what runs in 8 bits and what it measured.
    static func precision(_ what: String, group: OptionGroup) -> OptionSpec {
        valued("--precision", "int8|float", group, what, default: "int8 with AVX2 or VNNI (7-bit weights without VNNI) and on arm64, else float",
               choices: ModelPrecision.allCases.map(\.rawValue), sample: "float")
    }
    static var facePrecision: OptionSpec { CoverOptions.spec(\.precision) }

    static func faceThreshold(default text: String) -> OptionSpec { CoverOptions.spec(\.threshold).with(default: text) }

    /// `1.1`, `0.08`, `1`: a default as a person writes it.
    static func number(_ value: Double) -> String { String(format: "%g", value) }
}
