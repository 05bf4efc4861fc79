import Foundation
import VeilKit

/// `veil lift`: cut the subjects out of images (transparent background), or
/// write their soft masks, or list the instances as JSON.
enum LiftCommand {
    struct Options: Sendable {
        var request = GenerateForegroundInstanceMaskRequest()
        var output: String?
        var outDir: String?
        /// Normalized, origin top-left, as a UI sends a tap.
        var tap: NormalizedPoint?
        var instances: IndexSet?
        var crop = false
        var maskOnly = false
        var json = false
        var effect: SubjectEffect = .remove
    }

    struct Lifted: Sendable {
        var size: PixelSize
        var instances: [InstanceInfo]
        var chosen: IndexSet
        var written: String?
    }

    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, valued: ["-o", "--out-dir", "--tap", "--instances", "--model", "--refine", "--threshold", "--sides", "--effect",
                                                 "--threads", "--jobs", "--max-pixels"],
                                 switches: ["--crop", "--mask-only", "--json", "--no-stretch", "--mirror"])
        let options = try parse(args)
        let paths = args.positionals
        // One image at a time by default: ONNX Runtime already uses every core
        // for one image, and a second in flight measured no faster on 2 cores
        // while its activations added about 200 MB.
        let jobs = try args.int("--jobs", in: 1...64) ?? 1
        if options.output != nil && paths.count != 1 { throw UsageError("-o takes exactly one IMAGE; use --out-dir for several") }

        let progress = ProgressBar(total: paths.count, unit: "img")
        var entries: [JSONText] = []
        var failures = 0
        try await processInOrder(paths, jobs: jobs, work: { path in
            try await lift(path, options)
        }, deliver: { _, path, result in
            progress.advance()
            switch result {
            case let .success(lifted):
                if options.json { entries.append(entry(path, lifted)) }
            case let .failure(error):
                failures += 1
                if options.json { entries.append(.object([("file", .string(path)), ("error", .string("\(error)"))])) }
                printError("veil: \(path): \(error)")
            }
        })
        progress.finish()
        if options.json { print(JSONText.object([("images", .array(entries))]).rendered) }
        return failures == 0 ? 0 : 1
    }

    static func parse(_ args: Arguments) throws -> Options {
        guard !args.positionals.isEmpty else { throw UsageError("veil lift needs at least one IMAGE") }
        var o = Options()
        o.output = args.value("-o")
        o.outDir = args.value("--out-dir")
        if o.output != nil && o.outDir != nil { throw UsageError("give -o or --out-dir, not both") }
        o.crop = args.has("--crop")
        o.maskOnly = args.has("--mask-only")
        o.json = args.has("--json")
        if let name = args.value("--model") {
            guard let model = GenerateForegroundInstanceMaskRequest.Model(rawValue: name) else {
                throw UsageError("--model must be u2netp or u2net, not '\(name)'")
            }
            o.request.model = model
        }
        if let text = args.value("--refine") { o.request.refinement = try refinement(text) }
        if args.has("--no-stretch") { o.request.stretchesMap = false }
        if let text = args.value("--sides") {
            let sides = text.split(separator: ",").compactMap { Int($0) }
            guard !sides.isEmpty, sides.allSatisfy({ (32...2048).contains($0) }) else {
                throw UsageError("--sides wants input sizes like 320,384, not '\(text)'")
            }
            o.request.inputSides = sides
        }
        if args.has("--mirror") { o.request.averagesMirroredMap = true }
        if let t = try args.double("--threshold", in: 0.01...0.99) { o.request.foregroundThreshold = t }
        if let n = try args.int("--threads", in: 1...256) { o.request.computeDevice = .cpu(threads: n) }
        if let p = try args.int("--max-pixels", in: 1...Int(Int32.max)) { o.request.decoder.maxPixels = p }
        if let text = args.value("--tap") { o.tap = try tapPoint(text) }
        if let text = args.value("--instances") {
            let labels = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !labels.isEmpty, labels.allSatisfy({ ($0 ?? 0) >= 1 }) else {
                throw UsageError("--instances wants labels like 1,3, not '\(text)'")
            }
            o.instances = IndexSet(labels.compactMap { $0 })
        }
        if o.tap != nil && o.instances != nil { throw UsageError("give --tap or --instances, not both") }
        if let text = args.value("--effect") {
            if o.maskOnly { throw UsageError("--mask-only writes the mask; it takes no --effect") }
            o.effect = try effect(text)
        }
        return o
    }

    /// `none`, or `R,EPS` for the guided filter (radius in 320x320 map pixels),
    /// `colour:R,EPS` for its colour-guided form.
    static func refinement(_ text: String) throws -> GenerateForegroundInstanceMaskRequest.Refinement {
        if text == "none" { return .none }
        let colour = text.hasPrefix("colour:")
        let parts = text.dropFirst(colour ? 7 : 0).split(separator: ",").compactMap { Double($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
            throw UsageError("--refine wants none or RADIUS,EPSILON, not '\(text)'")
        }
        return colour ? .colourGuidedFilter(radius: parts[0], epsilon: parts[1]) : .guidedFilter(radius: parts[0], epsilon: parts[1])
    }

    /// `remove`, `replace=PATH`, `color=HEX`, `highlight[=EV]` or `bokeh[=SIGMA]`.
    static func effect(_ text: String) throws -> SubjectEffect {
        let (name, value) = text.split(separator: "=", maxSplits: 1).map(String.init).splitFirst()
        switch (name, value) {
        case ("remove", nil): return .remove
        case let ("replace", path?):
            do { return .replace(background: try ImageDecoder().decode(.url(URL(fileURLWithPath: path))).image) }
            catch { throw UsageError("--effect replace: \(error)") }
        case let ("color", hex?):
            guard let rgb = RGB(hex: hex) else { throw UsageError("--effect color wants #RRGGBB, not '\(hex)'") }
            return .color(rgb)
        case ("highlight", let ev):
            guard let v = Double(ev ?? "-1.5"), v < 0, v >= -10 else { throw UsageError("--effect highlight=EV wants EV from -10 to below 0") }
            return .highlight(ev: v)
        case ("bokeh", let sigma):
            if sigma == nil { return .bokeh(sigma: nil) }
            guard let s = Double(sigma!), s > 0, s <= 500 else { throw UsageError("--effect bokeh=SIGMA wants 0 < SIGMA <= 500") }
            return .bokeh(sigma: s)
        default:
            throw UsageError("--effect must be remove, replace=PATH, color=HEX, highlight[=EV] or bokeh[=SIGMA], not '\(text)'")
        }
    }

    static func lift(_ path: String, _ o: Options) async throws -> Lifted {
        let input = URL(fileURLWithPath: path)
        let decoded = try o.request.decoder.decode(.url(input))
        let size = decoded.image.size
        let observation = try await o.request.perform(on: decoded.image)
        if observation == nil { printError("veil: \(path): no subject found") }
        let chosen = try observation.map { try choose($0, o) } ?? IndexSet()
        var written: String?
        if let target = destination(for: input, o) {
            if target.standardizedFileURL.resolvingSymlinksInPath() == input.standardizedFileURL.resolvingSymlinksInPath() {
                throw VeilError.unwritable(path: target.path, reason: "is the input; refusing to overwrite it")
            }
            try OutputNaming.makeFolder(for: target)
            let image = try result(observation, chosen: chosen, of: decoded.image, o)
            let format = o.output.flatMap { EncodedFormat(pathExtension: URL(fileURLWithPath: $0).pathExtension) } ?? .png
            if format == .jpeg, case .remove = o.effect, !o.maskOnly {
                throw VeilError.invalidArgument("a cut-out needs transparency: write PNG or WebP, not JPEG")
            }
            try ImageEncoder(format: format).write(image, to: target)
            written = target.path
        }
        return Lifted(size: size, instances: observation?.instances ?? [], chosen: chosen, written: written)
    }

    /// `--tap x,y`: a normalized point (0...1, origin top-left), as a UI sends a tap.
    static func tapPoint(_ text: String) throws -> NormalizedPoint {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], (0...1).contains(x), (0...1).contains(y) else {
            throw UsageError("--tap wants a normalized point x,y in 0...1 (origin top-left, as a UI sends it), not '\(text)'")
        }
        return NormalizedPoint(x: x, y: y)
    }

    /// The picture to write: the soft mask, or the effect round the chosen
    /// instances. No subject gives an empty mask, so a batch's outputs stay complete.
    static func result(_ observation: InstanceMaskObservation?, chosen: IndexSet, of image: VeilImage, _ o: Options) throws -> VeilImage {
        if let observation {
            return o.maskOnly
                ? try observation.generateScaledMask(for: chosen, croppedToInstancesExtent: o.crop).greyscaleImage()
                : try observation.applying(o.effect, to: chosen, croppedToInstancesExtent: o.crop)
        }
        let empty = try VeilImage.constant(RGB(0, 0, 0), size: image.size, bands: 1)
        return o.maskOnly ? empty : try o.effect.render(image, mask: empty)
    }

    /// The instances to cut out: the tapped one (all on background), the
    /// listed ones, or all.
    static func choose(_ observation: InstanceMaskObservation, _ o: Options) throws -> IndexSet {
        if let tap = o.tap {
            if let label = observation.instance(at: tap, origin: .upperLeft) { return IndexSet(integer: label) }
            return observation.allInstances
        }
        return o.instances ?? observation.allInstances
    }

    /// `-o OUT`, or NAME.png in `--out-dir`; nothing when only JSON is wanted.
    static func destination(for input: URL, _ o: Options) -> URL? {
        if let output = o.output { return URL(fileURLWithPath: output) }
        let name = input.deletingPathExtension().lastPathComponent + ".png"
        if let dir = o.outDir { return URL(fileURLWithPath: dir).appendingPathComponent(name) }
        if o.json { return nil }
        let suffix = o.maskOnly ? "-mask.png" : "-lifted.png"
        return input.deletingLastPathComponent().appendingPathComponent(input.deletingPathExtension().lastPathComponent + suffix)
    }

    static func entry(_ path: String, _ lifted: Lifted) -> JSONText {
        let instances: [JSONText] = lifted.instances.map { info in
            let b = info.boundingBox
            return .object([("label", .int(info.label)), ("area", .int(info.area)),
                            ("x", .int(b.x)), ("y", .int(b.y)), ("width", .int(b.width)), ("height", .int(b.height))])
        }
        var pairs: [(String, JSONText)] = [("file", .string(path)), ("width", .int(lifted.size.width)),
                                           ("height", .int(lifted.size.height)), ("instances", .array(instances)),
                                           ("chosen", .array(lifted.chosen.map { .int($0) }))]
        if let written = lifted.written { pairs.append(("output", .string(written))) }
        return .object(pairs)
    }
}

extension Array where Element == String {
    /// The first element and the optional second, e.g. of `name=value`.
    fileprivate func splitFirst() -> (String, String?) { (first ?? "", count > 1 ? self[1] : nil) }
}
