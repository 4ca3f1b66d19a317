import SwiftDataGenDSL

/// An entity as Core Data holds it (`NSEntityDescription`): its own properties, not inherited ones.
public struct CoreDataEntity: Sendable, Hashable {
    public var name: String
    public var parent: String?
    public var isAbstract: Bool
    public var properties: [CoreDataProperty]
    /// Each constraint's property names in declared order; `@Attribute(.unique)` and `#Unique` alike.
    public var uniquenessConstraints: [[String]]
    public var hashModifier: String?

    public init(
        name: String, parent: String? = nil, isAbstract: Bool = false, properties: [CoreDataProperty],
        uniquenessConstraints: [[String]] = [], hashModifier: String? = nil
    ) {
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.properties = properties
        self.uniquenessConstraints = uniquenessConstraints
        self.hashModifier = hashModifier
    }

    public func property(named name: String) -> CoreDataProperty? { properties.first { $0.name == name } }

    /// What SwiftData builds from a generated `@Model` class. SwiftData sets no entity modifier
    /// and makes no entity abstract.
    init(_ model: ModelDecl, in version: SchemaVersion, naming: NamingConfig) {
        // A loop, not a closure: capturing the schema, the model and the naming in a `map` copied
        // all three for every property.
        var properties: [CoreDataProperty] = []
        properties.reserveCapacity(model.properties.count)
        for index in model.properties.indices where model.properties[index].isStored {
            properties.append(CoreDataProperty(model.properties[index], of: model, in: version, naming: naming))
        }
        self.init(
            name: model.name, parent: model.superclass, properties: properties,
            uniquenessConstraints: SchemaDiff(naming: naming).uniqueGroups(model))
    }
}

/// An attribute or relationship as Core Data hashes it, with the `StorageRow` that made it.
public struct CoreDataProperty: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case attribute(CoreDataAttributeType, externalStorage: Bool, preservedOnDeletion: Bool)
        /// A composite attribute (type 2100) and its elements, nested composites kept nested.
        case composite(elements: [CoreDataProperty])
        case relationship(CoreDataRelationship)
    }

    public var name: String
    public var isOptional: Bool
    public var isTransient: Bool
    public var hashModifier: String?
    public var kind: Kind
    /// How SwiftData came to store it so; nil for a model read from Core Data itself.
    public var row: StorageRow?

    public init(
        name: String, isOptional: Bool, isTransient: Bool = false, hashModifier: String? = nil, kind: Kind,
        row: StorageRow? = nil
    ) {
        self.name = name
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.hashModifier = hashModifier
        self.kind = kind
        self.row = row
    }

    /// This property's version hash: for a composite, the hash of its leaf elements.
    var versionHash: VersionHashRecipe.Hash {
        let base = VersionHashRecipe.property(
            name: name, isOptional: isOptional, isTransient: isTransient, modifier: hashModifier)
        switch kind {
        case .attribute(let type, let external, let preserved):
            return VersionHashRecipe.attribute(
                property: base, type: type.rawValue, externalStorage: external, preservedOnDeletion: preserved)
        case .composite:
            return VersionHashRecipe.composite(leaves: leaves.map { ($0.name, $0.versionHash) })
        case .relationship(let r):
            return VersionHashRecipe.relationship(
                property: base, destination: r.destination, inverse: r.inverse, maxCount: r.maxCount,
                minCount: r.minCount, isOrdered: r.isOrdered)
        }
    }

    /// A composite's plain elements, nested composites flattened and transient ones skipped.
    var leaves: [CoreDataProperty] {
        guard case .composite(let elements) = kind else { return isTransient ? [] : [self] }
        return elements.flatMap(\.leaves)
    }

    /// This property's version hash, as 64 hexadecimal digits.
    public var versionHashHex: String { VersionHashRecipe.hex(versionHash) }

    /// The name and what most often tells same-named properties apart, not every field: the hash
    /// cache looks up every property of every schema, and equal properties still compare whole.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(isOptional)
        switch kind {
        case .attribute(let type, _, _): hasher.combine(type.rawValue)
        case .composite(let elements): hasher.combine(elements.count)
        case .relationship(let relationship): hasher.combine(relationship.destination)
        }
    }

    /// Adds the rows that made this property to `rows`, each once. A list, not a set: a schema
    /// uses a handful of rows, and hashing a row (by its name) for every property cost more.
    func collectRows(into rows: inout [StorageRow]) {
        func add(_ row: StorageRow) { if !rows.contains(row) { rows.append(row) } }
        if let row { add(row) }
        if hashModifier != nil { add(.hashModifier) }
        switch kind {
        case .attribute(_, let external, let preserved):
            if external { add(.externalStorage) }
            if preserved { add(.preserveValueOnDeletion) }
        case .composite(let elements):
            for element in elements { element.collectRows(into: &rows) }
        case .relationship:
            break
        }
    }
}

public struct CoreDataRelationship: Sendable, Hashable {
    public var destination: String
    /// The inverse's name as hashed: nil when there is none or the relationship is its own inverse.
    public var inverse: String?
    public var minCount: Int
    /// 0 is unbounded: a to-many.
    public var maxCount: Int
    public var isOrdered: Bool
    /// How the Swift declares it, which no hash reads but decides whether SwiftData pairs it with
    /// a relationship that points back without an inverse (`UndeclaredInversePairing`).
    public var isAnnotated: Bool
    public var hasInitialValue: Bool

    public init(
        destination: String, inverse: String?, minCount: Int, maxCount: Int, isOrdered: Bool = false,
        isAnnotated: Bool = false, hasInitialValue: Bool = false
    ) {
        self.destination = destination
        self.inverse = inverse
        self.minCount = minCount
        self.maxCount = maxCount
        self.isOrdered = isOrdered
        self.isAnnotated = isAnnotated
        self.hasInitialValue = hasInitialValue
    }

    public var isToMany: Bool { maxCount != 1 }
}

/// `NSAttributeType`'s raw values, which enter the attribute's hash.
public enum CoreDataAttributeType: UInt32, Sendable, CaseIterable {
    case undefined = 0
    case integer16 = 100
    case integer32 = 200
    case integer64 = 300
    case decimal = 400
    case double = 500
    case float = 600
    case string = 700
    case boolean = 800
    case date = 900
    case binaryData = 1000
    case uuid = 1100
    case uri = 1200
    case transformable = 1800
    case objectID = 2000
    case composite = 2100
}

extension CoreDataAttributeType {
    /// The Core Data type SwiftData stores a Swift value type as (`String`, `Int16`,
    /// `TimeInterval`, …); nil for any other. The importer reads an app's models with it.
    public init?(storing spelling: String) {
        guard let scalar = ScalarType.named(spelling) ?? ScalarType.spelled(spelling) else { return nil }
        self = StorageRow.scalar(scalar, spelling: spelling).0
    }
}

/// Version hashes as text, the way a lock, a plan and a store report write them.
public enum VersionHashText {
    /// Lower-case hexadecimal, two digits a byte.
    public static func hex(_ bytes: [UInt8]) -> String { VersionHashRecipe.hex(bytes) }

    /// The 32 bytes of 64 hexadecimal digits; nil for anything else.
    public static func bytes(hex text: String) -> [UInt8]? { VersionHashRecipe.hash(hex: text) }
}
