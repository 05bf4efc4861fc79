import Foundation
import Synchronization

/// PP-OCRv4's CTC recogniser: each line upright at 48 pixels high, as wide as
/// its aspect asks (at least 320, PaddleOCR's training width, at most
/// `maximumColumns`), lines of similar aspect batched; then greedy CTC
/// decoding: the best class per column, repeats merged, blanks dropped, the
/// confidence the mean of the kept columns' probabilities. The classes are
/// the model's own `character` metadata, with the blank first and a space last.
struct TextRecognitionNetwork: Sendable {
    let session: InferenceSession
    let characters: [String]
    static let rows = 48, minimumColumns = 320, batch = 6
    /// The widest line read, in columns (an aspect of 40): wider lines are
    /// squeezed, so one 30000-pixel strip costs what a long sign does.
    static let maximumColumns = 1920

    static func load(runtime: InferenceRuntime, device: ComputeDevice) async throws -> TextRecognitionNetwork {
        var characters: [String]?
        let session = try await runtime.session(for: .textRecognizer, device: device, inspect: { bytes in
            characters = try TextRecognitionNetwork.characterList(bytes)
        })
        // The list is read once, with the session; a session made earlier means the list is cached.
        if let characters { cache.set(characters) }
        guard let list = characters ?? cache.get() else { throw VeilError.inference("the text recogniser has no character list") }
        return TextRecognitionNetwork(session: session, characters: list)
    }

    private static let cache = CharacterCache()

    /// ModelProto.metadata_props (14): StringStringEntryProto {key = 1, value = 2}.
    static func characterList(_ model: [UInt8]) throws -> [String] {
        for field in try ProtoField.parse(model[...]) where field.number == 14 && field.wire == 2 {
            guard try field.payload.stringField(1) == "character", let value = try field.payload.stringField(2) else { continue }
            let list = value.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) }
            return ["blank"] + (list.last == "" ? Array(list.dropLast()) : list) + [" "]
        }
        throw VeilError.inference("the text recogniser has no `character` metadata")
    }

    /// The reading of each line (reading corners): text and confidence.
    func read(_ lines: [[ImageRect.Point]], crop: TextLineCrop) async throws -> [(text: String, confidence: Float)] {
        var result = [(text: String, confidence: Float)](repeating: ("", 0), count: lines.count)
        let aspects = lines.map(TextLineCrop.aspect)
        let order = lines.indices.sorted { aspects[$0] < aspects[$1] }
        let rows = Self.rows
        for start in stride(from: 0, to: order.count, by: Self.batch) {
            try Task.checkCancellation()
            let group = Array(order[start..<min(order.count, start + Self.batch)])
            let widths = group.map { min(Self.maximumColumns, max(1, Int((Double(rows) * aspects[$0]).rounded(.up)))) }
            let stride = max(Self.minimumColumns, widths.max() ?? 1)
            let each = 3 * rows * stride
            var values = [Float](repeating: 0, count: group.count * each)
            values.withUnsafeMutableBufferPointer { all in
                for (k, index) in group.enumerated() {
                    crop.sample(lines[index], rows: rows, columns: widths[k], stride: stride,
                                into: UnsafeMutableBufferPointer(rebasing: all[(k * each)..<((k + 1) * each)]))
                }
            }
            let outputs = try await session.run([Tensor(shape: [group.count, 3, rows, stride], values: values)])
            guard let name = session.outputNames.first, let probabilities = outputs[name], probabilities.shape.count == 3,
                  probabilities.shape[0] == group.count, probabilities.shape[2] == characters.count else {
                throw VeilError.inference("the text recogniser's output does not match its \(characters.count) classes")
            }
            let steps = probabilities.shape[1], classes = probabilities.shape[2]
            probabilities.values.withUnsafeBufferPointer { p in
                for (k, index) in group.enumerated() {
                    result[index] = decode(UnsafeBufferPointer(rebasing: p[(k * steps * classes)..<((k + 1) * steps * classes)]),
                                           steps: steps, classes: classes)
                }
            }
        }
        return result
    }

    /// Greedy CTC decoding of one line's `steps` x `classes` probabilities.
    func decode(_ p: UnsafeBufferPointer<Float>, steps: Int, classes: Int) -> (text: String, confidence: Float) {
        var text = "", sum: Float = 0, kept = 0, previous = -1
        for t in 0..<steps {
            var best = 0, bestP = -Float.infinity
            let row = t * classes
            for c in 0..<classes where p[row + c] > bestP { best = c; bestP = p[row + c] }
            defer { previous = best }
            guard best != 0, best != previous else { continue }
            text += characters[best]
            sum += bestP; kept += 1
        }
        return (text, kept > 0 ? sum / Float(kept) : 0)
    }
}

/// The character list, kept beside the shared session.
private final class CharacterCache: Sendable {
    private let list = Mutex<[String]?>(nil)
    func set(_ value: [String]) { list.withLock { $0 = value } }
    func get() -> [String]? { list.withLock { $0 } }
}
