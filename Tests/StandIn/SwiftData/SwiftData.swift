// A stand-in for Apple's SwiftData, declared with the real signatures, kinds, conformances and
// availability (StandInAgreementTests compares every public declaration here with Apple's
// interface) so generated code type-checks on Linux, and a simulator of how SwiftData stores rows
// and runs a migration plan (Simulator.swift, Store.swift, Context.swift and Migration.swift beside
// this file), so generated plans run with data on Linux. Names that start with `_` are the
// simulator's machinery, not Apple's API.
// Foundation is imported, not re-exported, as in Apple's interface: a file that names `Date` must
// import Foundation itself (AppleSDKRefusalTests).
import Foundation
@_exported import Observation

// The newest SDK's requirements (iOS 26.2): `SendableMetatype` and `Root`, the class a subclass's
// rows belong to.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable, SendableMetatype {
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    associatedtype Root: PersistentModel = Self
    /// The object's values by property name; `@Model` routes every stored property through it.
    var _$backing: _StandInBacking { get }
    /// The entity as `@Model` read it from the class: what the checksum and the simulator use.
    static var _$entity: _StandInEntity { get }
    static func _$make(_ backing: _StandInBacking) -> AnyObject
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension PersistentModel {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var persistentModelID: PersistentIdentifier { PersistentIdentifier(_object: ObjectIdentifier(self)) }
    public var id: PersistentIdentifier { persistentModelID }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
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

    public class Attribute {
        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        public struct Option {
            let name: String
            public static var unique: Option { Option(name: "unique") }
            public static var externalStorage: Option { Option(name: "externalStorage") }
            public static var allowsCloudEncryption: Option { Option(name: "allowsCloudEncryption") }
            public static var preserveValueOnDeletion: Option { Option(name: "preserveValueOnDeletion") }
            public static var ephemeral: Option { Option(name: "ephemeral") }
            public static var spotlight: Option { Option(name: "spotlight") }
            public static func transformable(by transformerName: String) -> Option { Option(name: "transformable") }
            @available(macOS 27, iOS 27, tvOS 27, watchOS 27, visionOS 27, *)
            public static var codable: Option { Option(name: "codable") }
        }
    }

    public final class Relationship {
        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        public enum DeleteRule: String, Codable {
            case noAction, nullify, cascade, deny
        }

        @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        public struct Option {
            public static var unique: Option { Option() }
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public final class Index<T: PersistentModel> {
        public enum Types<P: PersistentModel> {
            case binary([PartialKeyPath<P>])
            case rtree([PartialKeyPath<P>])
        }
    }

    public let _models: [any PersistentModel.Type]
    public let version: Version

    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    /// The entity version hashes and checksum of these models (Simulator.swift).
    public var _identityText: String { _StandInSchemaInfo(_models).identityText }

    /// The models given and every model they reach through relationships, as SwiftData builds a
    /// schema (`ModelContainer(for: Trip.self)` stores Trip's related models too).
    public init(_ models: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        var all = models
        var seen = Set(models.map { ObjectIdentifier($0) })
        var index = 0
        while index < all.count {
            for property in all[index]._$entity.properties {
                var type = property.type
                if let optional = type as? any _StandInOptional.Type { type = optional._wrapped }
                if let sequence = type as? any _StandInSequence.Type { type = sequence._element }
                if let related = type as? any PersistentModel.Type, seen.insert(ObjectIdentifier(related)).inserted {
                    all.append(related)
                }
            }
            index += 1
        }
        self._models = all
        self.version = version
    }
}

// Apple's SDKs do not mark `Schema.Version` or `MigrationStage` Sendable, and neither is here: a
// public type is Sendable only where it says so, so Swift 6 mode rejects `static let
// versionIdentifier = Schema.Version(…)` here as it does there.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public protocol VersionedSchema: SendableMetatype {
    static var models: [any PersistentModel.Type] { get }
    static var versionIdentifier: Schema.Version { get }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public protocol SchemaMigrationPlan: SendableMetatype {
    static var schemas: [any VersionedSchema.Type] { get }
    static var stages: [MigrationStage] { get }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public enum MigrationStage {
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: ((ModelContext) throws -> Void)?, didMigrate: ((ModelContext) throws -> Void)?)
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@attached(extension, conformances: Observable, PersistentModel)
@attached(member, names: arbitrary)
@attached(memberAttribute)
public macro Model() = #externalMacro(module: "SwiftDataStandInMacros", type: "ModelMacro")

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@attached(accessor, names: named(init), named(get), named(set))
public macro _PersistedProperty() = #externalMacro(module: "SwiftDataStandInMacros", type: "PersistedPropertyMacro")

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@attached(accessor, names: named(init), named(get), named(set))
public macro _TransformablePersistedProperty() =
    #externalMacro(module: "SwiftDataStandInMacros", type: "TransformablePersistedPropertyMacro")

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@attached(peer)
public macro Attribute(
    _ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil
) =
    #externalMacro(module: "SwiftDataStandInMacros", type: "NoOpPeerMacro")

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option..., deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0, maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: AnyKeyPath? = nil, hashModifier: String? = nil
) = #externalMacro(module: "SwiftDataStandInMacros", type: "NoOpPeerMacro")

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
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

/// A model's identity across contexts; here, the object's.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct PersistentIdentifier: Hashable, Sendable {
    let _object: ObjectIdentifier
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
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

/// Not Sendable, as in Apple's SDK.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public struct ModelConfiguration {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    public struct CloudKitDatabase {
        public static var automatic: CloudKitDatabase { CloudKitDatabase() }
        public static var none: CloudKitDatabase { CloudKitDatabase() }
        public static func `private`(_ privateDBName: String) -> CloudKitDatabase { CloudKitDatabase() }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    public struct GroupContainer {
        public static var automatic: GroupContainer { GroupContainer() }
        public static var none: GroupContainer { GroupContainer() }
        public static func identifier(_ groupName: String) -> GroupContainer { GroupContainer() }
    }

    public let name: String
    public let isStoredInMemoryOnly: Bool
    /// A store in memory has `/dev/null` for its URL, as Core Data's in-memory stores do.
    public let url: URL

    public init(
        _ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true,
        groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.name = name ?? "default"
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.url = URL(fileURLWithPath: "/dev/null")
    }

    public init(
        _ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.name = name ?? "default"
        self.isStoredInMemoryOnly = false
        self.url = url
    }
}
