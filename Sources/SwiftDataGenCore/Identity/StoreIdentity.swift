import SwiftDataGenDSL

/// A schema as SwiftData identifies a store: the entity version hashes Core Data computes from
/// each model, which together make the model checksum that staged migration matches stores and
/// stages by. Source: swiftdata-migration-evidence.md, "What is and is not in the version checksum".
///
/// The model may be coarser than Core Data's hash, never finer. Where the evidence is silent we
/// leave a detail out: two schemas this model calls equal then get a `hashModifier` they might not
/// have needed (harmless), whereas a detail wrongly counted would hide a duplicate checksum, which
/// SwiftData refuses at launch.
public struct StoreIdentity: Hashable, Sendable {
    public var entities: [EntityIdentity]

    public init(_ version: SchemaVersion, naming: NamingConfig) {
        entities = version.models.map { EntityIdentity($0, naming: naming) }.sorted { $0.name < $1.name }
    }

    /// A hash of the identity, computed without building it (planning takes one per schema of the
    /// plan). Equal identities give equal digests: names are hashed as the bytes of the stored
    /// name, and sums stand in for the identity's sorting and sets. FNV-1a, not `Hasher`: this
    /// runs for every property of every schema, and an equal digest is always checked in full.
    public static func digest(of version: SchemaVersion, naming: NamingConfig) -> Int {
        let diff = SchemaDiff(naming: naming)
        var total: UInt64 = 0
        for model in version.models {
            var entity = Digest()
            entity.add(model.name)
            entity.add(model.superclass ?? "-")
            var properties: UInt64 = 0
            for property in model.properties where property.isStored {
                var digest = Digest()
                digest.add(naming.storedName(property))
                switch property.kind {
                case .attribute(let type, let isArray):
                    digest.add(
                        UInt64(AttributeStorage(type, isArray: isArray).ordinal) &+ (property.isOptional ? 100 : 0))
                    for flag in property.flags where flag.reachesVersionHash { digest.add(flag.rawValue) }
                case .relationship(let r):
                    digest.add(r.target)
                    digest.add(UInt64(r.minCount ?? 0) &* 2 &+ (r.isToMany ? 1 : 0))
                    digest.add(UInt64(r.maxCount ?? 0))
                }
                digest.add(property.hashModifier ?? "")
                properties &+= digest.value
            }
            entity.add(properties)
            var groups: UInt64 = 0
            for group in Set(diff.uniqueGroups(model).map { Set($0) }) {
                var names: UInt64 = 0
                for name in group {
                    var digest = Digest()
                    digest.add(name)
                    names &+= digest.value
                }
                groups &+= names &* 31 &+ UInt64(group.count)
            }
            entity.add(groups)
            total &+= entity.value
        }
        return Int(truncatingIfNeeded: total)
    }

    /// The identity as text, one line per entity and stored property. The SwiftData stand-in
    /// computes the same text from the compiled models (`Schema._checksumText`); a test keeps the
    /// two equal for every golden.
    public var checksumText: String {
        var lines: [String] = []
        for entity in entities {
            let unique = entity.uniqueness.map { $0.sorted().joined(separator: ",") }.sorted()
            lines.append(
                "entity \(entity.name) super=\(entity.superentity ?? "-") "
                    + "unique=\(unique.isEmpty ? "-" : unique.joined(separator: ";"))"
            )
            for property in entity.properties {
                let modifier = property.hashModifier ?? "-"
                switch property.storage {
                case .attribute(let storage, let isOptional, let flags):
                    let names = flags.map(\.rawValue).sorted()
                    lines.append(
                        "  \(property.name) attribute \(storage) optional=\(isOptional) "
                            + "flags=\(names.isEmpty ? "-" : names.joined(separator: ",")) modifier=\(modifier)"
                    )
                case .relationship(let destination, let isToMany, let minCount, let maxCount):
                    lines.append(
                        "  \(property.name) relationship \(destination) many=\(isToMany) min=\(minCount) "
                            + "max=\(maxCount) modifier=\(modifier)"
                    )
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}

public struct EntityIdentity: Hashable, Sendable {
    /// Entity name and superentity are in the hash [S4].
    public var name: String
    public var superentity: String?
    /// The set of stored properties is in the hash [S4]; transient ones are not in the schema [S16].
    public var properties: [PropertyIdentity]
    /// Uniqueness constraints are in the hash [S8]; indexes are not [S9]. Order inside a group
    /// and between groups is ignored (coarser than Core Data, see the type above).
    public var uniqueness: Set<Set<String>>

    init(_ model: ModelDecl, naming: NamingConfig) {
        name = model.name
        superentity = model.superclass
        properties = model.properties.filter(\.isStored).map { PropertyIdentity($0, naming: naming) }.sorted {
            $0.name < $1.name
        }
        uniqueness = Set(SchemaDiff(naming: naming).uniqueGroups(model).map(Set.init))
    }
}

public struct PropertyIdentity: Hashable, Sendable {
    /// What an attribute or relationship contributes besides its name and modifier.
    public enum Storage: Hashable, Sendable {
        /// Attribute type [S6]; `.externalStorage` and `.preserveValueOnDeletion` [S22].
        case attribute(AttributeStorage, isOptional: Bool, flags: Set<PropertyKey>)
        /// Destination, to-many and counts [S7]. Left out: the inverse (SwiftData may infer one
        /// the YAML does not state), optionality (a to-one is reportedly stored optional [S26]),
        /// and the delete rule (not in the hash [S22]).
        case relationship(destination: String, isToMany: Bool, minCount: Int, maxCount: Int)
    }

    /// The stored name: property name and optionality are in the hash [S5].
    public var name: String
    public var storage: Storage
    /// `hashModifier:` — Core Data's `versionHashModifier`, in the hash [S3][S22].
    public var hashModifier: String?

    init(_ property: Property, naming: NamingConfig) {
        name = naming.storedName(property)
        hashModifier = property.hashModifier
        switch property.kind {
        case .attribute(let type, let isArray):
            let flags = Set(property.flags.filter(\.reachesVersionHash))
            storage = .attribute(
                AttributeStorage(type, isArray: isArray), isOptional: property.isOptional, flags: flags)
        case .relationship(let r):
            storage = .relationship(
                destination: r.target, isToMany: r.isToMany, minCount: r.minCount ?? 0, maxCount: r.maxCount ?? 0)
        }
    }
}

/// The Core Data attribute type a Swift type is stored as, grouped where we are not sure two
/// Swift types are stored differently (coarser is safe; see `StoreIdentity`).
public enum AttributeStorage: Hashable, Sendable {
    case string, boolean, integer16, integer32, integer64, double, float, decimal, date, binary, uuid, uri
    /// Arrays and other Codable values: all counted as one kind, since how SwiftData encodes
    /// each is not documented.
    case encoded
    /// A `Codable` struct: one composite attribute. Its fields are left out of the identity, which
    /// can only make two schemas look alike (then a modifier is added), never apart.
    case composite

    /// A number per case, for digests.
    var ordinal: Int {
        switch self {
        case .string: return 1
        case .boolean: return 2
        case .integer16: return 3
        case .integer32: return 4
        case .integer64: return 5
        case .double: return 6
        case .float: return 7
        case .decimal: return 8
        case .date: return 9
        case .binary: return 10
        case .uuid: return 11
        case .uri: return 12
        case .encoded: return 13
        case .composite: return 14
        }
    }

    init(_ type: ValueType, isArray: Bool) {
        guard !isArray else {
            self = .encoded
            return
        }
        let scalar: ScalarType
        switch type {
        case .scalar(let s): scalar = s
        case .enumeration(_, let rawType, _): scalar = rawType
        case .composite:
            self = .composite
            return
        }
        switch scalar {
        case .string: self = .string
        case .bool: self = .boolean
        case .int8, .int16, .uint8, .uint16: self = .integer16
        case .int32, .uint32: self = .integer32
        case .int, .int64, .uint, .uint64: self = .integer64
        case .double: self = .double
        case .float: self = .float
        case .decimal: self = .decimal
        case .date: self = .date
        case .data: self = .binary
        case .uuid: self = .uuid
        case .url: self = .uri
        }
    }
}

extension PropertyKey {
    /// Whether an attribute option enters the property's version hash: as its `storeEffect`
    /// declares, from evidence ([S22]).
    var reachesVersionHash: Bool { storeEffect == .checksum }
}

/// The identifier Core Data maps a property's data by in a migration: `originalName` when set,
/// otherwise the stored name (evidence §1, [S1]). Kept apart from the version hash, which it does
/// not enter [S22].
public func renamingIdentifier(of property: Property, naming: NamingConfig) -> String {
    property.originalName ?? naming.storedName(property)
}
