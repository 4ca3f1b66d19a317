import SwiftDataGenDSL

/// The resolved, validated model of a schema's history: what the planner and renderer consume.
/// Every name in here has been checked and every reference resolved.
public struct SchemaHistory: Sendable {
    public var name: String
    public var config: GeneratorConfig
    /// Oldest first.
    public var versions: [SchemaVersion]
    /// The hash modifiers the lock records for shipped schemas: the planner keeps each where it
    /// stands, even where today's planner would not add it, since a shipped checksum never changes.
    public var shippedModifiers: [ShippedModifier] = []

    public var latest: SchemaVersion? { versions.last }
}

/// A `hashModifier` a shipped schema (a version, or the bridge in front of one) carries.
public struct ShippedModifier: Sendable, Equatable {
    public var schema: MigrationPlan.SchemaReference
    public var model: String
    public var property: String
    public var modifier: String
}

/// Which versions sync with CloudKit: none, all, or those from the one that turned it on —
/// versions shipped before sync existed are not held to its rules.
public enum CloudKitSync: Sendable, Equatable {
    case off
    case everyVersion
    case from(SemanticVersion)

    public func applies(to version: SemanticVersion) -> Bool {
        switch self {
        case .off: return false
        case .everyVersion: return true
        case .from(let first): return version >= first
        }
    }
}

public struct GeneratorConfig: Sendable {
    public var platforms: [Platform: SemanticVersion]
    public var cloudKit: CloudKitSync
    public var access: AccessLevel
    public var naming: NamingConfig

    /// Floors assumed when the config names none: the first releases with SwiftData.
    public static let defaultPlatforms: [Platform: SemanticVersion] = [
        .iOS: SemanticVersion(17, 0, 0), .macOS: SemanticVersion(14, 0, 0),
    ]

    /// Releases that brought `#Unique` and `#Index`.
    static let uniqueMacroReleases: [Platform: Int] = [.iOS: 18, .macOS: 15, .tvOS: 18, .watchOS: 11, .visionOS: 2]
    /// Releases that brought model inheritance.
    static let inheritanceReleases: [Platform: Int] = [.iOS: 26, .macOS: 26, .tvOS: 26, .watchOS: 26, .visionOS: 26]

    public var supportsUniqueMacros: Bool { meets(Self.uniqueMacroReleases) }
    public var supportsInheritance: Bool { meets(Self.inheritanceReleases) }
    static let codableReleases: [Platform: Int] = [.iOS: 27, .macOS: 27, .tvOS: 27, .watchOS: 27, .visionOS: 27]
    public var supportsCodable: Bool { meets(Self.codableReleases) }

    /// Every platform the config names must be at or above the release.
    func meets(_ releases: [Platform: Int]) -> Bool {
        platforms.allSatisfy { platform, floor in floor.major >= releases[platform, default: Int.max] }
    }

    /// `iOS 18, macOS 15` for the platforms the config names, in a fixed order.
    func describe(_ releases: [Platform: Int]) -> String {
        Platform.allCases.filter { platforms[$0] != nil }.map { "\($0.rawValue) \(releases[$0, default: 0])" }.joined(
            separator: ", ")
    }
}

public struct SchemaVersion: Sendable {
    public var version: SemanticVersion
    /// The input file, relative to the schema folder.
    public var file: String
    public var location: SourceLocation
    public var enums: [EnumDecl]
    public var models: [ModelDecl]
    /// `Model` and `Model.property` removals the author says are intended.
    public var acknowledgedRemovals: Set<String> = []
    /// The author asks for a custom stage into this version, with hooks the team writes.
    public var customMigration = false
    /// Where the app's own custom stage into this version is, when its hooks hold the app's code.
    public var carriedFrom: String?
    /// `typeName:`: the versioned schema's name when it is not the derived one.
    public var typeName: String?
    /// `Codable` structs stored as composite attributes, in file order.
    public var structs: [StructDecl] = []

    public func structure(named name: String) -> StructDecl? { structs.first { $0.name == name } }

    /// Models renamed in this version: new name → the name in the previous version.
    public var renamedModels: [String: String] {
        Dictionary(
            models.compactMap { model in model.renamedFrom.map { (model.name, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    /// A struct's fields with every struct it holds spelled out, so two versions' structs compare
    /// equal only when everything stored inside them is (`origin:Point{x:Double,y:Double}`).
    public func compositeSignature(of name: String) -> [String]? {
        var visiting: Set<String> = []
        return compositeSignature(of: name, visiting: &visiting)
    }

    private func compositeSignature(of name: String, visiting: inout Set<String>) -> [String]? {
        guard let decl = structure(named: name) else { return nil }
        guard visiting.insert(name).inserted else { return ["\(name)…"] }
        defer { visiting.remove(name) }
        return zip(decl.fields, decl.signature).map { field, spelled in
            guard case .composite(let held) = field.type, let inner = compositeSignature(of: held, visiting: &visiting)
            else { return spelled }
            return spelled + "{" + inner.joined(separator: ",") + "}"
        }
    }

    /// The named structs and every struct they hold, in first-met order.
    public func structsHeld(by names: [String]) -> [String] {
        var result: [String] = []
        var pending = names
        while let name = pending.first {
            pending.removeFirst()
            guard !result.contains(name), let decl = structure(named: name) else { continue }
            result.append(name)
            for field in decl.fields { if case .composite(let held) = field.type { pending.append(held) } }
        }
        return result
    }
    /// Where each model was when the version was built. The planner and renderer look models up
    /// by name thousands of times; a hit is checked and a miss scanned for, so a version edited
    /// afterwards (a bridge adds models) still answers correctly.
    private let modelPositions: [String: Int]

    public init(
        version: SemanticVersion, file: String, location: SourceLocation, enums: [EnumDecl], models: [ModelDecl]
    ) {
        self.version = version
        self.file = file
        self.location = location
        self.enums = enums
        self.models = models
        modelPositions = Dictionary(
            models.indices.map { (models[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func model(named name: String) -> ModelDecl? {
        modelIndex(named: name).map { models[$0] }
    }

    public func modelIndex(named name: String) -> Int? {
        if let position = modelPositions[name], position < models.count, models[position].name == name {
            return position
        }
        return models.firstIndex { $0.name == name }
    }

    public func enumeration(named name: String) -> EnumDecl? { enums.first { $0.name == name } }
}

public struct EnumDecl: Sendable, Equatable {
    public struct Case: Sendable, Equatable {
        public var name: String
        /// Nil for an enum without a raw type.
        public var rawValue: LiteralValue?
        /// Associated values, each named by its coding key in Swift's synthesized `Codable`: its
        /// label, or `_0`, `_1`… by position where the case leaves it unlabeled (a label is never
        /// `_<its position>`, so the two cannot be confused).
        public var values: [StructDecl.Field] = []

        /// Whether the Swift case writes the value at `index` without a label.
        public func isUnlabeled(_ index: Int) -> Bool { values[index].name == "_\(index)" }
    }

    public var name: String
    /// Nil for an enum without a raw type (`rawType: none`), which SwiftData stores through its
    /// `Codable` conformance as a composite attribute whose elements are its associated values.
    public var rawType: ScalarType?
    public var cases: [Case]
    public var location: SourceLocation

    /// Cases with associated values: Swift synthesizes no `CaseIterable` for them.
    public var hasAssociatedValues: Bool { cases.contains { !$0.values.isEmpty } }
}

/// How duplicates are resolved when uniqueness is added over existing data.
public struct DedupePolicy: Sendable, Equatable {
    public var keepLast: Bool
    /// The stored attribute that orders duplicates; the first or last by it survives.
    public var orderBy: String
    /// False (the default) treats objects with a nil key as distinct, as a SQLite unique index
    /// does; true treats nil as one value and keeps one object per key.
    public var nilKeysAreEqual = false
    public var location: SourceLocation
}

public struct ModelDecl: Sendable, Equatable {
    public var name: String
    /// The model's name in the previous version, as written.
    public var renamedFrom: String?
    public var dedupe: DedupePolicy?
    public var superclass: String?
    public var properties: [Property]
    /// Key-path groups for `#Unique` (18+) — each group lists stored property names.
    public var uniqueGroups: [[String]]
    public var indexGroups: [[String]]
    public var doc: String?
    public var location: SourceLocation

    public func property(named name: String) -> Property? { property(named: name, near: 0) }

    /// The property `propertyIndex(named:near:)` finds.
    public func property(named name: String, near position: Int) -> Property? {
        propertyIndex(named: name, near: position).map { properties[$0] }
    }

    /// Looks from `position` on, wrapping around: a property mostly sits where its counterpart
    /// sat in the version before, so a walk over a model's properties finds each one at once.
    public func propertyIndex(named name: String, near position: Int = 0) -> Int? {
        let count = properties.count
        // Compares names in place rather than copying every property into a predicate, and their
        // lengths first: an unequal String comparison costs a call into the runtime.
        let length = name.utf8.count
        var index = position > 0 && position < count ? position : 0
        for _ in 0..<count {
            let candidate = properties[index].name
            if candidate.utf8.count == length && candidate == name { return index }
            index = index + 1 == count ? 0 : index + 1
        }
        return nil
    }
}

public enum ScalarType: String, CaseIterable, Sendable {
    case string = "String"
    case bool = "Bool"
    case int = "Int"
    case int8 = "Int8"
    case int16 = "Int16"
    case int32 = "Int32"
    case int64 = "Int64"
    case uint = "UInt"
    case uint8 = "UInt8"
    case uint16 = "UInt16"
    case uint32 = "UInt32"
    case uint64 = "UInt64"
    case double = "Double"
    case float = "Float"
    case decimal = "Decimal"
    case date = "Date"
    case data = "Data"
    case uuid = "UUID"
    case url = "URL"

    /// Other spellings apps use for the same storage, kept as written in the generated code.
    /// `CGFloat` is a `Double` only where it is 64 bits: not on watchOS (arm64_32).
    public static let spellings: [String: ScalarType] = ["TimeInterval": .double, "CGFloat": .double]

    /// `spellings[name]` without hashing the name, which every type that is not a scalar (each
    /// enum, struct and model named in a version) was looked up by.
    public static func spelled(_ name: String) -> ScalarType? {
        for (spelling, type) in spellingList where spelling.utf8.count == name.utf8.count && spelling == name {
            return type
        }
        return nil
    }

    private static let spellingList = spellings.sorted { $0.key < $1.key }

    /// `init(rawValue:)` by one number per name: every attribute of every version is looked up,
    /// and comparing its type's name with each case's was a call into the runtime per case.
    public static func named(_ name: String) -> ScalarType? {
        guard let key = packed(name) else {
            // Longer than any case, or not ASCII: the canonical comparison decides.
            return name.utf8.count > 7 && name.utf8.allSatisfy({ $0 < 0x80 }) ? nil : ScalarType(rawValue: name)
        }
        for (candidate, type) in byPackedName where candidate == key { return type }
        return nil
    }

    private static let byPackedName: [(UInt64, ScalarType)] = allCases.compactMap { type in
        packed(type.rawValue).map { ($0, type) }
    }

    /// An ASCII name of at most seven bytes as one number, its length in the top byte.
    private static func packed(_ name: String) -> UInt64? {
        var name = name
        return name.withUTF8 { bytes in
            guard bytes.count <= 7 else { return nil }
            var value: UInt64 = 0
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                value = value << 8 | UInt64(byte)
            }
            return value | UInt64(bytes.count) << 56
        }
    }

    var isInteger: Bool { rawValue.contains("Int") }
    var isFloatingPoint: Bool { self == .double || self == .float || self == .decimal }
    /// Comparable on every SwiftData platform, so a `SortDescriptor` can order by it.
    var isSortable: Bool {
        switch self {
        case .bool, .data, .url: return false
        default: return true
        }
    }
}

public enum ValueType: Sendable, Equatable {
    case scalar(ScalarType)
    /// Stored as `storage` says. Out of line, so that a `ValueType` (and every `Property`) stays a word.
    /// `rawType` is nil for an enum without one, which is always stored as itself.
    indirect case enumeration(name: String, rawType: ScalarType?, storage: EnumStorage)
    /// A `Codable` struct of the version (`structs:`), stored as one composite attribute.
    indirect case composite(name: String)
    /// `[String: Struct]`: SwiftData encodes the whole dictionary into one Binary attribute.
    indirect case dictionary(key: ScalarType, value: String)
}

/// A `Codable` struct of one version, frozen with it like its models.
public struct StructDecl: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public var name: String
        /// A scalar, an enum or another struct of the version.
        public var type: ValueType
        public var isOptional: Bool
        public var isArray: Bool
        /// `TimeInterval`, `CGFloat`: kept as written.
        public var spelling: String?
    }

    public var name: String
    public var fields: [Field]
    public var location: SourceLocation

    /// The fields as their Swift declarations read, for comparing two versions' structs.
    public var signature: [String] { fields.map(\.signature) }
}

extension StructDecl.Field {
    /// `name:Type` as the Swift declaration reads, `?` and `[…]` included.
    public var signature: String {
        let base: String
        switch type {
        case .scalar(let scalar): base = spelling ?? scalar.rawValue
        case .enumeration(let name, _, _), .composite(let name): base = name
        case .dictionary(let key, let value): base = "[\(key.rawValue): \(value)]"
        }
        return "\(name):" + (isArray ? "[\(base)]" : base) + (isOptional ? "?" : "")
    }
}

extension EnumDecl.Case {
    /// The case name, followed by its associated values (`every(days:Int)`) where it has any.
    public var signature: String {
        values.isEmpty ? name : name + "(" + values.map(\.signature).joined(separator: ",") + ")"
    }
}

public struct Relationship: Sendable, Equatable {
    public var target: String
    public var isToMany: Bool
    public var deleteRule: DeleteRule
    /// The property on `target` that points back, whichever side declared it.
    public var inverse: String?
    /// `@Relationship(inverse:)` goes on one side only; this is that side.
    public var declaresInverse: Bool
    public var minCount: Int?
    public var maxCount: Int?
}

extension PropertyKind {
    /// An enum kept in a raw-value property of its own, behind a typed accessor.
    public var storesEnumRawValue: Bool {
        if case .attribute(.enumeration(_, _, .rawValue), _) = self { return true }
        return false
    }

    /// A `Codable` struct of the version (`structs:`).
    public var isComposite: Bool {
        if case .attribute(.composite, _) = self { return true }
        return false
    }

    /// An enum stored as itself (`enumStorage: value`).
    public var storesEnumItself: Bool {
        if case .attribute(.enumeration(_, _, .value), _) = self { return true }
        return false
    }
}

public enum PropertyKind: Sendable, Equatable {
    case attribute(ValueType, isArray: Bool)
    /// Out of line: relationships are the larger, rarer payload, and a history holds tens of
    /// thousands of properties.
    indirect case relationship(Relationship)
}

public indirect enum LiteralValue: Sendable, Hashable {
    case string(String)
    case integer(String)
    case float(String)
    case bool(Bool)
    case null
    case enumCase(String)
    case date(secondsSince1970: String)
    case uuid(String)
    case url(String)
    case decimal(String)
    case array([LiteralValue])
}

public enum DefaultValue: Sendable, Equatable {
    case literal(LiteralValue)
    /// Raw Swift from `expression:`, inserted as written. Out of line, like the literals, so a
    /// default costs a `Property` one word.
    indirect case expression(String)
}

public struct Conversion: Sendable, Equatable {
    public var sourceProperty: String
    /// A Swift expression over `$0`, the old value; nil when the value moves unchanged.
    public var expression: String?
    /// For text turned into a relationship: the related model's attribute that holds the text.
    public var matchKey: String?
    public var location: SourceLocation
}
