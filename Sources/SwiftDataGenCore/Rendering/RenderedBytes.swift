/// Text built piece by piece as UTF-8 bytes, in a buffer that doubles as it grows and appends
/// each piece with one copy, then made a `String` once: `Array.append(contentsOf:)` paid over a
/// hundred instructions per piece in checks, and appending to a `String` over three hundred.
struct RenderedBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity {
            let grown = Swift.max(capacity * 2, count + bytes.count)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            moved.initialize(from: base, count: count)
            base.deallocate()
            base = moved
            capacity = grown
        }
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    func string() -> String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }
}
