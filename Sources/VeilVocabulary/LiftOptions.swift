import Foundation
import VeilKit

/// What to lift and how, as `veil lift` and `POST /v1/lift` spell it, each
/// option one line: `tap` (normalized x,y, origin top-left, as a UI sends a
/// tap), `instances`, `crop`, `mask-only`, `effect`, the subject model and its
/// tuning, `people` and the person model's. Options that go together or not
/// at all are checked as a whole when the group is made into a `SubjectLift`.
public struct LiftOptions: ParsableOptions {
    /// `effect` as given: `replace` keeps the PATH it names (if any) until the
    /// caller reads a background (`SubjectLift`'s `background`).
    public enum Effect: Sendable {
        case effect(SubjectEffect)
        case replace(path: String?)
    }

    public var tap: NormalizedPoint?
    public var instances: IndexSet?
    public var crop = false
    public var maskOnly = false
    public var effect: Effect?
    public var model: GenerateForegroundInstanceMaskRequest.Model?
    /// `people`: people (found by their faces and bodies) rather than subjects, split one a person.
    public var people = false
    public var quality: GeneratePersonSegmentationRequest.QualityLevel?
    /// `faces-only`: with `people`, find people by their faces alone, not by their bodies too (BlazePose).
    public var facesOnly = false
    public var maxPeople: Int?
    public var sides: [Int]?
    public var mirror = false
    public var threshold: Double?
    public var refine: GenerateForegroundInstanceMaskRequest.Refinement?
    public var noStretch = false
    public var precision: ModelPrecision?

    public init() {}

    public static var options: [Option<Self>] {
        let subject = GenerateForegroundInstanceMaskRequest(), person = GeneratePersonSegmentationRequest()
        return [
            .parsed("tap", "x,y", \.tap, .subject, "pick the subject under this normalized point (0...1, origin top left; the background picks all)",
                    sample: "0.5,0.5") { text, option in
                let xy = try TextNumber.list(text, count: 2, in: 0...1, option: option, what: "a normalized point x,y (origin top-left, as a UI sends it)")
                return NormalizedPoint(x: xy[0], y: xy[1])
            },
            .parsed("instances", "1,3", \.instances, .subject, "pick subjects by label (see --json)", sample: "1") { text, option in
                // Labels are 8-bit (0 is the background), so 1...255.
                IndexSet(try text.split(separator: ",").map { try TextNumber.int(String($0), in: 1...255, option: option) })
            },
            .flag("crop", \.crop, .subject, "crop to the chosen subjects"),
            .flag("mask-only", \.maskOnly, .subject, "write the soft mask (8-bit grey) instead"),
            .parsed("effect", "remove|replace=PATH|color=HEX|highlight[=EV]|bokeh[=SIGMA]|bokeh-halo[=SIGMA]", \.effect, .subject,
                    "what happens round the subjects: transparent, a new background, a colour, darkened, blurred (with a white halo)",
                    default: "remove", choices: ["remove", "replace=", "color=", "highlight", "bokeh", "bokeh-halo"], sample: "bokeh=8",
                    parse: effect),
            .choice("model", \.model, .subject, "the network (u2net after `veil models install u2net`)", default: subject.model.rawValue, sample: "u2netp"),
            .flag("people", \.people, .subject, "people instead of subjects, one instance a person (found by their faces and bodies)"),
            .choice("quality", \.quality, .tuning, "with --people: one model run a person; then edges refined; then mirrored runs and colour-guided edges",
                    default: person.qualityLevel.rawValue, sample: "accurate"),
            .flag("faces-only", \.facesOnly, .tuning, "with --people: find people by their faces alone, not by their bodies (BlazePose) too"),
            .parsed("max-people", "N", \.maxPeople, .tuning, "with --people: only the largest N people are instances (1...255; Vision's request keeps 4)",
                    default: "every person", sample: "4", aliases: ["maxPeople"]) { try TextNumber.int($0, in: 1...255, option: $1) },
            .parsed("sides", "320,384", \.sides, .tuning, "the network's input sides, their maps averaged (one to four)",
                    default: subject.inputSides.map(String.init).joined(separator: ","), sample: "320,384") { text, option in
                let sides = try text.split(separator: ",").map { try TextNumber.int(String($0), in: 32...2048, option: option) }
                guard !sides.isEmpty, sides.count <= 4 else { throw InputError("\(option) wants one to four input sizes like 320,384, not '\(text)'") }
                return sides
            },
            .flag("mirror", \.mirror, .tuning, "also average the map of the mirrored image"),
            .double("threshold", "T", \.threshold, in: 0.01...0.99, .tuning, "where the map's value makes foreground (0.01...0.99)",
                    default: String(format: "%g", subject.foregroundThreshold), sample: "0.6"),
            .parsed("refine", "none|R,EPS|colour:R,EPS", \.refine, .tuning, "a guided filter on the map (radius in map pixels, epsilon)",
                    default: "none", sample: "none", parse: refinement),
            .flag("no-stretch", \.noStretch, .tuning, "use the map as it comes, not min-max stretched"),
            .choice("precision", \.precision, .tuning, "u2netp's convolutions in 8 bits (0.54x the inference CPU, mean J 0.742 against 0.747) or in float",
                    default: "int8 with AVX2 or VNNI (7-bit weights without VNNI) and on arm64, else float", sample: "float"),
        ]
    }

    /// The lift these options describe, checked as a whole (said with the
    /// options as the source spells them, `spelling`). `background` resolves
    /// `effect=replace[=PATH]` to a picture: the CLI decodes PATH, the service
    /// takes an uploaded part and refuses a path.
    public func lift(spelling: (String) -> String, background: (_ path: String?) throws -> VeilImage) throws -> SubjectLift {
        var lift = SubjectLift()
        (lift.tap, lift.instances, lift.crop, lift.maskOnly) = (tap, instances, crop, maskOnly)
        if let model { lift.request.model = model }
        if let precision { lift.request.precision = precision }
        if let refine { lift.request.refinement = refine }
        if noStretch { lift.request.stretchesMap = false }
        if let sides { lift.request.inputSides = sides }
        if mirror { lift.request.averagesMirroredMap = true }
        if let threshold { lift.request.foregroundThreshold = threshold }
        if tap != nil && instances != nil { throw InputError("give \(spelling("tap")) or \(spelling("instances")), not both") }
        if people {
            let subjectOnly = [("model", model != nil), ("sides", sides != nil), ("threshold", threshold != nil), ("refine", refine != nil),
                               ("mirror", mirror), ("no-stretch", noStretch)]
            if let first = subjectOnly.first(where: \.1) {
                throw InputError("\(spelling("people")) uses the person model; \(spelling(first.0)) tunes the subject model")
            }
            // Every person by default: a lift that silently left out the fifth of five would surprise.
            var people = GeneratePersonInstanceMaskRequest()
            people.maximumInstances = maxPeople ?? 255
            if let quality { people.segmentation.qualityLevel = quality }
            people.segmentation.findsBodies = !facesOnly
            lift.people = people
        } else if let first = [("quality", quality != nil), ("max-people", maxPeople != nil)].first(where: \.1) {
            throw InputError("\(spelling(first.0)) tunes the person model: give \(spelling("people")) too")
        } else if facesOnly {
            throw InputError("\(spelling("faces-only")) tunes how people are found: give \(spelling("people")) too")
        }
        switch effect {
        case nil: break
        case _ where maskOnly: throw InputError("\(spelling("mask-only")) writes the mask; it takes no \(spelling("effect"))")
        case let .effect(effect)?: lift.effect = effect
        case let .replace(path)?:
            do { lift.effect = .replace(background: try background(path)) } catch let error as InputError { throw error } catch {
                throw InputError("\(spelling("effect")) replace: \(error)")
            }
        }
        return lift
    }

    /// `none`, or `R,EPS` for the guided filter (radius in 320x320 map pixels),
    /// `colour:R,EPS` for its colour-guided form.
    static func refinement(_ text: String, option: String) throws -> GenerateForegroundInstanceMaskRequest.Refinement {
        if text == "none" { return .none }
        let colour = text.hasPrefix("colour:")
        let values = try TextNumber.list(text.dropFirst(colour ? 7 : 0), count: 2, in: 1e-9...1000, option: option, what: "none or RADIUS,EPSILON")
        return colour ? .colourGuidedFilter(radius: values[0], epsilon: values[1]) : .guidedFilter(radius: values[0], epsilon: values[1])
    }

    /// `remove`, `replace[=PATH]`, `color=HEX`, `highlight[=EV]`, `bokeh[=SIGMA]` (as a phone's
    /// portrait mode: no halo) or `bokeh-halo[=SIGMA]` (a white halo round the subjects).
    static func effect(_ text: String, option: String) throws -> Effect {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let name = parts.first ?? "", value = parts.count > 1 ? parts[1] : nil
        switch (name, value) {
        case ("remove", nil): return .effect(.remove)
        case ("replace", let path): return .replace(path: path)
        case let ("color", hex?):
            guard let rgb = RGB(hex: hex) else { throw InputError("\(option) color wants #RRGGBB, not '\(hex)'") }
            return .effect(.color(rgb))
        case ("highlight", let ev):
            guard let v = Double(ev ?? "-1.5"), v.isFinite, v < 0, v >= -10 else { throw InputError("\(option) highlight=EV wants EV from -10 to below 0") }
            return .effect(.highlight(ev: v))
        case ("bokeh", let sigma), ("bokeh-halo", let sigma):
            let halo: Double? = name == "bokeh" ? 0 : nil
            guard let sigma else { return .effect(.bokeh(sigma: nil, halo: halo)) }
            guard let s = Double(sigma), s.isFinite, s > 0, s <= 500 else { throw InputError("\(option) \(name)=SIGMA wants 0 < SIGMA <= 500") }
            return .effect(.bokeh(sigma: s, halo: halo))
        default:
            throw InputError("\(option) must be remove, replace=PATH, color=HEX, highlight[=EV], bokeh[=SIGMA] or bokeh-halo[=SIGMA], not '\(text)'")
        }
    }
}
