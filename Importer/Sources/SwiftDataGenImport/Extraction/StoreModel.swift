import Foundation
import SwiftDataGenCore

#if canImport(zlib)
    import zlib
#else
    import CZlib
#endif

/// The model a store keeps of itself: Core Data (iOS 11 and later, so every SwiftData store)
/// writes the model it opened the store with into `Z_MODELCACHE`, a keyed archive compressed with
/// raw deflate. It has what SQLite lost: names' case, optionality, attribute types, each
/// relationship's destination, count and inverse, and uniqueness constraints. The archive keys
/// read here are the ones Apple-written stores have (see docs/store-inspection-evidence.md).
public struct StoreModel: Equatable, Sendable {
    public struct Entity: Equatable, Sendable {
        public var name: String
        public var superentity: String?
        public var attributes: [Attribute]
        public var relationships: [Relationship]
        /// Each uniqueness constraint's property names.
        public var uniqueness: [[String]]
    }

    public struct Attribute: Equatable, Sendable {
        public var name: String
        /// Core Data's `NSAttributeType` number (700 a string, 300 a 64-bit integer, …), kept as
        /// written, since a store may hold one `CoreDataAttributeType` has no case for.
        public var type: Int
        public var isOptional: Bool
    }

    public struct Relationship: Equatable, Sendable {
        public var name: String
        public var destination: String
        public var isToMany: Bool
        public var isOptional: Bool
        public var inverse: String?
    }

    public var entities: [Entity]

    /// The model in `Z_MODELCACHE`'s bytes, or nil where they are not a model archive.
    public init?(compressed: [UInt8]) {
        guard let inflated = Self.inflated(compressed), let archive = BinaryPropertyList.parse(inflated) else {
            return nil
        }
        self.init(archive: archive)
    }

    init?(archive: PropertyListValue) {
        guard let objects = archive["$objects"]?.array, case .uid(let rootIndex)? = archive["$top"]?["root"] else {
            return nil
        }
        func object(_ value: PropertyListValue?) -> PropertyListValue? {
            guard case .uid(let index)? = value, index > 0, index < objects.count else { return nil }
            return objects[index]
        }
        func text(_ value: PropertyListValue?) -> String? { object(value)?.string }
        // Objects are shared, but a walk that meets one member many times over does the work each
        // time: it is counted, and a model beyond the budget is not read.
        var visits = 0
        /// An archived array, set or dictionary's members (a dictionary's values).
        func members(_ value: PropertyListValue?, depth: Int = 0) -> [PropertyListValue] {
            guard depth < 4, let container = object(value) else { return [] }
            if let items = container["NS.objects"]?.array {
                visits += items.count
                return visits > ReadingBudget.archiveMembers ? [] : items.compactMap(object)
            }
            if container["values"] != nil { return members(container["values"], depth: depth + 1) }
            return []
        }
        func className(_ item: PropertyListValue) -> String? { object(item["$class"])?["$classname"]?.string }
        guard rootIndex < objects.count else { return nil }
        let root = objects[rootIndex]
        var entities: [Entity] = []
        for entity in members(root["NSEntities"]) {
            guard let name = text(entity["NSEntityName"]) else { continue }
            var attributes: [Attribute] = []
            var relationships: [Relationship] = []
            for property in members(entity["NSProperties"]) {
                guard let propertyName = text(property["NSPropertyName"]) else { continue }
                let isOptional = property["NSIsOptional"]?.int == 1
                switch className(property) {
                case "NSAttributeDescription":
                    attributes.append(
                        Attribute(
                            name: propertyName, type: property["NSAttributeType"]?.int ?? 0, isOptional: isOptional))
                case "NSRelationshipDescription":
                    guard
                        let destination = text(object(property["NSDestinationEntity"])?["NSEntityName"])
                            ?? text(property["_NSDestinationEntityName"])
                    else { continue }
                    relationships.append(
                        Relationship(
                            name: propertyName, destination: destination,
                            isToMany: (property["NSMaxCount"]?.int ?? 0) != 1, isOptional: isOptional,
                            inverse: text(property["_NSInverseRelationshipName"])
                                ?? text(object(property["NSInverseRelationship"])?["NSPropertyName"])))
                default: continue
                }
            }
            let uniqueness = members(entity["NSUniqueTuples"]).map { tuple -> [String] in
                let names = tuple["NS.objects"]?.array ?? []
                visits += names.count
                return visits > ReadingBudget.archiveMembers ? [] : names.compactMap(text)
            }.filter { !$0.isEmpty }
            entities.append(
                Entity(
                    name: name, superentity: text(object(entity["NSSuperentity"])?["NSEntityName"]),
                    attributes: attributes.sorted { $0.name < $1.name },
                    relationships: relationships.sorted { $0.name < $1.name }, uniqueness: uniqueness))
        }
        guard !entities.isEmpty, visits <= ReadingBudget.archiveMembers else { return nil }
        self.entities = entities.sorted { $0.name < $1.name }
    }

    /// Raw deflate, as Core Data writes the archive; nil for bytes that are not, or that inflate
    /// beyond `ReadingBudget.inflatedModelBytes`.
    static func inflated(_ bytes: [UInt8]) -> [UInt8]? {
        guard !bytes.isEmpty else { return nil }
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = bytes
        return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                guard output.count <= ReadingBudget.inflatedModelBytes else { return nil }
                if status == Z_STREAM_END { return output }
                guard status == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }
}

extension CoreDataAttributeType {
    /// The Swift type a history written from a store's kept model declares; a transformable or
    /// composite attribute's own type is the app's, so its bytes are written as `Data`.
    public var swiftType: String {
        switch self {
        case .integer16: return "Int16"
        case .integer32: return "Int32"
        case .integer64: return "Int"
        case .decimal: return "Decimal"
        case .double: return "Double"
        case .float: return "Float"
        case .string: return "String"
        case .boolean: return "Bool"
        case .date: return "Date"
        case .uuid: return "UUID"
        case .uri: return "URL"
        case .binaryData, .transformable, .composite, .objectID, .undefined: return "Data"
        }
    }
}
