/// FNV-1a, 64 bits: store-identity digests and lock-file fingerprints. Fast and stable across
/// processes; not a defence against someone who means to forge a value.
struct Digest {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Adds a text; `separated: false` adds its bytes alone, as lock fingerprints always have.
    mutating func add(_ text: String, separated: Bool = true) {
        if separated { add(byte: 0xFF) }
        for byte in text.utf8 { add(byte: byte) }
    }

    mutating func add(_ number: UInt64) {
        add(byte: 0xFE)
        var rest = number
        for _ in 0..<8 {
            add(byte: UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    private mutating func add(byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x0000_0100_0000_01B3
    }
}
