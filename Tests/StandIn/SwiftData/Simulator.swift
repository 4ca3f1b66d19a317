// The migration simulator: a store on disk, the checksum SwiftData matches it by, and staged
// migration run the way Core Data runs it. Each rule cites the section of
// shared/reference/swiftdata-migration-evidence.md it comes from.

import Foundation

/// Marks an `@Model` property's storage as initialized; the value lives in the backing data.
public struct _StandInNoValue: Sendable {
    public init() {}
}

/// An object's values by property name, and its row number once it is stored.
public final class _StandInBacking {
    var values: [String: Any] = [:]
    var rowID: Int?
    /// The context the object was inserted into or read from.
    weak var context: ModelContext?

    public init() {}

    // The overloads Apple's `BackingData` declares for `getValue(forKey:)` and `setValue(forKey:to:)`,
    // with the same constraints: a property of any other type has none to call, and fails to
    // compile here as it does against SwiftData.
    @_disfavoredOverload public func get<T: Decodable>(_ name: String) -> T { value(name) }
    public func get<T: PersistentModel>(_ name: String) -> T { value(name) }
    public func get<T: PersistentModel>(_ name: String) -> T? { value(name) }
    public func get<T: RelationshipCollection>(_ name: String) -> T { value(name) }
    public func get<T: Decodable & RelationshipCollection>(_ name: String) -> T { value(name) }
    @_disfavoredOverload public func set<T: Encodable>(_ name: String, _ value: T) { change(name, value) }
    public func set<T: PersistentModel>(_ name: String, _ value: T) { change(name, value) }
    public func set<T: PersistentModel>(_ name: String, _ value: T?) { change(name, value as Any) }
    public func set<T: RelationshipCollection>(_ name: String, _ value: T) { change(name, value) }
    public func set<T: Encodable & RelationshipCollection>(_ name: String, _ value: T) { change(name, value) }
    /// A property stored through a value transformer, which takes any type.
    public func getTransformable<T>(_ name: String) -> T { value(name) }
    public func setTransformable<T>(_ name: String, _ value: T) { change(name, value) }

    /// A value set through the model: its context now has changes to save.
    private func change(_ name: String, _ value: Any) {
        values[name] = value
        context?.hasChanges = true
    }

    private func value<T>(_ name: String) -> T {
        if let value = values[name] { return value as! T }
        if let optional = T.self as? any ExpressibleByNilLiteral.Type { return optional.init(nilLiteral: ()) as! T }
        fatalError("the stand-in has no value for '\(name)': it was never set")
    }
}

/// A to-many relationship's value: an array of models, or an optional one.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public protocol RelationshipCollection {
    associatedtype PersistentElement: PersistentModel
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Array: RelationshipCollection where Element: PersistentModel {
    public typealias PersistentElement = Element
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Optional: RelationshipCollection where Wrapped: Sequence, Wrapped.Element: PersistentModel {
    public typealias PersistentElement = Wrapped.Element
}

public struct _StandInRelationship {
    public var deleteRule: String
    public var inverse: String?
    public var minimumModelCount: Int
    public var maximumModelCount: Int

    public init(deleteRule: String, inverse: String?, minimumModelCount: Int?, maximumModelCount: Int?) {
        self.deleteRule = deleteRule
        self.inverse = inverse
        self.minimumModelCount = minimumModelCount ?? 0
        self.maximumModelCount = maximumModelCount ?? 0
    }
}

/// A stored property as `@Model` read it.
public struct _StandInProperty {
    public var name: String
    public var type: Any.Type
    public var defaultValue: (() -> Any)?
    public var options: [String]
    public var originalName: String?
    public var hashModifier: String?
    public var relationship: _StandInRelationship?

    public init<T>(
        name: String, type: T.Type, defaultValue: (() -> T)?, options: [String], originalName: String?,
        hashModifier: String?,
        relationship: _StandInRelationship?
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue.map { make in { make() as Any } }
        self.options = options
        self.originalName = originalName
        self.hashModifier = hashModifier
        self.relationship = relationship
    }

    /// The identifier Core Data maps data by: `originalName`, else the name (evidence §1, [S1]).
    var identifier: String { originalName ?? name }

    var shape: _StandInShape { _StandInShape(type) }
}

public struct _StandInEntity {
    public var name: String
    public var properties: [_StandInProperty]
    public var unique: [[String]]
    public var indexes: [[String]]
    public var isSubclass: Bool
    /// The superentity, for a subclass: its own properties are listed, its superclass's are not.
    public var superclass: String?

    public init(
        name: String, properties: [_StandInProperty], unique: [[String]], indexes: [[String]], isSubclass: Bool,
        superclass: String? = nil
    ) {
        self.name = name
        self.properties = properties
        self.unique = unique
        self.indexes = indexes
        self.isSubclass = isSubclass
        self.superclass = superclass
    }
}

// MARK: values

/// A value as the store file holds it.
public indirect enum _StoredValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(String)
    case double(Double)
    case float(Float)
    case decimal(String)
    case string(String)
    case date(Double)
    case data(Data)
    case uuid(String)
    case url(String)
    case array([_StoredValue])
    case reference(Int)
    case references([Int])
}

/// A Swift type SwiftData stores as one attribute, with the Core Data type it is stored as.
public protocol _StandInStorable {
    static var _storageKind: String { get }
    var _stored: _StoredValue { get }
    init?(_stored: _StoredValue)
}

protocol _StandInOptional {
    static var _wrapped: Any.Type { get }
    var _unwrapped: Any? { get }
    static func _make(_ value: Any?) -> Any
}

extension Optional: _StandInOptional {
    static var _wrapped: Any.Type { Wrapped.self }
    var _unwrapped: Any? { self.map { $0 as Any } }
    static func _make(_ value: Any?) -> Any { (value.map { $0 as! Wrapped }) as Wrapped? as Any }
}

protocol _StandInSequence {
    static var _element: Any.Type { get }
    var _elements: [Any] { get }
    static func _make(_ elements: [Any]) -> Any
}

extension Array: _StandInSequence {
    static var _element: Any.Type { Element.self }
    var _elements: [Any] { map { $0 as Any } }
    static func _make(_ elements: [Any]) -> Any { elements.map { $0 as! Element } }
}

extension String: _StandInStorable {
    public static var _storageKind: String { "string" }
    public var _stored: _StoredValue { .string(self) }
    public init?(_stored: _StoredValue) {
        guard case .string(let value) = _stored else { return nil }
        self = value
    }
}

extension Bool: _StandInStorable {
    public static var _storageKind: String { "boolean" }
    public var _stored: _StoredValue { .bool(self) }
    public init?(_stored: _StoredValue) {
        guard case .bool(let value) = _stored else { return nil }
        self = value
    }
}

/// Integers: SwiftData's column widths, grouped as the generator's `AttributeStorage` groups them.
protocol _StandInInteger: _StandInStorable, FixedWidthInteger {}

extension _StandInInteger {
    public var _stored: _StoredValue { .integer(String(self)) }
    public init?(_stored: _StoredValue) {
        guard case .integer(let text) = _stored, let value = Self(text) else { return nil }
        self = value
    }
}

extension Int: _StandInInteger { public static var _storageKind: String { "integer64" } }
extension Int64: _StandInInteger { public static var _storageKind: String { "integer64" } }
extension UInt: _StandInInteger { public static var _storageKind: String { "integer64" } }
extension UInt64: _StandInInteger { public static var _storageKind: String { "integer64" } }
extension Int32: _StandInInteger { public static var _storageKind: String { "integer32" } }
extension UInt32: _StandInInteger { public static var _storageKind: String { "integer32" } }
extension Int16: _StandInInteger { public static var _storageKind: String { "integer16" } }
extension UInt16: _StandInInteger { public static var _storageKind: String { "integer16" } }
extension Int8: _StandInInteger { public static var _storageKind: String { "integer16" } }
extension UInt8: _StandInInteger { public static var _storageKind: String { "integer16" } }

extension Double: _StandInStorable {
    public static var _storageKind: String { "double" }
    public var _stored: _StoredValue { .double(self) }
    public init?(_stored: _StoredValue) {
        guard case .double(let value) = _stored else { return nil }
        self = value
    }
}

/// A 64-bit CGFloat is stored as a Double, as the generator assumes (it refuses CGFloat on watchOS).
extension CGFloat: _StandInStorable {
    public static var _storageKind: String { "double" }
    public var _stored: _StoredValue { .double(Double(self)) }
    public init?(_stored: _StoredValue) {
        guard case .double(let value) = _stored else { return nil }
        self = CGFloat(value)
    }
}

extension Float: _StandInStorable {
    public static var _storageKind: String { "float" }
    public var _stored: _StoredValue { .float(self) }
    public init?(_stored: _StoredValue) {
        guard case .float(let value) = _stored else { return nil }
        self = value
    }
}

extension Decimal: _StandInStorable {
    public static var _storageKind: String { "decimal" }
    public var _stored: _StoredValue { .decimal("\(self)") }
    public init?(_stored: _StoredValue) {
        guard case .decimal(let text) = _stored, let value = Decimal(string: text) else { return nil }
        self = value
    }
}

extension Date: _StandInStorable {
    public static var _storageKind: String { "date" }
    public var _stored: _StoredValue { .date(timeIntervalSinceReferenceDate) }
    public init?(_stored: _StoredValue) {
        guard case .date(let value) = _stored else { return nil }
        self = Date(timeIntervalSinceReferenceDate: value)
    }
}

extension Data: _StandInStorable {
    public static var _storageKind: String { "binary" }
    public var _stored: _StoredValue { .data(self) }
    public init?(_stored: _StoredValue) {
        guard case .data(let value) = _stored else { return nil }
        self = value
    }
}

extension UUID: _StandInStorable {
    public static var _storageKind: String { "uuid" }
    public var _stored: _StoredValue { .uuid(uuidString) }
    public init?(_stored: _StoredValue) {
        guard case .uuid(let text) = _stored, let value = UUID(uuidString: text) else { return nil }
        self = value
    }
}

extension URL: _StandInStorable {
    public static var _storageKind: String { "uri" }
    public var _stored: _StoredValue { .url(absoluteString) }
    public init?(_stored: _StoredValue) {
        guard case .url(let text) = _stored, let value = URL(string: text) else { return nil }
        self = value
    }
}

/// Arrays of values are one encoded attribute; how SwiftData encodes them is not documented.
extension Array: _StandInStorable where Element: _StandInStorable {
    public static var _storageKind: String { "encoded" }
    public var _stored: _StoredValue { .array(map(\._stored)) }
    public init?(_stored: _StoredValue) {
        guard case .array(let items) = _stored else { return nil }
        var result: [Element] = []
        for item in items {
            guard let value = Element(_stored: item) else { return nil }
            result.append(value)
        }
        self = result
    }
}

/// What a property's Swift type stores: an attribute of a Core Data type, or a relationship.
enum _StandInShape: Equatable {
    case attribute(kind: String, isOptional: Bool)
    case relationship(destination: String, isToMany: Bool, isOptional: Bool)
    case unsupported(String)

    init(_ type: Any.Type) {
        var base = type
        var isOptional = false
        if let optional = type as? any _StandInOptional.Type {
            base = optional._wrapped
            isOptional = true
        }
        if let model = base as? any PersistentModel.Type {
            self = .relationship(destination: String(describing: model), isToMany: false, isOptional: isOptional)
        } else if let sequence = base as? any _StandInSequence.Type,
            let model = sequence._element as? any PersistentModel.Type
        {
            self = .relationship(destination: String(describing: model), isToMany: true, isOptional: isOptional)
        } else if let storable = base as? any _StandInStorable.Type {
            self = .attribute(kind: storable._storageKind, isOptional: isOptional)
        } else if let enumeration = base as? any RawRepresentable.Type, let kind = Self.rawValueKind(enumeration) {
            // An enum stored as itself is stored as its raw value's type, as the generator assumes.
            self = .attribute(kind: kind, isOptional: isOptional)
        } else if base is any Codable.Type {
            // Any other Codable value: an array of them is encoded, a dictionary is one Binary
            // attribute (coredata-version-hash.md), a struct is a composite attribute.
            let kind =
                base is any _StandInSequence.Type
                ? "encoded" : base is any _StandInDictionary.Type ? "binary" : "composite"
            self = .attribute(kind: kind, isOptional: isOptional)
        } else {
            self = .unsupported(String(describing: type))
        }
    }

    private static func rawValueKind<T: RawRepresentable>(_ type: T.Type) -> String? {
        (T.RawValue.self as? any _StandInStorable.Type)?._storageKind
    }

    var destination: String? {
        if case .relationship(let destination, _, _) = self { return destination }
        return nil
    }

    var isOptional: Bool {
        switch self {
        case .attribute(_, let optional), .relationship(_, _, let optional): return optional
        case .unsupported: return false
        }
    }
}

enum _StandInCodec {
    /// An attribute value as the store holds it.
    static func encode(_ value: Any) -> _StoredValue {
        if let optional = value as? any _StandInOptional {
            guard let unwrapped = optional._unwrapped else { return .null }
            return encode(unwrapped)
        }
        if let storable = value as? any _StandInStorable { return storable._stored }
        if let enumeration = value as? any RawRepresentable { return encodeRawValue(of: enumeration) }
        if let codable = value as? any Encodable, let data = try? JSONEncoder().encode(codable) { return .data(data) }
        return .null
    }

    private static func decodeCodable<T: Decodable>(_ stored: _StoredValue, as type: T.Type) -> Any? {
        guard case .data(let data) = stored else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }

    private static func encodeRawValue<T: RawRepresentable>(of value: T) -> _StoredValue {
        (value.rawValue as? any _StandInStorable)?._stored ?? .null
    }

    private static func decodeRawValue<T: RawRepresentable>(_ stored: _StoredValue, as type: T.Type) -> Any? {
        guard let raw = (T.RawValue.self as? any _StandInStorable.Type)?.init(_stored: stored) as? T.RawValue else {
            return nil
        }
        return T(rawValue: raw)
    }

    /// A stored attribute value as the Swift type of a property; nil when it does not fit.
    static func decode(_ stored: _StoredValue, as type: Any.Type) -> Any? {
        if let optional = type as? any _StandInOptional.Type {
            if stored == .null { return optional._make(nil) }
            return decode(stored, as: optional._wrapped).map { optional._make($0) }
        }
        if let storable = type as? any _StandInStorable.Type { return storable.init(_stored: stored) }
        if let enumeration = type as? any RawRepresentable.Type { return decodeRawValue(stored, as: enumeration) }
        if let codable = type as? any Decodable.Type { return decodeCodable(stored, as: codable) }
        return nil
    }
}

// MARK: checksum

/// A schema's entities as the store sees them, and the version hashes and model checksum SwiftData
/// computes from them by Core Data's recipe (`VersionHashRecipe`, compiled in from the generator's
/// sources). What each Swift type is stored as is read here from the compiled classes, on its own:
/// a test over every golden holds it equal to the generator's `StoreIdentity`.
struct _StandInSchemaInfo {
    var types: [String: any PersistentModel.Type] = [:]
    var entities: [String: _StandInEntity] = [:]
    /// Entity name → version hash; and the model's `versionChecksum`.
    let hashes: [String: VersionHashRecipe.Hash]
    let checksum: String

    init(_ models: [any PersistentModel.Type]) {
        for model in models {
            let entity = model._$entity
            types[entity.name] = model
            entities[entity.name] = entity
        }
        var hashes: [String: VersionHashRecipe.Hash] = [:]
        for name in entities.keys { _ = Self.hash(of: name, in: entities, into: &hashes) }
        self.hashes = hashes
        checksum = VersionHashRecipe.checksum(entities: hashes.map { ($0.key, $0.value) })
    }

    /// One line per entity (`entity NAME HASH`) in name order, each followed by its own
    /// properties' (`  NAME HASH`) in name order, then `checksum VALUE`.
    var identityText: String {
        var lines: [String] = []
        for name in hashes.keys.sorted(by: VersionHashRecipe.precedes) {
            lines.append("entity \(name) \(VersionHashRecipe.hex(hashes[name] ?? []))")
            guard let entity = entities[name] else { continue }
            for property in entity.properties.sorted(by: { VersionHashRecipe.precedes($0.name, $1.name) }) {
                lines.append(
                    "  \(property.name) \(VersionHashRecipe.hex(Self.propertyHash(property, of: entity, in: entities)))"
                )
            }
        }
        return (lines + ["checksum \(checksum)"]).joined(separator: "\n")
    }

    private static func hash(
        of name: String, in entities: [String: _StandInEntity], into done: inout [String: VersionHashRecipe.Hash]
    ) -> VersionHashRecipe.Hash {
        if let known = done[name] { return known }
        guard let entity = entities[name] else { return [] }
        // An inherited property is its declaring entity's, inverse and all.
        var properties = entity.properties.map { ($0.name, propertyHash($0, of: entity, in: entities)) }
        var parent: VersionHashRecipe.Hash?
        if let superName = entity.superclass, entities[superName] != nil {
            parent = hash(of: superName, in: entities, into: &done)
            var ancestor = entities[superName]
            while let current = ancestor {
                properties += current.properties.map { ($0.name, propertyHash($0, of: current, in: entities)) }
                ancestor = current.superclass.flatMap { entities[$0] }
            }
        }
        let result = VersionHashRecipe.entity(
            name: name, isAbstract: false, parent: parent, properties: properties, modifier: nil,
            uniquenessConstraints: entity.unique)
        done[name] = result
        return result
    }

    /// Core Data's attribute types by the stand-in's storage kinds.
    static let attributeTypes: [String: UInt32] = [
        "integer16": 100, "integer32": 200, "integer64": 300, "decimal": 400, "double": 500, "float": 600,
        "string": 700, "boolean": 800, "date": 900, "binary": 1000, "uuid": 1100, "uri": 1200, "encoded": 1800,
    ]

    private static func propertyHash(
        _ property: _StandInProperty, of entity: _StandInEntity, in entities: [String: _StandInEntity]
    ) -> VersionHashRecipe.Hash {
        let shape = property.shape
        let base = VersionHashRecipe.property(
            name: property.name, isOptional: shape.isOptional, isTransient: false, modifier: property.hashModifier)
        switch shape {
        case .relationship(let destination, let isToMany, _):
            let r = property.relationship
            // `inverse:` is written on one side; Core Data sets it on both, and leaves out a
            // relationship that is its own inverse.
            var inverse = r?.inverse
            if inverse == nil {
                inverse =
                    entities[destination]?.properties.first {
                        $0.relationship?.inverse == property.name && $0.shape.destination == entity.name
                    }?.name
            }
            if destination == entity.name && inverse == property.name { inverse = nil }
            return VersionHashRecipe.relationship(
                property: base, destination: destination, inverse: inverse,
                maxCount: isToMany ? r?.maximumModelCount ?? 0 : 1, minCount: r?.minimumModelCount ?? 0,
                isOrdered: false)
        case .attribute(let kind, _):
            var swiftType = property.type
            if let optional = swiftType as? any _StandInOptional.Type { swiftType = optional._wrapped }
            let isEnum = swiftType is any RawRepresentable.Type && !(swiftType is any _StandInStorable.Type)
            let transformable = property.options.contains("transformable")
            if !transformable && (kind == "composite" || isEnum) {
                return VersionHashRecipe.composite(leaves: _StandInComposite.leaves(property.name, property.type))
            }
            let type = transformable ? 1800 : attributeTypes[kind] ?? 0
            return VersionHashRecipe.attribute(
                property: base, type: type, externalStorage: property.options.contains("externalStorage"),
                preservedOnDeletion: property.options.contains("preserveValueOnDeletion"))
        case .unsupported:
            return base
        }
    }
}

/// What SwiftData makes of a Codable struct or an enum stored as itself: a composite attribute
/// whose elements are found the way a decoder meets them, each optional; an enum is one element
/// named like the property; an array or dictionary inside a struct is Binary.
enum _StandInComposite {
    static func leaves(_ name: String, _ type: Any.Type) -> [(name: String, hash: VersionHashRecipe.Hash)] {
        var base = type
        if let optional = type as? any _StandInOptional.Type { base = optional._wrapped }
        func leaf(_ code: UInt32) -> [(name: String, hash: VersionHashRecipe.Hash)] {
            let property = VersionHashRecipe.property(name: name, isOptional: true, isTransient: false, modifier: nil)
            return [
                (
                    name,
                    VersionHashRecipe.attribute(
                        property: property, type: code, externalStorage: false, preservedOnDeletion: false)
                )
            ]
        }
        if base is any _StandInSequence.Type || base is any _StandInDictionary.Type { return leaf(1000) }
        if let storable = base as? any _StandInStorable.Type {
            return leaf(_StandInSchemaInfo.attributeTypes[storable._storageKind] ?? 0)
        }
        if let enumeration = base as? any RawRepresentable.Type, let kind = rawKind(enumeration) {
            return leaf(_StandInSchemaInfo.attributeTypes[kind] ?? 0)
        }
        guard let decodable = base as? any Decodable.Type else { return [] }
        let log = _StandInFieldLog()
        _ = try? decodable.init(from: _StandInFieldRecorder(log: log))
        return log.fields.flatMap { leaves($0.name, $0.type) }
    }

    private static func rawKind<T: RawRepresentable>(_ type: T.Type) -> String? {
        (T.RawValue.self as? any _StandInStorable.Type)?._storageKind
    }
}

protocol _StandInDictionary {
    static var _empty: Any { get }
}

extension Dictionary: _StandInDictionary {
    static var _empty: Any { [Key: Value]() }
}

/// The fields a type's `init(from:)` asks a decoder for, in order.
final class _StandInFieldLog {
    var fields: [(name: String, type: Any.Type)] = []
}

/// A decoder that hands every field a placeholder and writes down what was asked for.
struct _StandInFieldRecorder: Decoder {
    let log: _StandInFieldLog
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(_StandInKeyedRecorder<Key>(log: log))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            Any.self, .init(codingPath: [], debugDescription: "the stand-in records fields only"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            Any.self, .init(codingPath: [], debugDescription: "the stand-in records fields only"))
    }

    /// A value of `type` to hand back; a struct is decoded from a recorder of its own.
    static func placeholder<T: Decodable>(_ type: T.Type) throws -> T {
        if let sequence = T.self as? any _StandInSequence.Type, let empty = sequence._make([]) as? T { return empty }
        if let dictionary = T.self as? any _StandInDictionary.Type, let empty = dictionary._empty as? T { return empty }
        if let storable = T.self as? any _StandInStorable.Type {
            let candidates: [_StoredValue] = [
                .string(""), .bool(false), .integer("0"), .double(0), .float(0), .decimal("0"), .date(0),
                .data(Data()), .uuid("00000000-0000-0000-0000-000000000000"), .url("https://example.com"),
            ]
            for candidate in candidates { if let value = storable.init(_stored: candidate) as? T { return value } }
        }
        if let cases = T.self as? any CaseIterable.Type, let first = firstCase(cases) as? T { return first }
        return try T(from: _StandInFieldRecorder(log: _StandInFieldLog()))
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { C.allCases.first }
}

struct _StandInKeyedRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let log: _StandInFieldLog
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decode(type, key) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        log.fields.append((key.stringValue, T.self))
        return try _StandInFieldRecorder.placeholder(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(_StandInKeyedRecorder<NestedKey>(log: _StandInFieldLog()))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            Any.self, .init(codingPath: [], debugDescription: "the stand-in records fields only"))
    }

    func superDecoder() throws -> any Decoder { _StandInFieldRecorder(log: _StandInFieldLog()) }
    func superDecoder(forKey key: Key) throws -> any Decoder { _StandInFieldRecorder(log: _StandInFieldLog()) }
}

// MARK: the store

/// A row: its number and its values by stored property name.
struct _StandInRow: Codable, Equatable {
    var id: Int
    var values: [String: _StoredValue]
}

/// The store file: the checksum of the schema that last wrote it, and its rows by entity.
struct _StandInStoreFile: Codable {
    var checksum: String
    var rows: [String: [_StandInRow]]

    static func read(_ url: URL) throws -> _StandInStoreFile {
        try JSONDecoder().decode(_StandInStoreFile.self, from: Data(contentsOf: url))
    }

    func write(_ url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}

/// What SwiftData would report (or crash with) for a store or plan it cannot use.
public struct _StandInError: Error, CustomStringConvertible {
    /// Core Data's error code where there is one: 134504 unknown model version, 134110 a failed
    /// migration, 133021 a uniqueness conflict; 0 for an exception SwiftData raises instead.
    public let code: Int
    public let message: String

    public var description: String { "SwiftData stand-in error \(code): \(message)" }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public final class ModelContainer: @unchecked Sendable {
    public let schema: Schema
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    let info: _StandInSchemaInfo
    let url: URL?
    /// The store's rows: the file's, or an in-memory store's.
    var rows: [String: [_StandInRow]] = [:]

    public init(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: ModelConfiguration...
    ) throws {
        self.schema = schema
        self.migrationPlan = migrationPlan
        info = _StandInSchemaInfo(schema._models)
        url = configurations.first { !$0.isStoredInMemoryOnly }?.url
        try _StandInModelNames.claim(info, forTheApp: migrationPlan != nil)
        if let migrationPlan { try Self.validate(migrationPlan) }
        guard let url else { return }
        if FileManager.default.fileExists(atPath: url.path) {
            var file = try _StandInStoreFile.read(url)
            if file.checksum != info.checksum {
                guard let migrationPlan else {
                    throw _StandInError(
                        code: 134110, message: "the store was written by another model and no migration plan was given")
                }
                if _StandInEndings.isOn { try _StandInEndings.check(migrationPlan, store: url, target: info) }
                try _StandInMigrator(plan: migrationPlan, url: url).migrate(&file, to: info)
            }
            rows = file.rows
        } else {
            try _StandInStoreFile(checksum: info.checksum, rows: [:]).write(url)
        }
    }

    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan)
    }

    /// Every schema of a plan must have its own checksum — any two, checked when the container is
    /// built, even for a new or in-memory store (evidence §4, §10: iOS 26 validates at init).
    static func validate(_ plan: any SchemaMigrationPlan.Type) throws {
        var seen: [String: any VersionedSchema.Type] = [:]
        for schema in plan.schemas {
            let checksum = _StandInSchemaInfo(schema.models).checksum
            if let earlier = seen[checksum] {
                throw _StandInError(
                    code: 0,
                    message:
                        "Duplicate version checksums across stages detected: \(String(describing: earlier)) and \(String(describing: schema))"
                )
            }
            seen[checksum] = schema
        }
    }

    func persist(_ rows: [String: [_StandInRow]]) throws {
        self.rows = rows
        if let url { try _StandInStoreFile(checksum: info.checksum, rows: rows).write(url) }
    }
}

/// SwiftData binds a model's name to the first class that claims it in a process, and a class of
/// another version with that name resolves to it (evidence §13). Here a container built with a
/// migration plan, the app's own, must find each of its names bound to its own class: one that
/// finds an older version's class there fails, as a test that writes the old store first would
/// test other classes than it names. Containers without a plan (a store being written) only claim.
enum _StandInModelNames {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var bound: [String: any PersistentModel.Type] = [:]

    static func claim(_ schema: _StandInSchemaInfo, forTheApp: Bool) throws {
        lock.lock()
        defer { lock.unlock() }
        for (name, type) in schema.types.sorted(by: { $0.key < $1.key }) {
            guard let first = bound[name] else {
                bound[name] = type
                continue
            }
            if forTheApp && ObjectIdentifier(first) != ObjectIdentifier(type) {
                throw _StandInError(
                    code: 0,
                    message:
                        "the model name \(name) is bound to \(String(reflecting: first)), the first class that claimed it in this process, not to \(String(reflecting: type)); build the latest schema's container before an older one"
                )
            }
        }
    }
}

/// Runs a plan's stages over a store as Core Data's staged migration does (evidence §11): each
/// custom stage in three phases that commit on their own — `willMigrate` on a context of the source
/// schema, the schema step, which writes the destination's rows and checksum in one commit, and
/// `didMigrate` on a context of the destination — and every save in a closure committed to the file
/// as it happens. A run can be ended at any point it passes (`_StandInRunControl`).
struct _StandInMigrator {
    let plan: any SchemaMigrationPlan.Type
    let url: URL
    var control: _StandInRunControl?

    /// Finds the plan's schema the store was written by (none: 134504, evidence §2, §10), then runs
    /// every stage from there in the order given (evidence §2, [S11]); a store at a stage's
    /// destination moves on to the next stage, so a store stopped between two stages rests at the
    /// schema in between.
    func migrate(_ file: inout _StandInStoreFile, to target: _StandInSchemaInfo) throws {
        guard plan.schemas.contains(where: { _StandInSchemaInfo($0.models).checksum == file.checksum }) else {
            throw _StandInError(code: 134504, message: "Cannot use staged migration with an unknown model version.")
        }
        for (number, stage) in plan.stages.enumerated() {
            let (from, to, willMigrate, didMigrate):
                (
                    any VersionedSchema.Type, any VersionedSchema.Type, ((ModelContext) throws -> Void)?,
                    ((ModelContext) throws -> Void)?
                )
            switch stage {
            case .lightweight(let a, let b): (from, to, willMigrate, didMigrate) = (a, b, nil, nil)
            case .custom(let a, let b, let will, let did): (from, to, willMigrate, didMigrate) = (a, b, will, did)
            }
            let source = _StandInSchemaInfo(from.models)
            let destination = _StandInSchemaInfo(to.models)
            guard source.checksum == file.checksum else { continue }
            let name = "stage \(number + 1) (\(from) → \(to))"
            if let willMigrate {
                try control?.pass("\(name): before willMigrate")
                file.rows = try run(willMigrate, on: source, rows: file.rows, phase: "\(name) willMigrate")
            }
            try control?.pass("\(name): inside the schema step, before it commits")
            let mapped = try _StandInInference(source: source, destination: destination).map(file.rows)
            try control?.commit()
            file = _StandInStoreFile(checksum: destination.checksum, rows: mapped)
            try file.write(url)
            try control?.pass("\(name): after the schema step committed")
            if let didMigrate {
                file.rows = try run(didMigrate, on: destination, rows: file.rows, phase: "\(name) didMigrate")
                try control?.pass("\(name): after didMigrate")
            }
        }
        guard file.checksum == target.checksum else {
            throw _StandInError(code: 134504, message: "the plan's stages end at a schema other than the container's")
        }
    }

    /// A custom stage's closure, with a context on that stage's schema only (evidence §3, §6:
    /// the other version's types crash). Each save is committed to the store under the phase's
    /// checksum; changes the closure leaves unsaved are lost, as SwiftData is not known to save them.
    private func run(
        _ closure: (ModelContext) throws -> Void, on schema: _StandInSchemaInfo, rows: [String: [_StandInRow]],
        phase: String
    ) throws -> [String: [_StandInRow]] {
        var saved = rows
        let context = ModelContext(schema: schema, rows: rows) { [url, control] newRows in
            try control?.pass("\(phase): a save, before it commits")
            try control?.commit()
            try _StandInStoreFile(checksum: schema.checksum, rows: newRows).write(url)
            saved = newRows
            try control?.pass("\(phase): a save, after it committed")
        }
        context.runControl = control
        try closure(context)
        if let problem = context.misuse { throw problem }
        return saved
    }
}

/// The points a migration passes, and the one where a run is told to end: as a killed launch
/// (nothing is written after it) or as a closure that throws there (evidence §11). Each run
/// has its own, so tests running side by side share none; a run without one never ends early.
final class _StandInRunControl {
    enum Ending: CustomStringConvertible {
        case kill, throwing

        var description: String { self == .kill ? "killed" : "a throw" }
    }

    let endAt: (point: Int, ending: Ending)?
    private(set) var passed = 0
    private(set) var endedAt: String?
    private var killed = false

    init(endAt: (point: Int, ending: Ending)?) {
        self.endAt = endAt
    }

    /// One more point passed; the run ends here when told to.
    func pass(_ label: String) throws {
        try commit()
        passed += 1
        guard let endAt, endAt.point == passed else { return }
        endedAt = label
        switch endAt.ending {
        case .kill:
            killed = true
            throw _StandInEnded(label: label)
        case .throwing:
            throw _StandInError(code: 0, message: "the stand-in threw at \(label)")
        }
    }

    /// A killed launch writes nothing more.
    func commit() throws {
        if killed { throw _StandInEnded(label: endedAt ?? "") }
    }
}

/// A launch ended by the simulator, as the system ends an app.
struct _StandInEnded: Error {
    let label: String
}

/// Ends a migration at every point it passes, once as a kill and once as a throw, opens the store
/// again each time, and holds what the second launch leaves to what an uninterrupted run leaves
/// (evidence §11). On when `SDG_STANDIN_END_EVERYWHERE=1`; a container built then migrates
/// scratch copies first, so the store itself is migrated once, as before.
enum _StandInEndings {
    static var isOn: Bool { ProcessInfo.processInfo.environment["SDG_STANDIN_END_EVERYWHERE"] == "1" }

    static func check(_ plan: any SchemaMigrationPlan.Type, store url: URL, target: _StandInSchemaInfo) throws {
        let original = try Data(contentsOf: url)
        let scratch = url.deletingLastPathComponent().appendingPathComponent(
            ".ending-\(UUID().uuidString)-" + url.lastPathComponent)
        defer { try? FileManager.default.removeItem(at: scratch) }
        func launch(_ control: _StandInRunControl?) throws -> _StandInStoreFile {
            var file = try _StandInStoreFile.read(scratch)
            if file.checksum != target.checksum {
                try _StandInMigrator(plan: plan, url: scratch, control: control).migrate(&file, to: target)
            }
            return file
        }
        try original.write(to: scratch)
        let counter = _StandInRunControl(endAt: nil)
        let expected = canonical(try launch(counter))
        for point in stride(from: 1, through: counter.passed, by: 1) {
            for ending in [_StandInRunControl.Ending.kill, .throwing] {
                try original.write(to: scratch)
                let ended = _StandInRunControl(endAt: (point, ending))
                do {
                    _ = try launch(ended)
                } catch where ended.endedAt != nil {
                    // Ended where it was told to, as a killed or failed launch.
                }
                guard ended.endedAt != nil else {
                    throw _StandInError(code: 0, message: "a rerun passed fewer than \(point) points")
                }
                let place = "\(ending) at point \(point) of \(counter.passed), \(ended.endedAt ?? "?")"
                let again: _StandInStoreFile
                do {
                    again = try launch(nil)
                } catch {
                    throw _StandInError(
                        code: 0, message: "a migration ended (\(place)); the next launch failed: \(error)")
                }
                let found = canonical(again)
                guard found == expected else {
                    let missing = expected.filter { !found.contains($0) }.prefix(3)
                    let extra = found.filter { !expected.contains($0) }.prefix(3)
                    throw _StandInError(
                        code: 0,
                        message:
                            "a migration ended (\(place)) and run again left other rows than an uninterrupted run; "
                            + "missing \(Array(missing)), unexpected \(Array(extra))")
                }
            }
        }
        FileHandle.standardError.write(
            Data(
                "stand-in: ended the migration of \(url.lastPathComponent) at each of \(counter.passed) points, killed and by a throw; every next launch left the rows of an uninterrupted run\n"
                    .utf8))
    }

    /// The store's rows as text that row numbers do not change: each row's attributes, and each
    /// reference as the attributes of the row it points at; sorted, with the checksum first.
    static func canonical(_ file: _StandInStoreFile) -> [String] {
        var attributes: [Int: String] = [:]
        for rows in file.rows.values {
            for row in rows {
                attributes[row.id] = row.values.keys.sorted().compactMap { key -> String? in
                    switch row.values[key] {
                    case .reference?, .references?: return nil
                    case let value?: return "\(key)=\(value)"
                    case nil: return nil
                    }
                }.joined(separator: " ")
            }
        }
        var lines: [String] = []
        for (entity, rows) in file.rows {
            for row in rows {
                let references = row.values.keys.sorted().compactMap { key -> String? in
                    switch row.values[key] {
                    case .reference(let id)?: return "\(key)->[\(attributes[id] ?? "?")]"
                    case .references(let ids)?:
                        return "\(key)->[\(ids.map { attributes[$0] ?? "?" }.sorted().joined(separator: "; "))]"
                    default: return nil
                    }
                }
                lines.append(([entity + ":", attributes[row.id] ?? ""] + references).joined(separator: " "))
            }
        }
        return ["checksum \(file.checksum)"] + lines.sorted()
    }
}

/// The mapping Core Data infers between two schemas (evidence §1, §5, §6): entities by name,
/// properties by renaming identifier; a property with no source starts at its default; a type
/// change, a required value with nothing to fill it, or a uniqueness conflict fails.
struct _StandInInference {
    let source: _StandInSchemaInfo
    let destination: _StandInSchemaInfo

    func map(_ rows: [String: [_StandInRow]]) throws -> [String: [_StandInRow]] {
        var result: [String: [_StandInRow]] = [:]
        for entity in destination.entities.values.sorted(by: { $0.name < $1.name }) {
            // Subclass rows are not simulated; a store that has none maps to none.
            guard !entity.isSubclass else {
                if !(rows[entity.name] ?? []).isEmpty {
                    throw _StandInError(code: 134110, message: "\(entity.name): model inheritance is not simulated")
                }
                result[entity.name] = []
                continue
            }
            let old = source.entities[entity.name]
            // Two destination properties with one identifier would both take one column: refused here,
            // though Core Data copies silently when the types agree ([S22] testRenamingDuplicates).
            var identifiers: [String: String] = [:]
            for property in entity.properties {
                if let other = identifiers[property.identifier] {
                    throw _StandInError(
                        code: 134110,
                        message:
                            "\(entity.name).\(property.name) and \(entity.name).\(other) share the renaming identifier '\(property.identifier)'"
                    )
                }
                identifiers[property.identifier] = property.name
            }
            var mapped: [_StandInRow] = []
            for row in rows[entity.name] ?? [] {
                var values: [String: _StoredValue] = [:]
                for property in entity.properties {
                    values[property.name] = try value(of: property, in: entity, from: row, old: old)
                }
                mapped.append(_StandInRow(id: row.id, values: values))
            }
            result[entity.name] = mapped
        }
        // References to rows of entities that are gone are dropped.
        let alive = result.mapValues { Set($0.map(\.id)) }
        for (name, entityRows) in result {
            guard let entity = destination.entities[name] else { continue }
            for index in entityRows.indices {
                for property in entity.properties {
                    guard case .relationship(let target, _, _) = property.shape, let ids = alive[target] else {
                        continue
                    }
                    switch result[name]?[index].values[property.name] {
                    case .reference(let id)? where !ids.contains(id): result[name]?[index].values[property.name] = .null
                    case .references(let list)?:
                        result[name]?[index].values[property.name] = .references(list.filter(ids.contains))
                    default: break
                    }
                }
            }
            try Self.checkUniqueness(entity, rows: result[name] ?? [])
        }
        return result
    }

    private func value(
        of property: _StandInProperty, in entity: _StandInEntity, from row: _StandInRow, old: _StandInEntity?
    ) throws -> _StoredValue {
        let path = "\(entity.name).\(property.name)"
        var value: _StoredValue = .null
        if let source = old?.properties.first(where: { $0.identifier == property.identifier }) {
            value = row.values[source.name] ?? .null
            switch (source.shape, property.shape) {
            case (.attribute(let a, _), .attribute(let b, _)):
                guard a == b else {
                    throw _StandInError(
                        code: 134110,
                        message:
                            "\(path): cannot infer a mapping from \(entity.name).\(source.name) of type \(a) to \(b); a renamed or kept property must have the same type"
                    )
                }
            case (.relationship(let a, let aMany, _), .relationship(let b, let bMany, _)):
                guard a == b else {
                    throw _StandInError(code: 134110, message: "\(path): its destination changed from \(a) to \(b)")
                }
                if !aMany && bMany {
                    value =
                        value == .null
                        ? .references([])
                        : { if case .reference(let id) = value { return .references([id]) } else { return value } }()
                } else if aMany && !bMany {
                    throw _StandInError(
                        code: 134110, message: "\(path): a to-many relationship cannot be inferred as to-one")
                }
            default:
                throw _StandInError(
                    code: 134110, message: "\(path): cannot infer a mapping between an attribute and a relationship")
            }
        } else if case .relationship(_, true, _) = property.shape {
            value = .references([])
        }
        guard value == .null else { return value }
        switch property.shape {
        case .attribute(_, let isOptional):
            if let make = property.defaultValue {
                let filled = _StandInCodec.encode(make())
                if filled != .null || isOptional { return filled }
            }
            if isOptional { return .null }
            throw _StandInError(
                code: 134110,
                message: "Validation error missing attribute values on mandatory destination attribute: \(path)")
        case .relationship(_, let isToMany, let isOptional):
            if isToMany { return .references([]) }
            if isOptional { return .null }
            throw _StandInError(
                code: 134110,
                message: "Validation error missing attribute values on mandatory destination relationship: \(path)")
        case .unsupported(let type):
            throw _StandInError(code: 134110, message: "\(path): values of \(type) are not simulated")
        }
    }

    /// A uniqueness constraint the rows break fails the stage; nil keys never collide (SQLite's
    /// unique index; evidence §3).
    static func checkUniqueness(_ entity: _StandInEntity, rows: [_StandInRow]) throws {
        for group in entity.unique {
            var seen: Set<[String]> = []
            for row in rows {
                let key = group.map { row.values[$0] ?? .null }
                guard !key.contains(.null) else { continue }
                if !seen.insert(key.map { "\($0)" }).inserted {
                    throw _StandInError(
                        code: 133021,
                        message: "\(entity.name): rows repeat (\(group.joined(separator: ", "))), which must be unique")
                }
            }
        }
    }
}

// MARK: the context

/// Objects of one schema over a store's rows: insert, fetch with predicates and sorts, delete,
/// save. A save writes every object it can reach, keeps both sides of each relationship in step,
/// and checks uniqueness as the store would.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public final class ModelContext {
    private let containerReference: ModelContainer?
    let schema: _StandInSchemaInfo
    private let persist: ([String: [_StandInRow]]) throws -> Void
    private var objects: [ObjectIdentifier: any PersistentModel] = [:]
    private var order: [ObjectIdentifier] = []
    private var nextID = 1
    public private(set) var _saveCount = 0
    /// The migration run this context belongs to, which may end at the points it passes.
    var runControl: _StandInRunControl?
    /// A type from another schema used here: what SwiftData crashes with (evidence §3 [S20]).
    var misuse: _StandInError?

    public init(_ container: ModelContainer) {
        containerReference = container
        schema = container.info
        persist = { [weak container] rows in try container?.persist(rows) }
        materialize(container.rows)
    }

    init(
        schema: _StandInSchemaInfo, rows: [String: [_StandInRow]],
        persist: @escaping ([String: [_StandInRow]]) throws -> Void
    ) {
        containerReference = nil
        self.schema = schema
        self.persist = persist
        materialize(rows)
    }

    public var container: ModelContainer {
        guard let containerReference else { fatalError("a migration stage's context has no container in the stand-in") }
        return containerReference
    }

    /// Set by an insert, a delete or a value set through a model; cleared by a save.
    public internal(set) var hasChanges = false

    private func materialize(_ rows: [String: [_StandInRow]]) {
        var byID: [String: [Int: any PersistentModel]] = [:]
        var made: [(any PersistentModel, _StandInEntity, _StandInRow)] = []
        for name in rows.keys.sorted() {
            guard let type = schema.types[name], let entity = schema.entities[name] else { continue }
            for row in rows[name] ?? [] {
                let backing = _StandInBacking()
                backing.rowID = row.id
                for property in entity.properties {
                    if case .attribute = property.shape, let stored = row.values[property.name],
                        let value = _StandInCodec.decode(stored, as: property.type)
                    {
                        backing.values[property.name] = value
                    }
                }
                guard let object = type._$make(backing) as? any PersistentModel else { continue }
                byID[name, default: [:]][row.id] = object
                made.append((object, entity, row))
                track(object)
                nextID = max(nextID, row.id + 1)
            }
        }
        for (object, entity, row) in made {
            for property in entity.properties {
                guard case .relationship(let target, let isToMany, _) = property.shape else { continue }
                let related = byID[target] ?? [:]
                switch row.values[property.name] {
                case .reference(let id)?:
                    object._$backing.values[property.name] =
                        (property.type as? any _StandInOptional.Type)?._make(related[id]) ?? related[id] as Any
                case .references(let ids)?:
                    object._$backing.values[property.name] = Self.list(
                        ids.compactMap { related[$0] }, as: property.type)
                default:
                    object._$backing.values[property.name] =
                        isToMany
                        ? Self.list([], as: property.type)
                        : (property.type as? any _StandInOptional.Type)?._make(nil) as Any
                }
            }
        }
    }

    private static func list(_ objects: [Any], as type: Any.Type) -> Any {
        if let optional = type as? any _StandInOptional.Type,
            let sequence = optional._wrapped as? any _StandInSequence.Type
        {
            return optional._make(sequence._make(objects))
        }
        return (type as? any _StandInSequence.Type)?._make(objects) ?? objects
    }

    private func track(_ object: any PersistentModel) {
        let key = ObjectIdentifier(object)
        if objects[key] == nil { order.append(key) }
        objects[key] = object
        object._$backing.context = self
    }

    private func check(_ type: Any.Type) -> Bool {
        let name = String(describing: type)
        guard let known = schema.types[name], ObjectIdentifier(known) == ObjectIdentifier(type) else {
            misuse =
                misuse
                ?? _StandInError(
                    code: 0,
                    message:
                        "What kind of backing data is this? \(String(reflecting: type)) is not a model of this context's schema"
                )
            return false
        }
        return true
    }

    public func insert<T: PersistentModel>(_ model: T) {
        guard check(T.self) else { return }
        track(model)
        hasChanges = true
    }

    public func delete<T: PersistentModel>(_ model: T) {
        let key = ObjectIdentifier(model)
        objects[key] = nil
        order.removeAll { $0 == key }
        hasChanges = true
    }

    public func delete<T: PersistentModel>(
        model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true
    ) throws {
        for object in try fetch(FetchDescriptor<T>(predicate: predicate)) { delete(object) }
    }

    public func save() throws {
        if let misuse { throw misuse }
        try persist(rows())
        _saveCount += 1
        hasChanges = false
    }

    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        guard check(T.self) else { throw misuse! }
        var result = try order.compactMap { objects[$0] as? T }.filter {
            try descriptor.predicate?.evaluate($0) ?? true
        }
        if !descriptor.sortBy.isEmpty {
            result.sort { a, b in
                for sort in descriptor.sortBy {
                    switch sort.compare(a, b) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return false
            }
        }
        let offset = min(descriptor.fetchOffset ?? 0, result.count)
        result = Array(result[offset...])
        if let limit = descriptor.fetchLimit { result = Array(result.prefix(limit)) }
        return result
    }

    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        try fetch(descriptor).count
    }

    /// Identities first, then the objects in batches, as Core Data's batched fetch walks a store
    /// (docs/evidence/batched-walks.md): the stored rows that match when the walk starts, in the
    /// descriptor's order; an object inserted and not yet saved is not walked, one deleted on the
    /// way is skipped. After each batch, changes not yet saved end the walk unless
    /// `allowEscapingMutations`, as SwiftData's mutation guard does.
    public func enumerate<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (T) throws -> Void
    ) throws {
        let walk = try fetch(descriptor).filter { $0._$backing.rowID != nil }
        let size = max(batchSize, 1)
        var start = 0
        while start < walk.count {
            let end = min(start + size, walk.count)
            for object in walk[start..<end] where objects[ObjectIdentifier(object)] != nil { try block(object) }
            start = end
            try runControl?.pass("after a batch of \(T.self) walked by enumerate")
            if hasChanges && !allowEscapingMutations {
                throw _StandInError(
                    code: 0,
                    message:
                        "enumerate found unsaved changes after a batch of \(T.self); save them in the block or pass allowEscapingMutations: true"
                )
            }
        }
    }

    /// The rows of every object inserted or reachable from one, relationships on both sides.
    private func rows() throws -> [String: [_StandInRow]] {
        var all: [ObjectIdentifier: any PersistentModel] = [:]
        var pending = order.compactMap { objects[$0] }
        var ordered: [any PersistentModel] = []
        while let object = pending.popLast() {
            let key = ObjectIdentifier(object)
            guard all[key] == nil else { continue }
            guard check(type(of: object)) else { throw misuse! }
            all[key] = object
            ordered.append(object)
            pending += related(object).filter { objects[ObjectIdentifier($0)] != nil || $0._$backing.rowID == nil }
        }
        for object in ordered where object._$backing.rowID == nil {
            object._$backing.rowID = nextID
            nextID += 1
            track(object)
        }
        connectInverses(ordered)
        var result: [String: [_StandInRow]] = [:]
        for object in ordered.sorted(by: { ($0._$backing.rowID ?? 0) < ($1._$backing.rowID ?? 0) }) {
            let entity = type(of: object)._$entity
            var values: [String: _StoredValue] = [:]
            for property in entity.properties {
                let value = object._$backing.values[property.name]
                switch property.shape {
                case .relationship(_, true, _):
                    values[property.name] = .references(
                        Self.models(in: value).filter { all[ObjectIdentifier($0)] != nil }.compactMap(\._$backing.rowID)
                    )
                case .relationship:
                    let target = Self.models(in: value).first.flatMap { all[ObjectIdentifier($0)] }
                    values[property.name] = target?._$backing.rowID.map(_StoredValue.reference) ?? .null
                default:
                    values[property.name] = value.map(_StandInCodec.encode) ?? .null
                }
            }
            result[entity.name, default: []].append(_StandInRow(id: object._$backing.rowID ?? 0, values: values))
        }
        for (name, entityRows) in result {
            guard let entity = schema.entities[name] else { continue }
            try _StandInInference.checkUniqueness(entity, rows: entityRows)
        }
        return result
    }

    private func related(_ object: any PersistentModel) -> [any PersistentModel] {
        type(of: object)._$entity.properties.flatMap { property -> [any PersistentModel] in
            guard case .relationship = property.shape else { return [] }
            return Self.models(in: object._$backing.values[property.name])
        }
    }

    static func models(in value: Any?) -> [any PersistentModel] {
        guard let value else { return [] }
        if let optional = value as? any _StandInOptional { return models(in: optional._unwrapped) }
        if let model = value as? any PersistentModel { return [model] }
        if let sequence = value as? any _StandInSequence {
            return sequence._elements.compactMap { $0 as? any PersistentModel }
        }
        return []
    }

    /// SwiftData keeps both sides of a relationship with an inverse in step; so does a save here.
    private func connectInverses(_ objects: [any PersistentModel]) {
        for object in objects {
            let entity = type(of: object)._$entity
            for property in entity.properties {
                guard case .relationship(let target, _, _) = property.shape,
                    let partner = partner(of: property, in: entity, target: target)
                else { continue }
                for other in Self.models(in: object._$backing.values[property.name]) {
                    let current = Self.models(in: other._$backing.values[partner.name])
                    guard !current.contains(where: { $0 === object }) else { continue }
                    if case .relationship(_, true, _) = partner.shape {
                        other._$backing.values[partner.name] = Self.list(current + [object], as: partner.type)
                    } else if current.isEmpty {
                        other._$backing.values[partner.name] =
                            (partner.type as? any _StandInOptional.Type)?._make(object) ?? object
                    }
                }
            }
        }
    }

    private func partner(of property: _StandInProperty, in entity: _StandInEntity, target: String) -> _StandInProperty?
    {
        guard let other = schema.entities[target] else { return nil }
        if let inverse = property.relationship?.inverse { return other.properties.first { $0.name == inverse } }
        return other.properties.first { candidate in
            guard candidate.relationship?.inverse == property.name, case .relationship(let back, _, _) = candidate.shape
            else { return false }
            return back == entity.name
        }
    }
}
