/// A fixed list of names from the code (Swift's keywords, the reserved names), asked about every
/// name of every version. It hashes a name's bytes with FNV-1a: Swift's seeded `Set<String>` hash
/// cost more than the rest of each check. Only for lists written in the source, never for names
/// from input: input does not get to choose what collides here.
public struct NameSet: Sendable, ExpressibleByArrayLiteral {
    /// Every member, for names that are not ASCII: `String` compares those by canonical
    /// equivalence, which a hash of bytes does not see.
    public let members: Set<String>
    private let names: [String]
    /// Open addressing: index + 1 into `names`, 0 for an empty slot; at most half full.
    private let slots: [Int32]
    private let allASCII: Bool

    public init(_ members: Set<String>) {
        self.members = members
        names = members.sorted()
        allASCII = members.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
        var capacity = 8
        while capacity < names.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: 0, count: capacity)
        for (index, name) in names.enumerated() {
            var slot = Self.hash(name).value & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(index + 1)
        }
        self.slots = slots
    }

    public init(arrayLiteral elements: String...) { self.init(Set(elements)) }

    public func contains(_ name: String) -> Bool {
        let (hash, isASCII) = Self.hash(name)
        guard isASCII && allASCII else { return members.contains(name) }
        let mask = slots.count - 1
        var slot = hash & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return false }
            if names[entry - 1] == name { return true }
            slot = (slot + 1) & mask
        }
    }

    private static func hash(_ name: String) -> (value: Int, isASCII: Bool) {
        // Over the bytes in place: walking the UTF-8 view took a dozen instructions a byte.
        var name = name
        return name.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var high: UInt8 = 0
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                high |= byte
            }
            return (Int(truncatingIfNeeded: hash ^ hash >> 32), high < 0x80)
        }
    }
}
