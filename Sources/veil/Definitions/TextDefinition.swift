import VeilKit
import VeilVocabulary

extension TextCommand {
    static let definition = CommandSpec.imageReport(
        "text", summary: "find and read text: a table, or JSON with --json",
        details: "Prints each image's size and each line of text found: its reading, the reading's confidence and the corners of "
                 + "its quadrilateral (pixels of the upright image, origin top left, in reading order). Lines read below "
                 + "confidence \(OptionSpec.number(Double(RecognizeTextRequest().minimumConfidence))) are not listed.",
        options: [
            TextOptions.spec(\.level),
            ReportOptions.spec(\.json).with(help: "print JSON (see README: Reading and covering text) instead of a table"),
        ])
        .runs { try await run($0) }
        .examples(.init("veil text street.jpg", "each line of text: its reading, confidence and corners"),
                  .init("veil text scans/ --json --level fast > text.json", "a folder, one pass a photo, as JSON"))
}
