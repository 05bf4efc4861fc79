extension String {
    /// The text a C call wrote into a message buffer, up to its first NUL
    /// (the shims' `char *message, size_t size` convention).
    public init(cMessage buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
