import Foundation
import VeilKit
import VeilVocabulary

/// `veil saliency`: where the objects are (objectness) or where a viewer
/// looks (attention), as a table or JSON, and the heat map as a picture.
enum SaliencyCommand {
    enum Kind: String, CaseIterable, Sendable { case objectness, attention }

    /// Which of Vision's two requests runs: one line.
    struct Options: ParsableOptions {
        var kind: Kind?

        static var options: [Option<Self>] {
            [.choice("kind", \.kind, .detection, "Vision's two saliency requests: objects, or attention", default: Kind.objectness.rawValue, sample: "attention")]
        }
    }

    struct Found: Sendable {
        var observation: SaliencyImageObservation
    }

    static func run(_ words: [String]) async throws -> Int32 {
        let args = try Arguments(words, definition)
        let given = try Options(args)
        let kind = given.kind ?? .objectness
        let request = try ReportBatch.configure(GenerateAttentionBasedSaliencyImageRequest(), args, command: "saliency")
        let heatmap = try ReportOptions(args).heatmap
        if heatmap != nil && args.positionals.count != 1 { throw InputError("--heatmap takes exactly one IMAGE") }
        if let heatmap { _ = try OutputPath.format(heatmap, option: "--heatmap") }
        return try await ReportBatch.run(args, work: { path -> Found in
            let decoded = try request.decoder.decode(.url(URL(fileURLWithPath: path)))
            let observation = kind == .attention ? try await request.perform(on: decoded.image)
                : try await request.objectness.perform(on: decoded.image)
            return Found(observation: observation)
        }, report: { SaliencyReport(file: $0, kind: kind.rawValue, observation: $1.observation) }, table: { path, found, json in
            if !json { printTable(SaliencyReport(file: path, kind: kind.rawValue, observation: found.observation)) }
            if let heatmap {
                let format = try EncodedFormat(outputPath: heatmap) ?? .png
                let image = try found.observation.heatMapImage()
                try AtomicFile.write(try ImageEncoder(format: format).encode(image), to: URL(fileURLWithPath: heatmap))
            }
        })
    }

    static func printTable(_ report: SaliencyReport) {
        let objects = report.objects ?? []
        print("\(report.file)  \(report.width ?? 0)x\(report.height ?? 0)  \(objects.count) salient object\(objects.count == 1 ? "" : "s") (\(report.kind ?? ""))")
        for (i, o) in objects.enumerated() {
            print(String(format: "  %3d  x %6.1f  y %6.1f  w %6.1f  h %6.1f  confidence %.3f", i, o.x, o.y, o.width, o.height, o.confidence))
        }
    }
}

extension GenerateAttentionBasedSaliencyImageRequest: ReportBatch.Configurable {
    public var computeDevice: ComputeDevice {
        get { objectness.subjects.computeDevice }
        set { objectness.subjects.computeDevice = newValue }
    }
    public var decoder: ImageDecoder {
        get { objectness.subjects.decoder }
        set { objectness.subjects.decoder = newValue }
    }
}
