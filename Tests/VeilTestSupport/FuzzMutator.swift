import Foundation

/// A deterministic, seeded mutator for fuzzing our own parsers inside the
/// test suite (and, longer, from `scripts/fuzz`): the same seed gives the
/// same inputs on every machine, so a finding is a reproducible test case.
/// It does what libFuzzer's default mutators do, without coverage feedback:
/// flip bits, set interesting bytes, insert dictionary tokens, delete,
/// duplicate and splice ranges, truncate.
public struct FuzzMutator {
    private var state: UInt64
    /// Tokens the parsers care about (numbers at the edge of every type, JSON and multipart syntax).
    public var dictionary: [[UInt8]]

    public init(seed: UInt64, dictionary: [String] = []) {
        state = seed &+ 0x9e37_79b9_7f4a_7c15
        self.dictionary = (dictionary + FuzzMutator.numbers).map { Array($0.utf8) }
    }

    public static let numbers = ["1e300", "-1e300", "1e308", "1e309", "nan", "NaN", "inf", "-inf", "Infinity", "0", "-0", "-1",
                                 "9223372036854775807", "9223372036854775808", "-9223372036854775808", "4294967296",
                                 "2147483648", "5000000000", "1e15", "0.0000001", "1e-320", ",", ";", "@", " ", ""]

    /// SplitMix64.
    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    public mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

    /// `input` changed by one to four mutations.
    public mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...below(4) {
            let at = below(bytes.count + 1)
            switch below(8) {
            case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] ^= UInt8(1 << below(8))
            case 1 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] = [0, 0xff, 0x7f, 0x80, 0x22, 0x2d, 0x30, 0x7b][below(8)]
            case 2, 3: bytes.insert(contentsOf: dictionary[below(dictionary.count)], at: at)
            case 4 where !bytes.isEmpty:
                let end = min(bytes.count, at + 1 + below(16))
                if at < end { bytes.removeSubrange(at..<end) }
            case 5 where !bytes.isEmpty:
                let start = below(bytes.count), end = min(bytes.count, start + 1 + below(64))
                bytes.insert(contentsOf: bytes[start..<end], at: at)
            case 6 where !bytes.isEmpty: bytes.removeLast(below(min(bytes.count, 64)) + 1)
            default:
                // Replace a number in the text by a dictionary token: where numbers become numbers.
                if let digit = bytes.indices.dropFirst(at).first(where: { (0x30...0x39).contains(bytes[$0]) }) {
                    var end = digit
                    while end < bytes.count, (0x30...0x39).contains(bytes[end]) || bytes[end] == 0x2e || bytes[end] == 0x65 { end += 1 }
                    bytes.replaceSubrange(digit..<end, with: dictionary[below(dictionary.count)])
                }
            }
        }
        return bytes
    }

    /// Runs `body` on `iterations` mutants of the seeds (each mutant built on
    /// a seed or on an earlier mutant) and returns executions per second.
    /// `body` must not crash; it may throw (an error is a refusal, which is fine).
    @discardableResult
    public mutating func run(seeds: [[UInt8]], iterations: Int, _ body: ([UInt8]) -> Void) -> Double {
        precondition(!seeds.isEmpty)
        var pool = seeds
        let start = Date()
        for seed in seeds { body(seed) }
        for _ in 0..<iterations {
            let mutant = mutate(pool[below(pool.count)])
            body(mutant)
            if pool.count < 256 { pool.append(mutant) } else { pool[below(pool.count)] = mutant }
        }
        return Double(iterations + seeds.count) / max(Date().timeIntervalSince(start), 1e-9)
    }

    /// Iterations for an in-suite run: `VEIL_FUZZ_ITERATIONS` (scripts/fuzz sets it high) or `base`.
    public static func iterations(_ base: Int) -> Int {
        ProcessInfo.processInfo.environment["VEIL_FUZZ_ITERATIONS"].flatMap(Int.init) ?? base
    }

    /// The seed for an in-suite run: `VEIL_FUZZ_SEED` or a fixed one.
    public static var seed: UInt64 {
        ProcessInfo.processInfo.environment["VEIL_FUZZ_SEED"].flatMap { UInt64($0) } ?? 12
    }

    /// Prints a line `scripts/fuzz` collects: target, executions, executions/s.
    public static func report(_ target: String, iterations: Int, rate: Double) {
        print(String(format: "fuzz %@: %d executions, %.0f exec/s, 0 findings", target, iterations, rate))
    }
}
