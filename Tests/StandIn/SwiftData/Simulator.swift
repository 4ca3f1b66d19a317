// The migration simulator's values and identity: what each Swift type stores, how a value is kept,
// and the entity hashes and checksum SwiftData matches a store by. The store is in Store.swift, the
// context in Context.swift, the container and staged migration in Migration.swift. Each rule cites
// the heading of docs/store-evidence.md or docs/version-hash-recipe.md it comes from.

import Foundation

/// Marks an `@Model` property's storage as initialized; the value lives in the backing data.
public struct _StandInNoValue: Sendable {
    public init() {}
}

/// An object's values by property name, and its row's key once it is stored.
public final class _StandInBacking {
    var values: [String: Any] = [:]
    var rowID: Int?
    /// The context the object was inserted into or read from, the object itself, and its entity.
    weak var context: ModelContext?
    weak var object: AnyObject?
    var entityName: String?
    /// Names set since the object was last saved.
    var changed: Set<String> = []
    /// The key of each to-one's related row as read (nil where the row holds none), until the
    /// relationship is first used; a name with no entry was not read.
    var references: [String: Int?] = [:]
    /// Collects the stored names read while set: which stored property a key path reads.
    var readNames: [String]?

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
        changed.insert(name)
        context?.noteChange(self)
    }

    private func value<T>(_ name: String) -> T {
        readNames?.append(name)
        if values[name] == nil, let context { context.fault(self, name) }
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
    public let type: Any.Type
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
        let shape = _StandInShape(type)
        // `.codable` keeps the value's encoding in one Binary attribute, as the generator reads it.
        if options.contains("codable"), case .attribute(_, let isOptional) = shape {
            self.shape = .attribute(kind: "binary", isOptional: isOptional)
        } else {
            self.shape = shape
        }
    }

    /// The identifier Core Data maps data by: `originalName`, else the name
    /// (docs/store-evidence.md, "Renaming identifiers").
    var identifier: String { originalName ?? name }

    /// What the type stores, worked out once: it takes dynamic casts, and every row asks.
    let shape: _StandInShape
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

/// SwiftData stores a CGFloat as a Float attribute (docs/version-hash-recipe.md: an app's hash
/// shows Float 600), so a value keeps a Float's precision in the store.
extension CGFloat: _StandInStorable {
    public static var _storageKind: String { "float" }
    public var _stored: _StoredValue { .float(Float(self)) }
    public init?(_stored: _StoredValue) {
        guard case .float(let value) = _stored else { return nil }
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
            // attribute (docs/version-hash-recipe.md), a struct is a composite attribute.
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

    /// The relationship SwiftData pairs `property` with though neither declares an inverse, by
    /// the generator's rule (`UndeclaredInversePairing`, compiled in): each the other's only
    /// candidate, read from what the compiled class declares.
    private static func pairedByItself(
        _ property: _StandInProperty, of entity: _StandInEntity, in entities: [String: _StandInEntity]
    ) -> String? {
        func undeclared(_ candidate: _StandInProperty, of owner: _StandInEntity) -> Bool {
            guard candidate.relationship?.inverse == nil, let target = candidate.shape.destination else { return false }
            // Not the inverse some relationship of its destination declares.
            return !(entities[target]?.properties.contains { $0.relationship?.inverse == candidate.name } ?? false)
        }
        func candidates(of side: _StandInProperty, in owner: _StandInEntity) -> [_StandInProperty] {
            guard let target = side.shape.destination, let other = entities[target] else { return [] }
            return other.properties.filter {
                $0.shape.destination == owner.name && undeclared($0, of: other)
                    && !($0.name == side.name && other.name == owner.name)
            }
        }
        guard undeclared(property, of: entity), let target = property.shape.destination, let other = entities[target]
        else { return nil }
        let mine = candidates(of: property, in: entity)
        guard mine.count == 1, let partner = mine.first,
            candidates(of: partner, in: other).map(\.name) == [property.name]
        else { return nil }
        func end(_ side: _StandInProperty) -> UndeclaredInversePairing.End {
            let toMany: Bool
            if case .relationship(_, let many, _) = side.shape { toMany = many } else { toMany = false }
            let counted =
                (side.relationship?.minimumModelCount ?? 0) != 0 || (side.relationship?.maximumModelCount ?? 0) != 0
            return .init(
                isToMany: toMany, isOptional: side.shape.isOptional, isAnnotated: side.relationship != nil,
                hasInitialValue: side.defaultValue != nil, isCounted: counted)
        }
        return UndeclaredInversePairing(end(property), end(partner)) == .paired ? partner.name : nil
    }

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
            if inverse == nil { inverse = pairedByItself(property, of: entity, in: entities) }
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
        // An enum's decoder asks for one case at a time: each case is decoded once, and the values
        // of all of them are the composite's leaves (a nested composite per case, which the hash
        // flattens).
        var fields: [(name: String, type: Any.Type)] = []
        var index = 0
        repeat {
            let log = _StandInFieldLog(caseIndex: index)
            _ = try? decodable.init(from: _StandInFieldRecorder(log: log))
            fields += log.fields
            index += 1
            guard let count = log.caseCount, index < count else { break }
        } while true
        return fields.flatMap { leaves($0.name, $0.type) }
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

/// The fields a type's `init(from:)` asks a decoder for, in order; for an enum, those of the case
/// at `caseIndex` of its coding keys, and how many cases there are.
final class _StandInFieldLog {
    var fields: [(name: String, type: Any.Type)] = []
    let caseIndex: Int
    var caseCount: Int?

    init(caseIndex: Int = 0) { self.caseIndex = caseIndex }
}

/// The cases of an enum's synthesized coding keys, built from Swift's type metadata: a coding-key
/// enum has no payloads, so its cases are its tags, counted in its nominal type descriptor.
enum _StandInCodingKeys {
    static func key<Key: CodingKey>(_ type: Key.Type, at index: Int) -> (key: Key?, count: Int) {
        let metadata = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
        // MetadataKind.enum; the descriptor: flags, parent, name, access function, fields, then the
        // payload cases and the empty cases (32 bits each).
        guard metadata.load(as: UInt.self) == 0x201, MemoryLayout<Key>.size <= 1 else { return (nil, 0) }
        let descriptor = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
        let payloadCases = descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF
        let count = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
        guard payloadCases == 0, index < count, count <= 256 else { return (nil, payloadCases == 0 ? count : 0) }
        let tag = UInt8(index)
        return (withUnsafeBytes(of: tag) { $0.load(as: Key.self) }, count)
    }
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
        // An enum without payloads that lists no cases (`enum Area: String, Codable`): its first
        // case is the zero tag, so the struct holding it goes on to its other fields.
        if T.self is any RawRepresentable.Type, MemoryLayout<T>.size <= 1, _isPOD(T.self) {
            let zero: UInt8 = 0
            return withUnsafeBytes(of: zero) { $0.load(as: T.self) }
        }
        return try T(from: _StandInFieldRecorder(log: _StandInFieldLog()))
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { C.allCases.first }
}

struct _StandInKeyedRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let log: _StandInFieldLog
    var codingPath: [any CodingKey] { [] }
    /// One key, the case being recorded, as an enum's decoder wants.
    var allKeys: [Key] {
        let (key, count) = _StandInCodingKeys.key(Key.self, at: log.caseIndex)
        log.caseCount = count
        return key.map { [$0] } ?? []
    }

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

    /// An enum case's associated values, recorded as fields of the enum.
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(_StandInKeyedRecorder<NestedKey>(log: log))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            Any.self, .init(codingPath: [], debugDescription: "the stand-in records fields only"))
    }

    func superDecoder() throws -> any Decoder { _StandInFieldRecorder(log: _StandInFieldLog()) }
    func superDecoder(forKey key: Key) throws -> any Decoder { _StandInFieldRecorder(log: _StandInFieldLog()) }
}
