import Foundation
import VeilKit
import VeilVocabulary

/// `veil blur`: cover every face of many photos, keeping re-editable state.
enum BlurCommand {
    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, valued: ["-o", "--out-dir", "--style", "--shape", "--mask-scale", "--threshold", "--jobs",
                                                 "--threads", "--quality", "--state", "--add", "--drop", "--stroke", "--max-pixels"],
                                 switches: ["--keep-metadata", "--preview", "--confirm"])
        guard !args.positionals.isEmpty else { throw InputError("veil blur needs at least one INPUT (file or folder)") }
        if args.value("-o") != nil && args.value("--out-dir") != nil { throw InputError("use -o or --out-dir, not both") }
        if let o = args.value("-o") { _ = try OutputPath.format(o, option: "-o") }

        var blurrer = PhotoBlurrer()
        try CoverOptions(args, allowingFiles: true).apply(to: &blurrer)
        if let p = try args.int("--max-pixels", in: 1...Int(Int32.max)) { blurrer.detector.decoder.maxPixels = p }
        blurrer.quality = try args.int("--quality", in: 1...100)
        blurrer.keepMetadata = args.flag("--keep-metadata")
        blurrer.writePreview = args.flag("--preview")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = try args.int("--jobs", in: 1...64) ?? cores
        if let n = try args.int("--threads", in: 1...256) { blurrer.detector.computeDevice = .cpu(threads: n) }

        let edits = try RegionEdits(args)
        let naming = OutputNaming(output: args.value("-o").map { URL(fileURLWithPath: $0) },
                                  outDir: args.value("--out-dir").map { URL(fileURLWithPath: $0, isDirectory: true) })
        let inputs = InputFiles.expand(args.positionals, skipping: naming.outDir)
        guard !inputs.isEmpty else { throw InputError("no images found in \(args.positionals.joined(separator: ", "))") }
        if (naming.output != nil || args.value("--state") != nil || !edits.isEmpty) && inputs.count != 1 {
            throw InputError("-o, --state and the editing options (--add, --drop, --stroke, --confirm) take exactly one photo")
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
}
