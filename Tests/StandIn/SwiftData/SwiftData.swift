// A stand-in for Apple's SwiftData, declared with the real signatures (iOS 18 SDK shapes, the
// strictest for Sendable) so generated code type-checks on Linux, and a simulator of how SwiftData
// stores rows and runs a migration plan (Simulator.swift beside this file), so generated plans
// run with data on Linux.
@_exported import Foundation

public protocol PersistentModel: AnyObject, Hashable, Identifiable {
    /// The object's values by property name; `@Model` routes every stored property through it.
    var _$backing: _StandInBacking { get }
    /// The entity as `@Model` read it from the class: what the checksum and the simulator use.
    static var _$entity: _StandInEntity { get }
    static func _$make(_ backing: _StandInBacking) -> AnyObject
}

extension PersistentModel {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension PersistentModel where ID == ObjectIdentifier {
    public var id: ObjectIdentifier { ObjectIdentifier(self) }
}

public final class Schema {
    public struct Version: Codable, Comparable, Hashable, CustomStringConvertible {
        public let major: Int
        public let minor: Int
        public let patch: Int

        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        public static func < (a: Version, b: Version) -> Bool {
            (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
        }
        public var description: String { "\(major).\(minor).\(patch)" }
    }

    public struct Attribute {
        public struct Option {
            let name: String
            public static var unique: Option { Option(name: "unique") }
            public static var externalStorage: Option { Option(name: "externalStorage") }
            public static var allowsCloudEncryption: Option { Option(name: "allowsCloudEncryption") }
            public static var preserveValueOnDeletion: Option { Option(name: "preserveValueOnDeletion") }
            public static var ephemeral: Option { Option(name: "ephemeral") }
            public static var spotlight: Option { Option(name: "spotlight") }
            public static func transformable(by transformerName: String) -> Option { Option(name: "transformable") }
        }
    }

    public struct Relationship {
        public enum DeleteRule: String, Codable {
            case noAction, nullify, cascade, deny
        }

        public struct Option {
            public static var unique: Option { Option() }
        }
    }

    public struct Index<T: PersistentModel> {
        public struct Types<U: PersistentModel> {
            public static func binary(_ keyPaths: [PartialKeyPath<U>]) -> Types<U> { Types<U>() }
            public static func rtree(_ keyPaths: [PartialKeyPath<U>]) -> Types<U> { Types<U>() }
        }
    }

    public let models: [any PersistentModel.Type]
    public let version: Version

    public init(versionedSchema: any VersionedSchema.Type) {
        models = versionedSchema.models
        version = versionedSchema.versionIdentifier
    }

    /// The checksum text of these models (Simulator.swift): equal texts are one checksum.
    public var _checksumText: String { _StandInSchemaInfo(models).checksumText }

    public init(_ models: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        self.models = models
        self.version = version
    }
}

// The iOS 17 and 18 SDKs do not mark these Sendable; say so, so Swift 6 mode rejects
// `static let versionIdentifier = Schema.Version(…)` here as it does there.
@available(*, unavailable) extension Schema.Version: @unchecked Sendable {}
@available(*, unavailable) extension MigrationStage: @unchecked Sendable {}

public protocol VersionedSchema {
    static var models: [any PersistentModel.Type] { get }
    static var versionIdentifier: Schema.Version { get }
}

public protocol SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { get }
    static var stages: [MigrationStage] { get }
}

public enum MigrationStage {
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: ((ModelContext) throws -> Void)?, didMigrate: ((ModelContext) throws -> Void)?)
}

@attached(extension, conformances: PersistentModel)
@attached(member, names: named(_$backing), named(init(backingData:)), named(_$make), named(_$entity))
@attached(memberAttribute)
public macro Model() = #externalMacro(module: "SwiftDataStandInMacros", type: "ModelMacro")

@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro _PersistedProperty() = #externalMacro(module: "SwiftDataStandInMacros", type: "PersistedPropertyMacro")

@attached(peer)
public macro Attribute(
    _ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil
) =
    #externalMacro(module: "SwiftDataStandInMacros", type: "NoOpPeerMacro")

@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option..., deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0, maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: AnyKeyPath? = nil, hashModifier: String? = nil
) = #externalMacro(module: "SwiftDataStandInMacros", type: "NoOpPeerMacro")

@attached(peer)
public macro Transient() = #externalMacro(module: "SwiftDataStandInMacros", type: "NoOpPeerMacro")

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@freestanding(declaration)
public macro Unique<T: PersistentModel>(_ constraints: [PartialKeyPath<T>]...) =
    #externalMacro(module: "SwiftDataStandInMacros", type: "NoOpDeclarationMacro")

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@freestanding(declaration)
public macro Index<T: PersistentModel>(_ indices: [PartialKeyPath<T>]...) =
    #externalMacro(module: "SwiftDataStandInMacros", type: "NoOpDeclarationMacro")

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@freestanding(declaration)
public macro Index<T: PersistentModel>(_ indices: Schema.Index<T>.Types<T>...) =
    #externalMacro(module: "SwiftDataStandInMacros", type: "NoOpDeclarationMacro")

/// A model's identity across contexts; declared so a type named like it is seen to hide it.
public struct PersistentIdentifier: Hashable, Sendable {}

public struct FetchDescriptor<T: PersistentModel> {
    public var predicate: Predicate<T>?
    public var sortBy: [SortDescriptor<T>]
    public var fetchLimit: Int?
    public var fetchOffset: Int?
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}

public struct ModelConfiguration: Sendable {
    public struct CloudKitDatabase: Sendable {
        public static var automatic: CloudKitDatabase { CloudKitDatabase() }
        public static var none: CloudKitDatabase { CloudKitDatabase() }
        public static func `private`(_ containerIdentifier: String) -> CloudKitDatabase { CloudKitDatabase() }
    }

    public let name: String?
    public let isStoredInMemoryOnly: Bool
    public let url: URL?

    public init(
        _ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.name = name
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.url = nil
    }

    public init(
        _ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.name = name
        self.isStoredInMemoryOnly = false
        self.url = url
    }
}
