// Core Data's version hashes, byte for byte (hashes version 3): what SwiftData identifies a store
// and each stage's schema by. The recipe: docs/version-hash-recipe.md, checked against the
// Apple-computed hashes in the tests' version-hash vectors. This file needs the standard library
// only: the SwiftData stand-in compiles it too, so both compute hashes by one recipe.

/// The steps of the recipe, each over what Core Data feeds it. Bytes are concatenated with no
/// separator or length; strings are UTF-8, integers little-endian.
enum VersionHashRecipe {
    typealias Hash = [UInt8]

    /// `SHA256(name ‖ u16 flags ‖ modifier)`, flags optional 1 | transient 2 | read-only 4.
    static func property(name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> Hash {
        var hasher = SHA256()
        hasher.update(name)
        hasher.update(UInt16((isOptional ? 1 : 0) | (isTransient ? 2 : 0)))
        if let modifier { hasher.update(modifier) }
        return hasher.finalize()
    }

    /// `SHA256(property ‖ u32 type ‖ 0x01 if external storage ‖ 0x01 if preserved on deletion)`.
    static func attribute(property: Hash, type: UInt32, externalStorage: Bool, preservedOnDeletion: Bool) -> Hash {
        var hasher = SHA256()
        hasher.update(property)
        hasher.update(type)
        if externalStorage { hasher.update([1]) }
        if preservedOnDeletion { hasher.update([1]) }
        return hasher.finalize()
    }

    /// `SHA256(property ‖ destination ‖ inverse ‖ u32 max ‖ u32 min ‖ 0x01 0x00 if ordered)`; the
    /// inverse is left out where the caller passes nil (none, or the relationship itself).
    static func relationship(
        property: Hash, destination: String, inverse: String?, maxCount: Int, minCount: Int, isOrdered: Bool
    ) -> Hash {
        var hasher = SHA256()
        hasher.update(property)
        hasher.update(destination)
        if let inverse { hasher.update(inverse) }
        hasher.update(UInt32(truncatingIfNeeded: maxCount))
        hasher.update(UInt32(truncatingIfNeeded: minCount))
        if isOrdered { hasher.update([1, 0]) }
        return hasher.finalize()
    }

    /// A composite attribute: the attribute hashes of its leaf elements (nested composites already
    /// flattened by the caller), in name order. Its own name, flags and type do not enter.
    static func composite(leaves: [(name: String, hash: Hash)]) -> Hash {
        var hasher = SHA256()
        for leaf in inNameOrder(leaves, name: \.name) { hasher.update(leaf.hash) }
        return hasher.finalize()
    }

    /// `SHA256(name ‖ u8 abstract ‖ parent hash ‖ property hashes ‖ modifier ‖ constraints)`.
    /// `properties` holds every stored property, inherited ones too; constraints are joined with
    /// `.` in declared order, then sorted.
    static func entity(
        name: String, isAbstract: Bool, parent: Hash?, properties: [(name: String, hash: Hash)], modifier: String?,
        uniquenessConstraints: [[String]]
    ) -> Hash {
        var hasher = SHA256()
        hasher.update(name)
        hasher.update([isAbstract ? 1 : 0])
        if let parent { hasher.update(parent) }
        for property in inNameOrder(properties, name: \.name) { hasher.update(property.hash) }
        if let modifier { hasher.update(modifier) }
        let joined = uniquenessConstraints.map { $0.joined(separator: ".") }.sorted(by: precedes)
        for constraint in joined where !constraint.isEmpty { hasher.update(constraint) }
        return hasher.finalize()
    }

    /// `versionChecksum`: base64 of the SHA-256 of the entity hashes in entity-name order.
    static func checksum(entities: [(name: String, hash: Hash)]) -> String {
        var hasher = SHA256()
        for entity in inNameOrder(entities, name: \.name) { hasher.update(entity.hash) }
        return base64(hasher.finalize())
    }

    /// `NSString compare:` on the names Core Data sorts: UTF-16 code-unit order, which is byte
    /// order for ASCII (every vector's names; non-ASCII names are not proved). UTF-8 bytes order
    /// scalars as UTF-16 does, except a scalar from U+10000 (lead byte 0xF0 and above) against one
    /// from U+E000 to U+FFFF (lead 0xEE, 0xEF), whose surrogates sort first in UTF-16: only the first
    /// scalar that differs decides, so the bytes are compared once and that one case turned round.
    static func precedes(_ a: String, _ b: String) -> Bool {
        var (x, y) = (a, b)
        return x.withUTF8 { left in
            y.withUTF8 { right in
                let shared = min(left.count, right.count)
                var index = 0
                while index < shared && left[index] == right[index] { index += 1 }
                guard index < shared else { return left.count < right.count }
                var start = index
                while start > 0 && left[start] & 0xC0 == 0x80 { start -= 1 }
                let (leftLead, rightLead) = (left[start], right[start])
                if leftLead >= 0xF0 && (0xEE...0xEF).contains(rightLead) { return true }
                if rightLead >= 0xF0 && (0xEE...0xEF).contains(leftLead) { return false }
                return left[index] < right[index]
            }
        }
    }

    /// Items in `precedes` order, decided by each name's first eight bytes as one number wherever
    /// those differ: every entity hash sorts its properties, and comparing whole strings (moving
    /// names and hashes as it went) was a tenth of planning. Bytes from 0xEE, where UTF-16 order
    /// can differ, send the whole sort to `precedes`.
    static func inNameOrder<Item>(_ items: [Item], name: (Item) -> String) -> [Item] {
        var keys: [(prefix: UInt64, index: Int)] = []
        keys.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            var text = name(item)
            let prefix: UInt64? = text.withUTF8 { bytes in
                var prefix: UInt64 = 0
                var shift: UInt64 = 56
                for byte in bytes.prefix(8) {
                    guard byte < 0xEE else { return nil }
                    prefix |= UInt64(byte) << shift
                    shift &-= 8
                }
                return prefix
            }
            guard let prefix else { return items.sorted { precedes(name($0), name($1)) } }
            keys.append((prefix, index))
        }
        keys.sort { a, b in
            a.prefix != b.prefix ? a.prefix < b.prefix : precedes(name(items[a.index]), name(items[b.index]))
        }
        return keys.map { items[$0.index] }
    }

    static func hex(_ hash: Hash) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hash.count * 2)
        for byte in hash {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads `hex` back; nil unless it is 64 hexadecimal digits.
    static func hash(hex text: String) -> Hash? {
        let digits = Array(text.utf8)
        guard digits.count == 64 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: Hash = []
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for offset in 0..<3 {
                group <<= 8
                if offset < count { group |= UInt32(bytes[index + offset]) }
            }
            for position in 0..<4 {
                if position <= count {
                    out.append(alphabet[Int((group >> UInt32(18 - 6 * position)) & 0x3F)])
                } else {
                    out.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// SHA-256 (FIPS 180-4), streaming. The tool imports no Foundation and the stand-in has no
/// CryptoKit on Linux; the tests check it against the standard's examples. Planning hashes every
/// property of every schema, so a block is compressed in place, without allocating.
struct SHA256 {
    private typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    private var state: Words = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// The block being filled, held inline (64 bytes as eight words): a hasher allocates nothing.
    private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var used = 0
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    init() {}

    mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update($0) }
    }

    mutating func update(_ number: UInt16) {
        withUnsafeBytes(of: number.littleEndian) { update($0.bindMemory(to: UInt8.self)) }
    }

    mutating func update(_ number: UInt32) {
        withUnsafeBytes(of: number.littleEndian) { update($0.bindMemory(to: UInt8.self)) }
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update($0) }
    }

    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        length &+= UInt64(bytes.count)
        var offset = 0
        while offset < bytes.count {
            let count = min(64 - used, bytes.count - offset)
            let start = used
            withUnsafeMutableBytes(of: &block) { target in
                UnsafeMutableRawBufferPointer(rebasing: target[start..<start + count])
                    .copyMemory(
                        from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset..<offset + count])))
            }
            used += count
            offset += count
            if used == 64 {
                compress()
                used = 0
            }
        }
    }

    consuming func finalize() -> [UInt8] {
        let bits = length &* 8
        let filled = used
        withUnsafeMutableBytes(of: &block) { block in
            block[filled] = 0x80
            for index in filled + 1..<64 { block[index] = 0 }
        }
        if filled + 1 > 56 {
            compress()
            block = (0, 0, 0, 0, 0, 0, 0, 0)
        }
        withUnsafeMutableBytes(of: &block) { block in
            block.storeBytes(of: bits.bigEndian, toByteOffset: 56, as: UInt64.self)
        }
        compress()
        var out = [UInt8](repeating: 0, count: 32)
        withUnsafeBytes(of: state) { words in
            for index in 0..<8 {
                let word = words.load(fromByteOffset: 4 * index, as: UInt32.self)
                for byte in 0..<4 { out[4 * index + byte] = UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * byte)) }
            }
        }
        return out
    }

    private mutating func compress() {
        func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
        var (a, b, c, d, e, f, g, h) = state
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            withUnsafeBytes(of: block) { bytes in
                for i in 0..<16 {
                    w[i] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
                }
            }
            for i in 16..<64 {
                let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            Self.k.withUnsafeBufferPointer { k in
                for i in 0..<64 {
                    let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                    let choice = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
                    let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ majority
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                }
            }
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
            state.7 &+ h
        )
    }
}
