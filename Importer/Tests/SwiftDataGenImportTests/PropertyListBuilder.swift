import Foundation

/// A `bplist00` built object by object, so a test can make one object shared by many references;
/// references are two bytes, offsets eight.
struct PropertyListBuilder {
    var objects: [[UInt8]] = []

    mutating func add(_ bytes: [UInt8]) -> Int {
        objects.append(bytes)
        return objects.count - 1
    }

    static func header(_ kind: UInt8, _ count: Int) -> [UInt8] {
        if count < 15 { return [kind << 4 | UInt8(count)] }
        return [kind << 4 | 0x0F, 0x13] + withUnsafeBytes(of: UInt64(count).bigEndian, Array.init)
    }

    static func reference(_ index: Int) -> [UInt8] { [UInt8(index >> 8), UInt8(index & 0xFF)] }

    mutating func data(_ bytes: [UInt8]) -> Int { add(Self.header(0x4, bytes.count) + bytes) }
    mutating func string(_ text: String) -> Int { add(Self.header(0x5, text.utf8.count) + Array(text.utf8)) }
    mutating func integer(_ value: Int) -> Int {
        add([0x13] + withUnsafeBytes(of: UInt64(value).bigEndian, Array.init))
    }
    mutating func real(_ value: Double) -> Int {
        add([0x23] + withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init))
    }
    mutating func uid(_ index: Int) -> Int { add([0x81] + Self.reference(index)) }
    mutating func array(_ items: [Int]) -> Int {
        add(Self.header(0xA, items.count) + items.flatMap(Self.reference))
    }
    mutating func dictionary(_ entries: [(Int, Int)]) -> Int {
        add(
            Self.header(0xD, entries.count) + entries.map(\.0).flatMap(Self.reference)
                + entries.map(\.1).flatMap(Self.reference))
    }

    func bytes(top: Int) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(out.count)
            out += object
        }
        let table = out.count
        for offset in offsets { out += withUnsafeBytes(of: UInt64(offset).bigEndian, Array.init) }
        out += [0, 0, 0, 0, 0, 0, 8, 2]
        for value in [objects.count, top, table] { out += withUnsafeBytes(of: UInt64(value).bigEndian, Array.init) }
        return out
    }
}
