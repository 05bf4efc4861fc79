import Foundation
import VeilKit
import VeilVocabulary

/// `veil text`: find and read the text of images, as a table or JSON.
enum TextCommand {
    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, definition)
        guard !args.positionals.isEmpty || args.value("--inputs-from") != nil else { throw InputError("veil text needs at least one IMAGE") }
        var request = try TextOptions(args).request
        if let n = try args.int("--threads", in: 1...256) { request.computeDevice = .cpu(threads: n) }
        if let p = try args.int("--max-pixels", in: 1...Int(Int32.max)) { request.decoder.maxPixels = p }
        let jobs = try args.int("--jobs", in: 1...64) ?? 1
        let json = args.flag("--json")
        let batch = try BatchRun(args, outputFolder: nil)
        let paths = try InputFiles.namedOrListed(args, batch: batch)
        let progress = ProgressBar(total: args.positionals.count, unit: "img")
        var reports: [TextReport] = []
        var failures = 0
        let req = request
        try await processInOrder(paths, jobs: jobs, work: { path -> TextReport in
            let decoded = try req.decoder.decode(.url(URL(fileURLWithPath: path)))
            return TextReport(file: path, size: decoded.image.size, lines: try await req.perform(on: decoded.image))
        }, deliver: { _, path, result in
            progress.advance()
            switch result {
            case let .success(report):
                if json { reports.append(report) } else { printTable(report) }
            case let .failure(error):
                failures += 1
                if json { reports.append(TextReport(file: path, error: "\(error)")) }
                printError("veil: \(path): \(error)")
            }
        })
        progress.finish()
        try batch.finish(named: args.positionals)
        if json { print(TextReport.document(reports).rendered) }
        return ExitCode.succeeded(failures == 0)
    }

    static func printTable(_ report: TextReport) {
        let lines = report.texts ?? []
        print("\(report.file)  \(report.width ?? 0)x\(report.height ?? 0)  \(lines.count) line\(lines.count == 1 ? "" : "s") of text")
        for (i, line) in lines.enumerated() {
            let corners = line.corners.map { String(format: "%.0f,%.0f", $0[0], $0[1]) }.joined(separator: " ")
            print(String(format: "  %3d  confidence %.3f  ", i, line.confidence) + "[\(corners)]  \(line.text)")
        }
    }
}
