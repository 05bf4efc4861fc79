import Foundation
import VeilKit

/// What to lift and how, as `veil lift` and `POST /v1/lift` spell it: `tap`
/// (normalized x,y, origin top-left, as a UI sends a tap), `instances`,
/// `effect`, `crop`, `mask-only`, and the model's tuning options.
public struct LiftOptions: Sendable {
    public var request = GenerateForegroundInstanceMaskRequest()
    public var tap: NormalizedPoint?
    public var instances: IndexSet?
    public var crop = false
    public var maskOnly = false
    public var effect: SubjectEffect = .remove
    /// `people`: people (found by their faces) rather than subjects, split one a person.
    public var people: GeneratePersonInstanceMaskRequest?

    /// `background` resolves `effect=replace[=PATH]` to a picture: the CLI
    /// decodes PATH, the service takes an uploaded part and refuses a path.
    public init(_ source: some OptionSource, background: (_ path: String?) throws -> VeilImage) throws {
        crop = source.flag("crop")
        maskOnly = source.flag("mask-only")
        if let name = source.value("model") {
            guard let model = GenerateForegroundInstanceMaskRequest.Model(rawValue: name) else {
                throw InputError("\(source.spelling("model")) must be u2netp or u2net, not '\(name)'")
            }
            request.model = model
        }
        if let precision = try FaceOptions.precision(source) { request.precision = precision }
        if let text = source.value("refine") { request.refinement = try Self.refinement(text, option: source.spelling("refine")) }
        if source.flag("no-stretch") { request.stretchesMap = false }
        if let text = source.value("sides") {
            request.inputSides = try text.split(separator: ",").map {
                try TextNumber.int(String($0), in: 32...2048, option: source.spelling("sides"))
            }
            guard !request.inputSides.isEmpty, request.inputSides.count <= 4 else {
                throw InputError("\(source.spelling("sides")) wants one to four input sizes like 320,384, not '\(text)'")
            }
        }
        if source.flag("mirror") { request.averagesMirroredMap = true }
        if let t = try source.double("threshold", in: 0.01...0.99) { request.foregroundThreshold = t }
        if let text = source.value("tap") {
            let xy = try TextNumber.list(text, count: 2, in: 0...1, option: source.spelling("tap"),
                                         what: "a normalized point x,y (origin top-left, as a UI sends it)")
            tap = NormalizedPoint(x: xy[0], y: xy[1])
        }
        if let text = source.value("instances") {
            // Labels are 8-bit (0 is the background), so 1...255.
            instances = IndexSet(try text.split(separator: ",").map {
                try TextNumber.int(String($0), in: 1...255, option: source.spelling("instances"))
            })
        }
        if tap != nil && instances != nil {
            throw InputError("give \(source.spelling("tap")) or \(source.spelling("instances")), not both")
        }
        if source.flag("people") {
            let subjectOnly = ["model", "sides", "threshold", "refine"].filter { source.value($0) != nil }
                + ["mirror", "no-stretch"].filter { source.flag($0) }
            if let first = subjectOnly.first {
                throw InputError("\(source.spelling("people")) uses the person model; \(source.spelling(first)) tunes the subject model")
            }
            // Every person by default: a lift that silently left out the fifth of five would surprise.
            var people = GeneratePersonInstanceMaskRequest()
            people.maximumInstances = 255
            if let level = try source.choice("quality", of: GeneratePersonSegmentationRequest.QualityLevel.self) {
                people.segmentation.qualityLevel = level
            }
            people.segmentation.findsBodies = source.declares("bodies") && source.flag("bodies")
            if let text = source.value(["max-people", "maxPeople"]) {
                people.maximumInstances = try TextNumber.int(text, in: 1...255, option: source.spelling("max-people"))
            }
            self.people = people
        } else if let first = ["quality", "max-people", "maxPeople"].first(where: { source.declares($0) && source.value($0) != nil }) {
            throw InputError("\(source.spelling(first)) tunes the person model: give \(source.spelling("people")) too")
        } else if source.declares("bodies") && source.flag("bodies") {
            throw InputError("\(source.spelling("bodies")) finds people: give \(source.spelling("people")) too")
        }
        if let text = source.value("effect") {
            if maskOnly { throw InputError("\(source.spelling("mask-only")) writes the mask; it takes no \(source.spelling("effect"))") }
            effect = try Self.effect(text, option: source.spelling("effect"), background: background)
        }
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
    static func effect(_ text: String, option: String, background: (String?) throws -> VeilImage) throws -> SubjectEffect {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let name = parts.first ?? "", value = parts.count > 1 ? parts[1] : nil
        switch (name, value) {
        case ("remove", nil): return .remove
        case ("replace", let path):
            do { return .replace(background: try background(path)) } catch let error as InputError { throw error } catch {
                throw InputError("\(option) replace: \(error)")
            }
        case let ("color", hex?):
            guard let rgb = RGB(hex: hex) else { throw InputError("\(option) color wants #RRGGBB, not '\(hex)'") }
            return .color(rgb)
        case ("highlight", let ev):
            guard let v = Double(ev ?? "-1.5"), v.isFinite, v < 0, v >= -10 else { throw InputError("\(option) highlight=EV wants EV from -10 to below 0") }
            return .highlight(ev: v)
        case ("bokeh", let sigma), ("bokeh-halo", let sigma):
            let halo: Double? = name == "bokeh" ? 0 : nil
            guard let sigma else { return .bokeh(sigma: nil, halo: halo) }
            guard let s = Double(sigma), s.isFinite, s > 0, s <= 500 else { throw InputError("\(option) \(name)=SIGMA wants 0 < SIGMA <= 500") }
            return .bokeh(sigma: s, halo: halo)
        default:
            throw InputError("\(option) must be remove, replace=PATH, color=HEX, highlight[=EV], bokeh[=SIGMA] or bokeh-halo[=SIGMA], not '\(text)'")
        }
    }

    /// The subjects of `image` (upright), or its people with `people`; nil when there are none.
    public func perform(on image: VeilImage) async throws -> InstanceMaskObservation? {
        guard var people else { return try await request.perform(on: image) }
        people.segmentation.computeDevice = request.computeDevice
        people.segmentation.home = request.home
        return try await people.perform(on: image)
    }

    /// What an image without any has none of, for the one-line notice.
    public var lifted: String { people == nil ? "subject" : "person" }

    /// The instances to cut out: the tapped one (all on background), the
    /// listed ones that exist, or all.
    public func choose(_ observation: InstanceMaskObservation) -> IndexSet {
        if let tap {
            if let label = observation.instance(at: tap, origin: .upperLeft) { return IndexSet(integer: label) }
            return observation.allInstances
        }
        return instances ?? observation.allInstances
    }

    /// The picture to write: the soft mask, or the effect round the chosen
    /// instances. No subject gives an empty mask, so a batch's outputs stay complete.
    public func render(_ observation: InstanceMaskObservation?, chosen: IndexSet, of image: VeilImage) throws -> VeilImage {
        if let observation {
            return maskOnly
                ? try observation.generateScaledMask(for: chosen, croppedToInstancesExtent: crop).greyscaleImage()
                : try observation.applying(effect, to: chosen, croppedToInstancesExtent: crop)
        }
        let empty = try VeilImage.constant(RGB(0, 0, 0), size: image.size, bands: 1)
        return maskOnly ? empty : try effect.render(image, mask: empty)
    }
}
