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
            VersionHashRecipe.inNameOrder(entities, name: \.name))
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
        var rows: [StorageRow] = pairedReading == nil ? [] : [.undeclaredInversePair]
        for entity in entities {
            if entity.parent != nil && !rows.contains(.inheritance) { rows.append(.inheritance) }
            for index in entity.properties.indices { entity.properties[index].collectRows(into: &rows) }
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
        // Most schemas have no such property: no key is built for each of theirs.
        for e in erased.indices where !uncertain.isEmpty {
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
            let result: VersionHashRecipe.Hash
            if let known = cache.entityHash(key) {
                result = known
            } else {
                // One pass, in place: filtering first copied every property into a new array.
                var named: [(name: String, hash: VersionHashRecipe.Hash)] = []
                named.reserveCapacity(properties.count)
                for index in properties.indices where !properties[index].isTransient {
                    named.append((properties[index].name, cache.hash(of: properties[index])))
                }
                result = VersionHashRecipe.entity(
                    name: entity.name, isAbstract: entity.isAbstract, parent: parentHash, properties: named,
                    modifier: entity.hashModifier, uniquenessConstraints: entity.uniquenessConstraints)
                cache.remember(key, result)
            }
            done[entity.name] = result
            return result
        }
        for entity in entities { _ = hash(entity, visiting: []) }
        return done
    }
}

/// Hashes already computed, for identities built one after another: a plan's schemas repeat most
/// of their entities and properties from one to the next, and hashing is most of planning's work.
public struct VersionHashCache: Sendable {
    struct EntityKey: Equatable {
        var entity: CoreDataEntity
        var parent: VersionHashRecipe.Hash?
    }

    /// The last two entities of each name hashed, compared whole: neighbouring schemas (a version,
    /// the bridge after it, the next version) repeat most entities, and a lookup by name with one
    /// comparison costs far less than hashing a whole entity for a key.
    private var entities: [String: [(key: EntityKey, hash: VersionHashRecipe.Hash)]] = [:]
    var properties: [CoreDataProperty: VersionHashRecipe.Hash] = [:]

    public init() {}

    func entityHash(_ key: EntityKey) -> VersionHashRecipe.Hash? {
        entities[key.entity.name]?.first { $0.key == key }?.hash
    }

    /// An entity `entityHash` did not know.
    mutating func remember(_ key: EntityKey, _ hash: VersionHashRecipe.Hash) {
        var kept = entities[key.entity.name] ?? []
        kept.append((key, hash))
        entities[key.entity.name] = Array(kept.suffix(2))
    }

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

extension CoreDataProperty {
    /// What SwiftData builds from one stored property of a generated class.
    init(
        _ property: borrowing Property, of model: borrowing ModelDecl, in version: borrowing SchemaVersion,
        naming: borrowing NamingConfig
    ) {
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
        case .attribute(.enumeration(let enumName, nil, _), false):
            var visiting: Set<String> = []
            (kind, row) = Self.enumWithoutRawType(enumName, in: version, visiting: &visiting)
        case .attribute(.enumeration(_, let rawType?, .rawValue), false):
            let (type, scalarRow) = StorageRow.scalar(rawType, spelling: nil)
            (kind, row) = attribute(type, scalarRow)
        case .attribute(.enumeration(_, let rawType?, .value), false):
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
        return decl.fields.map { element(for: $0, in: version, visiting: &visiting) }
    }

    /// An enum without a raw type, as its `Codable` conformance is expected to store it: a case
    /// without values writes no field, a case with values a nested composite of them under their
    /// coding keys, which the hash flattens (docs/version-hash-recipe.md, "What SwiftData builds
    /// from Swift forms": expected, not proved).
    static func enumWithoutRawType(
        _ enumName: String, in version: SchemaVersion, visiting: inout Set<String>
    ) -> (Kind, StorageRow) {
        guard let decl = version.enumeration(named: enumName), visiting.insert(enumName).inserted else {
            return (.composite(elements: []), .enumWithoutRawType)
        }
        defer { visiting.remove(enumName) }
        let cases = decl.cases.filter { !$0.values.isEmpty }.map { item in
            CoreDataProperty(
                name: item.name, isOptional: true,
                kind: .composite(elements: item.values.map { element(for: $0, in: version, visiting: &visiting) }),
                row: .enumWithAssociatedValues)
        }
        return (.composite(elements: cases), cases.isEmpty ? .enumWithoutRawType : .enumWithAssociatedValues)
    }

    /// One value held inside a composite (a struct's field, an enum case's associated value).
    static func element(for field: StructDecl.Field, in version: SchemaVersion, visiting: inout Set<String>)
        -> CoreDataProperty
    {
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
        case .enumeration(_, let rawType?, _):
            return leaf(StorageRow.scalar(rawType, spelling: nil).0, .enumInStruct)
        case .enumeration(let enumName, nil, _):
            let (kind, row) = enumWithoutRawType(enumName, in: version, visiting: &visiting)
            return CoreDataProperty(name: field.name, isOptional: true, kind: kind, row: row)
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

/// The identifier Core Data maps a property's data by in a migration: `originalName` when set,
/// otherwise the stored name. Kept apart from the version hash, which it does not enter
/// (docs/store-evidence.md, "Renaming identifiers").
public func renamingIdentifier(of property: Property, naming: NamingConfig) -> String {
    property.originalName ?? naming.storedName(property)
}
