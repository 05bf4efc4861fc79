import Foundation
import VeilKit
import VeilVocabulary

/// `veil text`: find and read the text of images, as a table or JSON.
enum TextCommand {
    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, definition)
        let request = try ReportBatch.configure(TextOptions(args).request, args, command: "text")
        return try await ReportBatch.run(args, work: { path -> TextReport in
            let decoded = try request.decoder.decode(.url(URL(fileURLWithPath: path)))
            return TextReport(file: path, size: decoded.image.size, lines: try await request.perform(on: decoded.image))
        }, report: { $1 }, table: { if !$2 { printTable($1) } })
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
