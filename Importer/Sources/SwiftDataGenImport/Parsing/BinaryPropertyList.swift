import Foundation

/// A value of a binary property list (`bplist00`), with the keyed archiver's object references
/// (`uid`) kept: Foundation reads those into a type it does not expose on Linux, and the model a
/// store keeps is a keyed archive.
public indirect enum PropertyListValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case real(Double)
    case date(Double)
    case data([UInt8])
    case string(String)
    case uid(Int)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    public subscript(key: String) -> PropertyListValue? {
        if case .dictionary(let entries) = self { return entries[key] }
        return nil
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var int: Int? {
        switch self {
        case .int(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        default: return nil
        }
    }

    public var array: [PropertyListValue]? {
        if case .array(let items) = self { return items }
        return nil
    }
}

/// Reads `bplist00` bytes: the trailer names the offset table, each object is a marker byte and
/// its payload, and containers refer to objects by index. Every offset and count is checked
/// against the data, and nesting is bounded, so damaged or hostile bytes end in `nil`. Each object
/// is decoded once and shared by every reference to it, so what is held grows with the input, not
/// with how often an object is referred to (`ReadingBudget`).
public enum BinaryPropertyList {

    public static func parse(_ bytes: [UInt8]) -> PropertyListValue? {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard let count = number(bytes, at: trailer + 8, size: 8), let top = number(bytes, at: trailer + 16, size: 8),
            let table = number(bytes, at: trailer + 24, size: 8), (1...8).contains(offsetSize),
            (1...8).contains(referenceSize), count > 0, count <= bytes.count, top < count,
            table < trailer, count <= (trailer - table) / offsetSize
        else { return nil }
        let reader = Reader(
            bytes: bytes, count: count, table: table, offsetSize: offsetSize, referenceSize: referenceSize)
        return reader.object(top, depth: 0)
    }

    static func number(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size >= 1, size <= 8, offset + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    final class Reader {
        /// Objects decoded so far, by index, with how deep their containers nest: a reference to
        /// one of them shares its value, if it fits under the depth limit where it stands.
        var decoded: [Int: (value: PropertyListValue, height: Int)] = [:]
        /// The nesting of the object `decode` is reading, as it finishes.
        private var height = 0
        let bytes: [UInt8]
        let count: Int
        let table: Int
        let offsetSize: Int
        let referenceSize: Int

        init(bytes: [UInt8], count: Int, table: Int, offsetSize: Int, referenceSize: Int) {
            self.bytes = bytes
            self.count = count
            self.table = table
            self.offsetSize = offsetSize
            self.referenceSize = referenceSize
        }

        func object(_ index: Int, depth: Int) -> PropertyListValue? {
            if let known = decoded[index] {
                guard depth + known.height < ReadingBudget.propertyListDepth else { return nil }
                height = known.height
                return known.value
            }
            height = 0
            guard let value = decode(index, depth: depth) else { return nil }
            decoded[index] = (value, height)
            return value
        }

        /// Reads a container's members, noting the deepest.
        private func members(_ indexes: [Int], depth: Int) -> [PropertyListValue]? {
            var values: [PropertyListValue] = []
            values.reserveCapacity(indexes.count)
            var deepest = 0
            for index in indexes {
                guard let value = object(index, depth: depth + 1) else { return nil }
                deepest = max(deepest, height)
                values.append(value)
            }
            height = deepest + 1
            return values
        }

        private func decode(_ index: Int, depth: Int) -> PropertyListValue? {
            guard index >= 0, index < count, depth < ReadingBudget.propertyListDepth,
                let start = BinaryPropertyList.number(bytes, at: table + index * offsetSize, size: offsetSize),
                start < bytes.count
            else { return nil }
            let marker = bytes[start]
            let low = Int(marker & 0x0F)
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: return nil
                }
            case 0x1:
                let size = 1 << low
                guard size <= 8, let value = BinaryPropertyList.number(bytes, at: start + 1, size: size) else {
                    return nil
                }
                return .int(value)
            case 0x2, 0x3:
                let size = marker >> 4 == 0x3 ? 8 : 1 << low
                guard size == 4 || size == 8, let bits = BinaryPropertyList.number(bytes, at: start + 1, size: size)
                else { return nil }
                let value = size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: UInt64(bits))
                return marker >> 4 == 0x3 ? .date(value) : .real(value)
            case 0x4:
                guard let (length, at) = self.length(low, after: start), at + length <= bytes.count else { return nil }
                return .data(Array(bytes[at..<at + length]))
            case 0x5:
                guard let (length, at) = self.length(low, after: start), at + length <= bytes.count else { return nil }
                return .string(String(decoding: bytes[at..<at + length], as: UTF8.self))
            case 0x6:
                guard let (length, at) = self.length(low, after: start), length <= bytes.count / 2,
                    at + 2 * length <= bytes.count
                else { return nil }
                let units = (0..<length).map { UInt16(bytes[at + 2 * $0]) << 8 | UInt16(bytes[at + 2 * $0 + 1]) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                guard let value = BinaryPropertyList.number(bytes, at: start + 1, size: low + 1) else { return nil }
                return .uid(value)
            case 0xA:
                guard let (length, at) = self.length(low, after: start), let items = references(length, at: at),
                    let values = members(items, depth: depth)
                else { return nil }
                return .array(values)
            case 0xD:
                guard let (length, at) = self.length(low, after: start), let keys = references(length, at: at),
                    let values = references(length, at: at + length * referenceSize)
                else { return nil }
                guard let names = members(keys, depth: depth), let items = members(values, depth: depth) else {
                    return nil
                }
                var entries: [String: PropertyListValue] = [:]
                for (key, item) in zip(names, items) {
                    guard let name = key.string else { return nil }
                    entries[name] = item
                }
                return .dictionary(entries)
            default: return nil
            }
        }

        /// A container's or a string's length: in the marker, or an integer object after it.
        func length(_ low: Int, after start: Int) -> (Int, Int)? {
            guard low == 0x0F else { return (low, start + 1) }
            guard start + 1 < bytes.count, bytes[start + 1] >> 4 == 0x1 else { return nil }
            let size = 1 << Int(bytes[start + 1] & 0x0F)
            guard size <= 8, let length = BinaryPropertyList.number(bytes, at: start + 2, size: size),
                length <= bytes.count
            else { return nil }
            return (length, start + 2 + size)
        }

        func references(_ length: Int, at offset: Int) -> [Int]? {
            guard length <= bytes.count, offset + length * referenceSize <= bytes.count else { return nil }
            var items: [Int] = []
            for index in 0..<length {
                guard
                    let item = BinaryPropertyList.number(bytes, at: offset + index * referenceSize, size: referenceSize)
                else { return nil }
                items.append(item)
            }
            return items
        }
    }
}
