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
        var request = try ReportBatch.configure(FaceOptions(args).request, args, command: "faces")
        let preview = try ReportOptions(args).preview
        if preview != nil && args.positionals.count != 1 { throw InputError("--preview takes exactly one IMAGE") }
        if let preview { _ = try OutputPath.format(preview, option: "--preview") }
        // One image alone: a bar of its detection's passes instead (as `veil blur`).
        let detecting = DetectionProgress()
        if InputSelection(args).isOne { request.progressHandler = { detecting.show($0) } }
        let req = request
        return try await ReportBatch.run(args, before: { detecting.clear() }, work: { path -> Found in
            let decoded = try req.decoder.decode(.url(URL(fileURLWithPath: path)))
            let faces = try await req.perform(on: decoded.image)
            return Found(size: decoded.image.size, faces: faces, image: decoded.image)
        }, report: { FacesReport(file: $0, size: $1.size, faces: $1.faces) }, table: { path, found, json in
            if !json { printTable(path, found) }
            if let preview { try writePreview(found, to: preview) }
        })
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
        try ImageEncoder(format: format).write(ReviewMark.draw(marks, on: found.image), to: url, ownerOnly: true)
        printError("veil faces: preview \(path): the faces are NOT covered in it (mode 0600); do not publish it")
    }
}
