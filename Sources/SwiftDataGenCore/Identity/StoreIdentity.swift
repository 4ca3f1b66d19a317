import SwiftDataGenDSL

/// A schema as SwiftData identifies a store: the Core Data model SwiftData builds from the
/// generated classes, with Apple's entity version hashes and model `versionChecksum` computed from
/// it (`VersionHashRecipe`). Staged migration matches a store to the schema whose hashes equal the
/// store's `NSStoreModelVersionHashes`, and refuses a plan in which two schemas share a checksum.
public struct StoreIdentity: Sendable, Equatable {
    /// In name order.
    public let entities: [CoreDataEntity]
    /// Entity name → version hash (64 hexadecimal digits), as a store's metadata keeps them.
    public let entityHashes: [String: String]
    /// `NSManagedObjectModel.versionChecksum`: base64 of 32 bytes.
    public let versionChecksum: String
    /// The rows of `StorageRow` this schema relies on that no Apple-computed hash proves yet.
    public let unprovedRows: [StorageRow]
    /// The hashes where SwiftData also pairs the relationships without an inverse that the
    /// evidence leaves open (`UndeclaredInversePairing.open`); nil when there are none. The
    /// primary reading pairs those the evidence shows paired.
    public let pairedReading: Reading?

    /// Entity hashes and checksum under one reading of the model.
    public struct Reading: Sendable, Equatable {
        public var entityHashes: [String: String]
        public var versionChecksum: String
    }

    public init(entities: [CoreDataEntity]) {
        var cache = VersionHashCache()
        self.init(entities: entities, cache: &cache)
    }

    /// With hashes an identity built before may already have computed.
    public init(entities: [CoreDataEntity], cache: inout VersionHashCache) {
        // What SwiftData builds: relationships without an inverse paired where its rule pairs them.
        let (definite, withOpen) = Self.pairingUndeclaredInverses(
            entities.sorted { VersionHashRecipe.precedes($0.name, $1.name) })
        self.entities = definite
        let hashes = Self.hashes(of: self.entities, cache: &cache)
        entityHashes = hashes.mapValues(VersionHashRecipe.hex)
        versionChecksum = VersionHashRecipe.checksum(entities: hashes.map { ($0.key, $0.value) })
        if let paired = withOpen {
            let pairedHashes = Self.hashes(of: paired, cache: &cache)
            pairedReading = Reading(
                entityHashes: pairedHashes.mapValues(VersionHashRecipe.hex),
                versionChecksum: VersionHashRecipe.checksum(entities: pairedHashes.map { ($0.key, $0.value) }))
        } else {
            pairedReading = nil
        }
        var rows: Set<StorageRow> = pairedReading == nil ? [] : [.undeclaredInversePair]
        for entity in entities {
            if entity.parent != nil { rows.insert(.inheritance) }
            for property in entity.properties { property.collectRows(into: &rows) }
        }
        unprovedRows = StorageRow.allCases.filter { rows.contains($0) && $0.proof == nil }
    }

    public init(_ version: SchemaVersion, naming: NamingConfig) {
        var cache = VersionHashCache()
        self.init(version, naming: naming, cache: &cache)
    }

    public init(_ version: SchemaVersion, naming: NamingConfig, cache: inout VersionHashCache) {
        self.init(entities: version.models.map { CoreDataEntity($0, in: version, naming: naming) }, cache: &cache)
    }

    public func entity(named name: String) -> CoreDataEntity? { entities.first { $0.name == name } }

    /// The checksum under each reading: as computed; with undeclared inverses paired; and with the
    /// attribute types of `uncertain` properties (`Entity.property`) erased, since no Apple-computed
    /// hash proves what SwiftData stores those types as. A schema that repeats another under any
    /// reading might repeat it on a device. A reading that changes nothing repeats the first.
    public func readings(erasingTypesOf uncertain: Set<String>, cache: inout VersionHashCache) -> [String] {
        var erased = entities
        var changed = false
        for e in erased.indices {
            for p in erased[e].properties.indices
            where uncertain.contains("\(erased[e].name).\(erased[e].properties[p].name)") {
                guard case .attribute(_, let external, let preserved) = erased[e].properties[p].kind else { continue }
                erased[e].properties[p].kind = .attribute(
                    .undefined, externalStorage: external, preservedOnDeletion: preserved)
                changed = true
            }
        }
        let coarse =
            changed
            ? VersionHashRecipe.checksum(entities: Self.hashes(of: erased, cache: &cache).map { ($0.key, $0.value) })
            : versionChecksum
        return [versionChecksum, pairedReading?.versionChecksum ?? versionChecksum, coarse]
    }

    /// The stored attributes (`Entity.property`) whose type maps to Core Data by a row no
    /// Apple-computed hash proves (`StorageRow.provesItsType`).
    public static func uncertainTypes(of entities: [CoreDataEntity]) -> Set<String> {
        var keys: Set<String> = []
        for entity in entities {
            for property in entity.properties where property.row.map({ !$0.provesItsType }) ?? false {
                keys.insert("\(entity.name).\(property.name)")
            }
        }
        return keys
    }

    /// The entities with the relationships that declare no inverse paired as SwiftData pairs them
    /// (`UndeclaredInversePairing`): `definite` pairs those the rule pairs; `withOpen`, when the
    /// rule leaves any pair open, pairs those too (nil otherwise).
    static func pairingUndeclaredInverses(_ entities: [CoreDataEntity]) -> (
        definite: [CoreDataEntity], withOpen: [CoreDataEntity]?
    ) {
        struct Side: Hashable {
            var entity: Int
            var property: Int
        }
        let index = Dictionary(
            entities.indices.map { (entities[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
        func relationship(_ side: Side) -> CoreDataRelationship? {
            if case .relationship(let r) = entities[side.entity].properties[side.property].kind { return r }
            return nil
        }
        var open: [Side] = []
        for e in entities.indices {
            for p in entities[e].properties.indices {
                let side = Side(entity: e, property: p)
                if let r = relationship(side), r.inverse == nil, !entities[e].properties[p].isTransient {
                    open.append(side)
                }
            }
        }
        func candidates(of side: Side) -> [Side] {
            guard let r = relationship(side), let destination = index[r.destination] else { return [] }
            return open.filter { other in
                other != side && other.entity == destination
                    && relationship(other)?.destination == entities[side.entity].name
            }
        }
        func end(_ side: Side) -> UndeclaredInversePairing.End? {
            guard let r = relationship(side) else { return nil }
            return .init(
                isToMany: r.isToMany, isOptional: entities[side.entity].properties[side.property].isOptional,
                isAnnotated: r.isAnnotated, hasInitialValue: r.hasInitialValue,
                isCounted: r.minCount != 0 || (r.isToMany && r.maxCount != 0) || r.isOrdered)
        }
        var definite = entities
        var withOpen = entities
        var anyOpen = false
        for side in open {
            let mine = candidates(of: side)
            guard mine.count == 1, let other = mine.first, candidates(of: other) == [side],
                let a = end(side), let b = end(other),
                case .relationship(var r) = entities[side.entity].properties[side.property].kind
            else { continue }
            r.inverse = entities[other.entity].properties[other.property].name
            switch UndeclaredInversePairing(a, b) {
            case .paired:
                definite[side.entity].properties[side.property].kind = .relationship(r)
                withOpen[side.entity].properties[side.property].kind = .relationship(r)
            case .open:
                withOpen[side.entity].properties[side.property].kind = .relationship(r)
                anyOpen = true
            case .unpaired:
                continue
            }
        }
        return (definite, anyOpen ? withOpen : nil)
    }

    /// Every entity's hash; a parent's hash enters its children's, and a cycle (refused by the
    /// resolver) is cut rather than followed.
    private static func hashes(of entities: [CoreDataEntity], cache: inout VersionHashCache) -> [String:
        VersionHashRecipe.Hash]
    {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var done: [String: VersionHashRecipe.Hash] = [:]
        func hash(_ entity: CoreDataEntity, visiting: Set<String>) -> VersionHashRecipe.Hash {
            if let known = done[entity.name] { return known }
            var properties = entity.properties
            var parentHash: VersionHashRecipe.Hash?
            if let parentName = entity.parent, !visiting.contains(parentName), let parent = byName[parentName] {
                parentHash = hash(parent, visiting: visiting.union([entity.name]))
                var seen: Set<String> = [entity.name]
                var ancestor: CoreDataEntity? = parent
                while let current = ancestor, seen.insert(current.name).inserted {
                    properties += current.properties
                    ancestor = current.parent.flatMap { byName[$0] }
                }
            }
            let key = VersionHashCache.EntityKey(entity: entity, parent: parentHash)
            let result =
                cache.entities[key]
                ?? VersionHashRecipe.entity(
                    name: entity.name, isAbstract: entity.isAbstract, parent: parentHash,
                    properties: properties.filter { !$0.isTransient }.map { ($0.name, cache.hash(of: $0)) },
                    modifier: entity.hashModifier, uniquenessConstraints: entity.uniquenessConstraints)
            cache.entities[key] = result
            done[entity.name] = result
            return result
        }
        for entity in entities { _ = hash(entity, visiting: []) }
        return done
    }
}

/// Version hashes as text, the way a lock, a plan and a store report write them.
public enum VersionHashText {
    /// Lower-case hexadecimal, two digits a byte.
    public static func hex(_ bytes: [UInt8]) -> String { VersionHashRecipe.hex(bytes) }

    /// The 32 bytes of 64 hexadecimal digits; nil for anything else.
    public static func bytes(hex text: String) -> [UInt8]? { VersionHashRecipe.hash(hex: text) }
}

/// Hashes already computed, for identities built one after another: a plan's schemas repeat most
/// of their entities and properties from one to the next, and hashing is most of planning's work.
public struct VersionHashCache: Sendable {
    struct EntityKey: Hashable {
        var entity: CoreDataEntity
        var parent: VersionHashRecipe.Hash?
    }

    var entities: [EntityKey: VersionHashRecipe.Hash] = [:]
    var properties: [CoreDataProperty: VersionHashRecipe.Hash] = [:]

    public init() {}

    mutating func hash(of property: CoreDataProperty) -> VersionHashRecipe.Hash {
        if let known = properties[property] { return known }
        let hash = property.versionHash
        properties[property] = hash
        return hash
    }
}

/// One reason two identities' hashes differ, in the DSL's words: an entity added or gone, or
/// what changed in an entity or one of its properties.
public struct IdentityDifference: Sendable, Equatable, CustomStringConvertible {
    public var entity: String
    /// The property whose hash differs; nil for the entity itself.
    public var property: String?
    public var change: String

    public var description: String { "\(entity)\(property.map { "." + $0 } ?? ""): \(change)" }
}

extension StoreIdentity {
    /// Why entities' hashes differ between `other` (before) and this identity (after): per entity
    /// whose hash changed, the properties whose hashes changed and what changed in each, or what
    /// changed in the entity itself. Entities with equal hashes are not mentioned.
    public func differences(from other: StoreIdentity) -> [IdentityDifference] {
        var result: [IdentityDifference] = []
        let names = Set(entities.map(\.name)).union(other.entities.map(\.name)).sorted(by: VersionHashRecipe.precedes)
        for name in names where entityHashes[name] != other.entityHashes[name] {
            guard let after = entity(named: name) else {
                result.append(IdentityDifference(entity: name, change: "the entity is gone"))
                continue
            }
            guard let before = other.entity(named: name) else {
                result.append(IdentityDifference(entity: name, change: "the entity is new"))
                continue
            }
            let count = result.count
            // Transient properties are not hashed: one that is only in one model changes nothing.
            let stored = { (entity: CoreDataEntity) in entity.properties.filter { !$0.isTransient }.map(\.name) }
            for property in Set(stored(after)).union(stored(before)).sorted(by: VersionHashRecipe.precedes) {
                let old = before.property(named: property).flatMap { $0.isTransient ? nil : $0 }
                let new = after.property(named: property).flatMap { $0.isTransient ? nil : $0 }
                guard old?.versionHashHex != new?.versionHashHex else { continue }
                let change: String
                if let old, let new {
                    change = new.changes(from: old).joined(separator: ", ")
                } else {
                    change = new == nil ? "removed" : "added"
                }
                result.append(IdentityDifference(entity: name, property: property, change: change))
            }
            if after.parent != before.parent {
                result.append(
                    IdentityDifference(
                        entity: name, change: "parent \(before.parent ?? "none") → \(after.parent ?? "none")"))
            } else if let parent = after.parent, entityHashes[parent] != other.entityHashes[parent] {
                result.append(IdentityDifference(entity: name, change: "its parent \(parent)'s hash changed"))
            }
            if after.uniquenessConstraints != before.uniquenessConstraints {
                func text(_ list: [[String]]) -> String {
                    list.isEmpty ? "none" : list.map { "[" + $0.joined(separator: ", ") + "]" }.joined(separator: " ")
                }
                result.append(
                    IdentityDifference(
                        entity: name,
                        change:
                            "uniqueness \(text(before.uniquenessConstraints)) → \(text(after.uniquenessConstraints))"))
            }
            if after.hashModifier != before.hashModifier || after.isAbstract != before.isAbstract
                || result.count == count
            {
                result.append(IdentityDifference(entity: name, change: "the entity's own hash inputs changed"))
            }
        }
        return result
    }
}

extension CoreDataProperty {
    /// What differs from `old` in what the hash reads, in words.
    func changes(from old: CoreDataProperty) -> [String] {
        var changes: [String] = []
        if old.isOptional != isOptional { changes.append(isOptional ? "now optional" : "no longer optional") }
        if old.isTransient != isTransient { changes.append(isTransient ? "now transient" : "no longer transient") }
        if old.hashModifier != hashModifier {
            changes.append("hashModifier \(old.hashModifier ?? "none") → \(hashModifier ?? "none")")
        }
        switch (old.kind, kind) {
        case (.attribute(let a, let aExternal, let aPreserved), .attribute(let b, let bExternal, let bPreserved)):
            if a != b { changes.append("type \(a) → \(b)") }
            if aExternal != bExternal { changes.append(bExternal ? "external storage on" : "external storage off") }
            if aPreserved != bPreserved {
                changes.append(bPreserved ? "preserved on deletion" : "no longer preserved on deletion")
            }
        case (.composite, .composite):
            let before = Dictionary(old.leaves.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let after = Dictionary(leaves.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for name in Set(before.keys).union(after.keys).sorted(by: VersionHashRecipe.precedes)
            where before[name]?.versionHashHex != after[name]?.versionHashHex {
                changes.append(
                    after[name] == nil
                        ? "element \(name) removed"
                        : before[name] == nil ? "element \(name) added" : "element \(name) changed")
            }
        case (.relationship(let a), .relationship(let b)):
            if a.destination != b.destination { changes.append("destination \(a.destination) → \(b.destination)") }
            if a.inverse != b.inverse { changes.append("inverse \(a.inverse ?? "none") → \(b.inverse ?? "none")") }
            if a.minCount != b.minCount || a.maxCount != b.maxCount {
                changes.append("counts \(a.minCount)…\(a.maxCount) → \(b.minCount)…\(b.maxCount)")
            }
            if a.isOrdered != b.isOrdered { changes.append(b.isOrdered ? "now ordered" : "no longer ordered") }
        default:
            changes.append("\(old.kindWord) → \(kindWord)")
        }
        return changes.isEmpty ? ["changed"] : changes
    }

    var kindWord: String {
        switch kind {
        case .attribute(let type, _, _): return "attribute \(type)"
        case .composite: return "composite attribute"
        case .relationship: return "relationship"
        }
    }
}

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
        self.init(
            name: model.name, parent: model.superclass,
            properties: model.properties.filter(\.isStored).map {
                CoreDataProperty($0, of: model, in: version, naming: naming)
            },
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

    func collectRows(into rows: inout Set<StorageRow>) {
        if let row { rows.insert(row) }
        if hashModifier != nil { rows.insert(.hashModifier) }
        switch kind {
        case .attribute(_, let external, let preserved):
            if external { rows.insert(.externalStorage) }
            if preserved { rows.insert(.preserveValueOnDeletion) }
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

/// How SwiftData stores what a generated class declares, one row per Swift form, each saying
/// whether an Apple-computed hash proves it (`coredata-version-hash.md`, "What SwiftData builds").
/// A row without proof is the expectation from Core Data's side; `plan --json` and the
/// store-identity article name the rows a schema relies on that no hash proves yet.
public enum StorageRow: String, Sendable, CaseIterable, Hashable {
    case integer64, unsignedWord, integer32, integer16, signedByte
    case string, boolean, double, cgFloat, float, decimal, date, data, uuid, url
    /// An array of values at the top level: Transformable.
    case valueArray
    /// A value stored through `.transformable(by:)`.
    case transformable
    case optionalCodableStruct
    /// A non-optional Codable struct: whether its elements are all optional too is not pinned.
    case codableStruct
    /// An array or a dictionary inside a Codable struct: optional Binary.
    case arrayInStruct
    /// An enum inside a Codable struct: its raw value under the field's name.
    case enumInStruct
    /// `[String: Struct]`: one Binary attribute.
    case dictionaryOfStructs
    /// `@Attribute(.codable)` (iOS 27): read as one Binary attribute holding the encoding, which no
    /// Apple-computed hash confirms yet.
    case codableEncoding
    /// An enum stored as itself: a composite of one element named like the property.
    case enumItself
    case toOne, toMany, optionalToMany
    /// A to-many with `minimumModelCount`/`maximumModelCount` written.
    case toManyWithCounts
    /// A to-one with `minimumModelCount`/`maximumModelCount` written: whether SwiftData hashes
    /// them is not shown.
    case toOneWithCounts
    /// Two relationships that point at each other and declare no inverse, in a case the evidence
    /// does not settle (`UndeclaredInversePairing.open`); the cases it settles are proved.
    case undeclaredInversePair
    case externalStorage, preserveValueOnDeletion, hashModifier, inheritance

    /// False for a stored type whose Core Data attribute type no hash proves: two schemas that
    /// differ only there might hash alike on a device.
    public var provesItsType: Bool {
        switch self {
        case .unsignedWord, .signedByte, .url, .transformable, .codableEncoding: return false
        default: return true
        }
    }

    /// Where an Apple-computed hash proves the row; nil where none does yet.
    public var proof: String? {
        switch self {
        case .integer64, .integer32, .date, .data, .toOne:
            return "SwiftData vectors (dashpay/platform swift-sdk, iOS 26.5)"
        case .integer16, .valueArray, .optionalCodableStruct, .arrayInStruct, .enumItself, .toMany, .optionalToMany,
            .dictionaryOfStructs:
            return "a 34-entity SwiftData model (iOS 26.5), coredata-version-hash.md"
        case .string, .boolean, .double, .float, .uuid:
            return "version-hash vectors"
        case .cgFloat:
            return "an app's store fixture beside its SwiftData source (macOS, 2026; iOS not observed), "
                + "coredata-version-hash.md"
        case .decimal:
            return "a SwiftData store with its model checksum (vector cartkit), coredata-version-hash.md"
        case .enumInStruct, .externalStorage:
            return "entity hashes a SwiftData app's tests pin (vectors millio-*, iOS 26.x), coredata-version-hash.md"
        case .unsignedWord, .signedByte, .url, .transformable, .codableEncoding, .codableStruct, .toManyWithCounts,
            .toOneWithCounts,
            .preserveValueOnDeletion, .hashModifier, .inheritance, .undeclaredInversePair:
            return nil
        }
    }

    /// The Swift forms of `rows` as a sentence's list (`A, B and C`), a form in one word as code.
    public static func list(_ rows: [StorageRow]) -> String {
        let forms = rows.map { $0.swiftForm.contains(" ") ? $0.swiftForm : "`\($0.swiftForm)`" }
        guard forms.count > 1, let last = forms.last else { return forms.first ?? "" }
        return forms.dropLast().joined(separator: ", ") + " and " + last
    }

    /// The Swift form, in the words the documentation uses.
    public var swiftForm: String {
        switch self {
        case .integer64: return "Int, Int64, UInt64"
        case .unsignedWord: return "UInt"
        case .integer32: return "Int32, UInt32"
        case .integer16: return "Int16, UInt16, UInt8"
        case .signedByte: return "Int8"
        case .string: return "String"
        case .boolean: return "Bool"
        case .double: return "Double, TimeInterval"
        case .cgFloat: return "CGFloat"
        case .float: return "Float"
        case .decimal: return "Decimal"
        case .date: return "Date"
        case .data: return "Data"
        case .uuid: return "UUID"
        case .url: return "URL"
        case .valueArray: return "an array of values"
        case .transformable: return ".transformable(by:)"
        case .optionalCodableStruct: return "an optional Codable struct"
        case .codableStruct: return "a non-optional Codable struct"
        case .arrayInStruct: return "an array inside a Codable struct"
        case .enumInStruct: return "an enum inside a Codable struct"
        case .dictionaryOfStructs: return "a dictionary of Codable structs [String: S]"
        case .codableEncoding: return "@Attribute(.codable)"
        case .enumItself: return "an enum stored as itself"
        case .toOne: return "a to-one relationship"
        case .toMany: return "a to-many relationship [M]"
        case .optionalToMany: return "an optional to-many relationship [M]?"
        case .toManyWithCounts: return "a to-many relationship with model counts"
        case .toOneWithCounts: return "a to-one relationship with model counts"
        case .undeclaredInversePair:
            return "relationships that point at each other without an inverse, in a case the evidence leaves open "
                + "(many-to-many, counted, or annotated on the to-one end only)"
        case .externalStorage: return ".externalStorage"
        case .preserveValueOnDeletion: return ".preserveValueOnDeletion"
        case .hashModifier: return "hashModifier"
        case .inheritance: return "model inheritance"
        }
    }

    /// The Core Data type and row of a scalar stored as itself.
    static func scalar(_ scalar: ScalarType, spelling: String?) -> (CoreDataAttributeType, StorageRow) {
        switch scalar {
        case .string: return (.string, .string)
        case .bool: return (.boolean, .boolean)
        case .int, .int64, .uint64: return (.integer64, .integer64)
        case .uint: return (.integer64, .unsignedWord)
        case .int32, .uint32: return (.integer32, .integer32)
        case .int16, .uint16, .uint8: return (.integer16, .integer16)
        case .int8: return (.integer16, .signedByte)
        // SwiftData hashes a CGFloat as Float (600), not Double: no other type reproduces an app's hash.
        case .double: return spelling == "CGFloat" ? (.float, .cgFloat) : (.double, .double)
        case .float: return (.float, .float)
        case .decimal: return (.decimal, .decimal)
        case .date: return (.date, .date)
        case .data: return (.binaryData, .data)
        case .uuid: return (.uuid, .uuid)
        case .url: return (.uri, .url)
        }
    }
}

extension CoreDataProperty {
    /// What SwiftData builds from one stored property of a generated class.
    init(_ property: Property, of model: ModelDecl, in version: SchemaVersion, naming: NamingConfig) {
        let name = naming.storedName(property)
        let external = property.flags.contains(.externalStorage)
        let preserved = property.flags.contains(.preserveValueOnDeletion)
        func attribute(_ type: CoreDataAttributeType, _ row: StorageRow) -> (Kind, StorageRow) {
            (.attribute(type, externalStorage: external, preservedOnDeletion: preserved), row)
        }
        let (kind, row): (Kind, StorageRow)
        switch property.kind {
        case .attribute where property.flags.contains(.codable):
            (kind, row) = attribute(.binaryData, .codableEncoding)
        case .attribute(_, isArray: true):
            (kind, row) = attribute(.transformable, .valueArray)
        case .attribute(.scalar, false) where property.transformer != nil:
            (kind, row) = attribute(.transformable, .transformable)
        case .attribute(.scalar(let scalar), false):
            let (type, scalarRow) = StorageRow.scalar(scalar, spelling: property.scalarSpelling)
            (kind, row) = attribute(type, scalarRow)
        case .attribute(.enumeration(_, let rawType, .rawValue), false):
            let (type, scalarRow) = StorageRow.scalar(rawType, spelling: nil)
            (kind, row) = attribute(type, scalarRow)
        case .attribute(.enumeration(_, let rawType, .value), false):
            let element = CoreDataProperty(
                name: name, isOptional: true,
                kind: .attribute(
                    StorageRow.scalar(rawType, spelling: nil).0, externalStorage: false, preservedOnDeletion: false))
            (kind, row) = (.composite(elements: [element]), .enumItself)
        case .attribute(.dictionary, false):
            (kind, row) = attribute(.binaryData, .dictionaryOfStructs)
        case .attribute(.composite(let structName), false):
            var visiting: Set<String> = []
            let elements = Self.elements(of: structName, in: version, visiting: &visiting)
            (kind, row) = (
                .composite(elements: elements), property.isOptional ? .optionalCodableStruct : .codableStruct
            )
        case .relationship(let r):
            let inverse: String?
            if let other = r.inverse, !(r.target == model.name && other == property.name) {
                inverse = version.model(named: r.target)?.property(named: other).map(naming.storedName) ?? other
            } else {
                inverse = nil
            }
            let counts = r.minCount != nil || r.maxCount != nil
            let relationship = CoreDataRelationship(
                destination: r.target, inverse: inverse, minCount: r.minCount ?? 0,
                maxCount: r.isToMany ? r.maxCount ?? 0 : 1, isAnnotated: property.declaresRelationshipAttribute,
                hasInitialValue: property.relationshipHasInitialValue)
            (kind, row) = (
                .relationship(relationship),
                !r.isToMany
                    ? (counts ? .toOneWithCounts : .toOne)
                    : counts ? .toManyWithCounts : property.isOptional ? .optionalToMany : .toMany
            )
        }
        self.init(
            name: name, isOptional: property.isOptional, hashModifier: property.hashModifier, kind: kind, row: row)
    }

    /// A Codable struct's stored fields as composite elements, every one optional; a struct that
    /// holds itself (refused by Swift) ends the walk.
    static func elements(of structName: String, in version: SchemaVersion, visiting: inout Set<String>)
        -> [CoreDataProperty]
    {
        guard let decl = version.structure(named: structName), visiting.insert(structName).inserted else { return [] }
        defer { visiting.remove(structName) }
        return decl.fields.map { field in
            func leaf(_ type: CoreDataAttributeType, _ row: StorageRow) -> CoreDataProperty {
                CoreDataProperty(
                    name: field.name, isOptional: true,
                    kind: .attribute(type, externalStorage: false, preservedOnDeletion: false), row: row)
            }
            if field.isArray { return leaf(.binaryData, .arrayInStruct) }
            switch field.type {
            case .scalar(let scalar):
                let (type, row) = StorageRow.scalar(scalar, spelling: field.spelling)
                return leaf(type, row)
            case .enumeration(_, let rawType, _):
                return leaf(StorageRow.scalar(rawType, spelling: nil).0, .enumInStruct)
            case .dictionary:
                return leaf(.binaryData, .arrayInStruct)
            case .composite(let held):
                return CoreDataProperty(
                    name: field.name, isOptional: true,
                    kind: .composite(elements: elements(of: held, in: version, visiting: &visiting)),
                    row: .optionalCodableStruct)
            }
        }
    }
}

/// The identifier Core Data maps a property's data by in a migration: `originalName` when set,
/// otherwise the stored name (evidence §1, [S1]). Kept apart from the version hash, which it does
/// not enter [S22].
public func renamingIdentifier(of property: Property, naming: NamingConfig) -> String {
    property.originalName ?? naming.storedName(property)
}

extension CoreDataAttributeType {
    /// The Core Data type SwiftData stores a Swift value type as (`String`, `Int16`,
    /// `TimeInterval`, …); nil for any other. The importer reads an app's models with it.
    public init?(storing spelling: String) {
        guard let scalar = ScalarType(rawValue: spelling) ?? ScalarType.spellings[spelling] else { return nil }
        self = StorageRow.scalar(scalar, spelling: spelling).0
    }
}
