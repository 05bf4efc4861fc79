/// Estimates the IJG quality setting a JPEG was saved with, from its
/// luminance quantization table, so re-encoding keeps about the same quality
/// (and size) instead of a fixed one.
enum JPEGQuality {
    /// The IJG standard luminance table (any order: only its sum is used).
    private static let standardLuminance: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]

    /// The quality 1...100, or nil if `bytes` is not a JPEG with a table 0.
    static func estimate(_ bytes: [UInt8]) -> Int? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }  // scan started: no table seen
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xDB, let q = fromDQT(bytes, start: i + 4, end: min(bytes.count, i + 2 + length)) { return q }
            i += 2 + length
        }
        return nil
    }

    private static func fromDQT(_ b: [UInt8], start: Int, end: Int) -> Int? {
        var i = start
        while i < end {
            let precision = b[i] >> 4, id = b[i] & 15
            let count = 64 * (precision == 0 ? 1 : 2)
            guard i + 1 + count <= end else { return nil }
            if id == 0 {
                var sum = 0
                for k in 0..<64 {
                    sum += precision == 0 ? Int(b[i + 1 + k]) : (Int(b[i + 1 + 2 * k]) << 8 | Int(b[i + 2 + 2 * k]))
                }
                // IJG: table = std * scale / 100, scale = 5000 / q (q < 50) or 200 - 2q.
                let scale = Double(sum) * 100 / Double(standardLuminance.reduce(0, +))
                let q = scale <= 100 ? (200 - scale) / 2 : 5000 / scale
                return min(100, max(1, Int(q.rounded())))
            }
            i += 1 + count
        }
        return nil
    }
}
