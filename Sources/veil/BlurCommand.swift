import Foundation
import VeilKit

/// `veil blur`: cover every face of many photos, keeping re-editable state.
enum BlurCommand {
    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, valued: ["-o", "--out-dir", "--style", "--shape", "--mask-scale", "--threshold", "--jobs",
                                                 "--threads", "--quality", "--state", "--add", "--drop", "--stroke", "--max-pixels"],
                                 switches: ["--keep-metadata", "--preview", "--confirm"])
        guard !args.positionals.isEmpty else { throw UsageError("veil blur needs at least one INPUT (file or folder)") }
        if args.value("-o") != nil && args.value("--out-dir") != nil { throw UsageError("use -o or --out-dir, not both") }

        var blurrer = PhotoBlurrer()
        do {
            if let s = args.value("--style") { blurrer.style = try CoverStyle(parsing: s) }
        } catch let error as VeilError { throw UsageError(error.description) }
        if let s = args.value("--shape") {
            guard let shape = CoverRegion.Shape(rawValue: s) else { throw UsageError("--shape must be disc, ellipse or box") }
            blurrer.shape = shape
        }
        blurrer.maskScale = try args.double("--mask-scale", in: 0.1...10)
        if let t = try args.double("--threshold", in: 0...1) { blurrer.detector.confidenceThreshold = Float(t) }
        if let p = try args.int("--max-pixels", in: 1...Int(Int32.max)) { blurrer.detector.decoder.maxPixels = p }
        blurrer.quality = try args.int("--quality", in: 1...100)
        blurrer.keepMetadata = args.has("--keep-metadata")
        blurrer.writePreview = args.has("--preview")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = try args.int("--jobs", in: 1...64) ?? cores
        if let n = try args.int("--threads", in: 1...256) { blurrer.detector.computeDevice = .cpu(threads: n) }

        let edits = try parseEdits(args)
        let naming = OutputNaming(output: args.value("-o").map { URL(fileURLWithPath: $0) },
                                  outDir: args.value("--out-dir").map { URL(fileURLWithPath: $0, isDirectory: true) })
        let inputs = InputFiles.expand(args.positionals, skipping: naming.outDir)
        guard !inputs.isEmpty else { throw UsageError("no images found in \(args.positionals.joined(separator: ", "))") }
        if (naming.output != nil || args.value("--state") != nil || !edits.isEmpty) && inputs.count != 1 {
            throw UsageError("-o, --state and the editing options (--add, --drop, --stroke, --confirm) take exactly one photo")
        }
        let statePath = args.value("--state").map { URL(fileURLWithPath: $0) }

        let start = Date()
        let progress = ProgressBar(total: inputs.count, unit: "photos")
        var photos = 0, faces = 0, failures = 0
        let worker = blurrer
        try await processInOrder(inputs, jobs: jobs, work: { input -> PhotoBlurrer.Outcome in
            let out = naming.output(for: input)
            try naming.check(out, for: input)
            return try await worker.run(PhotoBlurrer.Job(input: input.url, output: out, state: statePath, edits: edits))
        }, deliver: { _, input, result in
            progress.advance()
            switch result {
            case let .success(outcome):
                photos += 1
                faces += outcome.coveredRegions
                let how = outcome.detectorRan ? "detected \(outcome.detectedFaces)" : "from saved state"
                progress.clearLine()
                print("\(input.url.path) -> \(outcome.output.path)  \(outcome.coveredRegions) covered (\(how))")
            case let .failure(error):
                failures += 1
                progress.clearLine()
                printError("veil: \(input.url.path): \(error)")
            }
        })
        progress.finish()
        print(String(format: "%d photos, %d faces covered, %d errors, %.1f s", photos, faces, failures, Date().timeIntervalSince(start)))
        return failures == 0 ? 0 : 1
    }

    static func parseEdits(_ args: Arguments) throws -> RegionEdits {
        var edits = RegionEdits(confirm: args.has("--confirm"))
        for text in args.all("--add") {
            let n = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard n.count == 4, n[2] > 0, n[3] > 0 else { throw UsageError("--add takes x,y,w,h in pixels, not '\(text)'") }
            edits.add.append(ImageRect(x: n[0], y: n[1], width: n[2], height: n[3]))
        }
        for text in args.all("--drop") {
            guard let i = Int(text), i >= 0 else { throw UsageError("--drop takes a face index, not '\(text)'") }
            edits.drop.append(i)
        }
        for text in args.all("--stroke") {
            let parts = text.split(separator: "@")
            guard parts.count == 2, let width = Double(parts[1]), width > 0 else {
                throw UsageError("--stroke takes \"x1,y1 x2,y2 ...@width\" in pixels, not '\(text)'")
            }
            let points = try parts[0].split(separator: " ").map { pair -> ImageRect.Point in
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                guard xy.count == 2 else { throw UsageError("--stroke point '\(pair)' is not x,y") }
                return ImageRect.Point(x: xy[0], y: xy[1])
            }
            guard !points.isEmpty else { throw UsageError("--stroke needs at least one point") }
            edits.strokes.append(Stroke(points: points, width: width))
        }
        return edits
    }
}
