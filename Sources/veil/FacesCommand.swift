import Foundation
import VeilKit
import VeilVocabulary

/// `veil faces`: detect faces and print them as a table or JSON.
enum FacesCommand {
    struct Found: Sendable {
        var size: PixelSize
        var faces: [FaceObservation]
        var image: VeilImage
    }

    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, definition)
        guard !args.positionals.isEmpty || args.value("--inputs-from") != nil else { throw InputError("veil faces needs at least one IMAGE") }
        var request = try FaceOptions(args).request
        if let n = try args.int("--threads", in: 1...256) { request.computeDevice = .cpu(threads: n) }
        if let p = try args.int("--max-pixels", in: 1...Int(Int32.max)) { request.decoder.maxPixels = p }
        let preview = args.value("--preview")
        if preview != nil && args.positionals.count != 1 { throw InputError("--preview takes exactly one IMAGE") }
        if let preview { _ = try OutputPath.format(preview, option: "--preview") }
        let jobs = try args.int("--jobs", in: 1...64) ?? 1
        let json = args.flag("--json")
        // Faces writes no files: a shard prints its part (no ledger; collect each task's stdout).
        let batch = try BatchRun(args, outputFolder: nil)
        let paths = try InputFiles.namedOrListed(args, batch: batch)

        let progress = ProgressBar(total: args.positionals.count, unit: "img")
        // One image alone: a bar of its detection's passes instead (as `veil blur`).
        let detecting = DetectionProgress()
        if args.positionals.count == 1 && args.value("--inputs-from") == nil { request.progressHandler = { detecting.show($0) } }
        var reports: [FacesReport] = []
        var failures = 0
        let req = request
        try await processInOrder(paths, jobs: jobs, work: { path -> Found in
            let decoded = try req.decoder.decode(.url(URL(fileURLWithPath: path)))
            let faces = try await req.perform(on: decoded.image)
            return Found(size: decoded.image.size, faces: faces, image: decoded.image)
        }, deliver: { _, path, result in
            detecting.clear()
            progress.advance()
            switch result {
            case let .success(found):
                if json { reports.append(FacesReport(file: path, size: found.size, faces: found.faces)) } else { printTable(path, found) }
                if let preview { try writePreview(found, to: preview) }
            case let .failure(error):
                failures += 1
                if json { reports.append(FacesReport(file: path, error: "\(error)")) }
                printError("veil: \(path): \(error)")
            }
        })
        progress.finish()
        try batch.finish(named: args.positionals)
        if json { print(FacesReport.document(reports).rendered) }
        return ExitCode.succeeded(failures == 0)
    }

    static func printTable(_ path: String, _ found: Found) {
        print("\(path)  \(found.size.width)x\(found.size.height)  \(found.faces.count) face\(found.faces.count == 1 ? "" : "s")")
        for (i, face) in found.faces.enumerated() {
            let r = face.boundingBox.toImageCoordinates(found.size, origin: .upperLeft)
            print(String(format: "  %3d  x %6.1f  y %6.1f  w %6.1f  h %6.1f  confidence %.3f", i, r.x, r.y, r.width, r.height, face.confidence))
        }
    }

    static func writePreview(_ found: Found, to path: String) throws {
        let size = found.size
        let marks = found.faces.map { face in
            ReviewMark(box: face.boundingBox.toImageCoordinates(size, origin: .upperLeft),
                       points: (face.landmarks?.points ?? []).map { $0.toImageCoordinates(size, origin: .upperLeft) },
                       label: String(format: "%.2f", face.confidence))
        }
        let url = URL(fileURLWithPath: path)
        let format = try EncodedFormat(outputPath: path) ?? .jpeg
        try ImageEncoder(format: format).write(ReviewMark.draw(marks, on: found.image), to: url)
    }
}
