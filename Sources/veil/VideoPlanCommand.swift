import Foundation
import VeilKit
import VeilVocabulary

/// `veil video plan INPUT --segments N | --seconds S [--json]`: the time
/// ranges `--segment I/N` would cut, for scripts that build their own arrays.
enum VideoPlanCommand {
    static let definition = CommandSpec(
        path: ["video", "plan"], arguments: "INPUT",
        summary: "print the time ranges --segment I/N cuts INPUT into (at any frame, wherever the keyframes are)",
        details: ["One line a segment: its index, first and end time in seconds (end excluded; the last runs to the end). "
                  + "Give the count (--segments N) or the length (--seconds S)."],
        options: [Options.spec(\.segments).alternative("plan"), Options.spec(\.seconds).alternative("plan"), Options.spec(\.json)])
        .runs { try run($0) }
        .examples(.init("veil video plan cam7.mp4 --segments 16", "the 16 time ranges `--segment I/16` cuts cam7.mp4 into"))

    static func run(_ words: [String]) throws -> Int32 {
        let args = try Arguments(words, definition)
        guard args.positionals.count == 1 else { throw InputError("veil video plan takes one INPUT file") }
        let input = args.positionals[0]
        let given = try Options(args)
        let (count, seconds) = (given.segments, given.seconds)
        guard (count == nil) != (seconds == nil) else { throw InputError("veil video plan takes --segments N or --seconds S") }
        let plan: [VideoSegment]
        do { plan = try seconds.map { try VideoSegments.plan(input, seconds: $0) } ?? VideoSegments.plan(input, count: count!) }
        catch let VeilError.invalidInput(error) { throw error }
        func time(_ t: Int64?, _ unit: Double) -> Double? { t.map { Double($0) * unit } }
        if given.json {
            print(JSONText.array(plan.map { s in
                .object([("index", .int(s.index)), ("start", time(s.start, s.unit).map(JSONText.number) ?? .null),
                         ("end", time(s.end, s.unit).map(JSONText.number) ?? .null)])
            }).rendered)
            return 0
        }
        for s in plan {
            let start = time(s.start, s.unit).map { String(format: "%.3f", $0) } ?? "start", end = time(s.end, s.unit).map { String(format: "%.3f", $0) } ?? "end"
            print("\(s.index)/\(s.count)  \(start)  \(end)")
        }
        return 0
    }
}

extension VideoPlanCommand {
    /// How the plan is cut and printed: each option one line.
    struct Options: ParsableOptions {
        var segments: Int?, seconds: Double?, json = false

        static var options: [Option<Self>] {
            [
                .int("segments", "N", \.segments, in: 1...100_000, .batch, "this many segments", sample: "4"),
                .double("seconds", "S", \.seconds, in: 0.04...1e7, .batch, "segments about S seconds long", sample: "10"),
                .flag("json", \.json, .output, "a JSON array of {index, start, end} (seconds; null: the clip's own start or end)"),
            ]
        }
    }
}
