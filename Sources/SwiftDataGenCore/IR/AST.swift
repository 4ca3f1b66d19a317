import SwiftDataGenDSL

/// The DSL as written, before names are resolved: every value keeps where it was written so the
/// validator can point at it.
public struct Located<Value: Sendable>: Sendable {
    public var value: Value
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Equatable where Value: Equatable {}

/// `major.minor.patch`, the shape `Schema.Version` takes.
public struct SemanticVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int

    public init(_ major: Int, _ minor: Int, _ patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Accepts `3`, `3.1` and `3.1.2`; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 6, part.allSatisfy(\.isASCIIDigit), let n = Int(part) else { return nil }
            numbers.append(n)
        }
        while numbers.count < 3 { numbers.append(0) }
        self.init(numbers[0], numbers[1], numbers[2])
    }

    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (a: SemanticVersion, b: SemanticVersion) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
}

/// A type as spelled in the DSL: `String`, `Trip?`, `[Stop]`, `[String]?`.
public struct TypeSpelling: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var isArray: Bool
    public var isOptional: Bool

    public init(name: String, isArray: Bool = false, isOptional: Bool = false) {
        self.name = name
        self.isArray = isArray
        self.isOptional = isOptional
    }

    /// Parses the spellings above; nil for anything else (dictionaries, nested optionals, generics).
    public init?(parsing raw: String) {
        var bytes = raw.utf8[...]
        func trim(_ slice: inout Substring.UTF8View.SubSequence) {
            while let first = slice.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                slice.removeFirst()
            }
            while let last = slice.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { slice.removeLast() }
        }
        trim(&bytes)
        var optional = false
        if bytes.last == UInt8(ascii: "?") {
            optional = true
            bytes.removeLast()
        }
        var array = false
        if bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") {
            array = true
            bytes.removeFirst()
            bytes.removeLast()
            trim(&bytes)
        }
        let name = String(decoding: bytes, as: UTF8.self)
        guard Identifier.isValid(name) else { return nil }
        self.init(name: name, isArray: array, isOptional: optional)
    }

    public var description: String {
        let base = isArray ? "[\(name)]" : name
        return isOptional ? base + "?" : base
    }
}

public enum Platform: String, CaseIterable, Sendable, Hashable {
    case iOS, macOS, tvOS, watchOS, visionOS
}

public enum AccessLevel: String, CaseIterable, Sendable {
    case `internal`, `public`, `package`
}

/// `access:` on a property: its stored declaration's access, when not the config's.
public enum PropertyAccess: String, CaseIterable, Sendable {
    case `private`, `fileprivate`, `internal`, `package`, `public`

    /// Out of reach of the upgrade tests, which live in another file.
    var isFilePrivate: Bool { self == .private || self == .fileprivate }
}

public enum DeleteRule: String, CaseIterable, Sendable {
    case cascade, nullify, deny, noAction
}

/// How a property of enum type is stored (`enumStorage:`).
public enum EnumStorage: String, CaseIterable, Sendable {
    /// The raw value in a stored property of its own (`statusRawValue`), with a typed accessor:
    /// the one that works in `#Predicate`.
    case rawValue
    /// The enum itself (`var status: Status`), as most apps declare it.
    case value
}

/// The `Schema.Attribute.Option`s that take no argument, as the DSL spells them.
public enum AttributeFlag: String, CaseIterable, Sendable {
    case externalStorage, spotlight, preserveValueOnDeletion, allowsCloudEncryption, ephemeral
}

public struct NamingConfig: Sendable, Equatable {
    /// `Trips` + `Schema` gives `TripsSchema` (the current-version alias) and `TripsSchemaV3`.
    public var schemaSuffix = "Schema"
    public var versionPrefix = "V"
    public var migrationPlanSuffix = "MigrationPlan"
    /// Suffix of the stored property that holds an enum's raw value.
    public var rawValueSuffix = "RawValue"
    /// Full names, where an app's existing names are not the derived ones.
    public var currentSchema: String?
    public var migrationPlan: String?

    public init() {}

    /// The name the store holds a property under: `storedName:` when written; an enum stored by
    /// raw value gets the suffix; otherwise the property's own name.
    public func storedName(_ property: Property) -> String {
        if let stored = property.storedName { return stored }
        return property.kind.storesEnumRawValue ? property.name + rawValueSuffix : property.name
    }

    /// The stored name `property` would have under the Swift name `name`, with no `storedName:`:
    /// how identifiers are made for names that are not, or no longer, declared.
    public func storedName(of property: Property, named name: String) -> String {
        var renamed = property
        renamed.name = name
        renamed.storedName = nil
        return storedName(renamed)
    }
}

public struct ConfigFile: Sendable {
    public var file: String
    public var platforms: [Platform: Located<SemanticVersion>] = [:]
    public var cloudKit = CloudKitSync.off
    /// Where `cloudKit: { from: … }` names its first version, for diagnostics.
    public var cloudKitLocation: SourceLocation?
    public var access: AccessLevel = .internal
    public var naming = NamingConfig()

    public init(file: String) { self.file = file }
}

public struct VersionFile: Sendable {
    public var file: String
    public var schema: Located<String>
    public var version: Located<SemanticVersion>
    public var enums: [EnumAST]
    public var models: [ModelAST]
    /// `Model` or `Model.property` entries whose removal in this version is intended.
    public var acknowledgedRemovals: [Located<String>] = []
    /// Asks for a custom stage into this version that calls hooks the team writes.
    public var customMigration: Located<Bool>?
    /// The versioned schema's type name, where an app's existing name is not the derived one.
    public var typeName: Located<String>?
    public var structs: [StructAST] = []
}

public struct EnumAST: Sendable {
    public struct Case: Sendable {
        public var name: Located<String>
        /// The raw value as written, or nil when it is the case name.
        public var rawValue: Located<String>?
    }

    public var name: Located<String>
    public var rawType: Located<String>
    public var cases: [Case]
}

/// `structs:`: a `Codable` struct stored as one attribute (a composite attribute), with its fields.
public struct StructAST: Sendable {
    public struct Field: Sendable {
        public var name: Located<String>
        public var type: Located<TypeSpelling>
    }

    public var name: Located<String>
    public var fields: [Field]
}

/// `dedupe:` on a model: which object survives when uniqueness is added over existing data.
public struct DedupeAST: Sendable {
    public var keepLast: Located<Bool>
    public var orderBy: Located<String>
    public var nilKeysAreEqual: Located<Bool>?
}

public struct ModelAST: Sendable {
    public var name: Located<String>
    public var renamedFrom: Located<String>?
    public var dedupe: DedupeAST?
    public var superclass: Located<String>?
    public var unique: [Located<[Located<String>]>]
    public var indexes: [Located<[Located<String>]>]
    public var properties: [PropertyAST]
    public var doc: String?
}

/// `from:` on a property: where its data comes from in the previous version.
public struct ConversionAST: Sendable {
    public var property: Located<String>
    public var convert: Located<String>?
    /// For a text property turned into a relationship: the related model's property that holds the text.
    public var match: Located<String>?
    public var location: SourceLocation
}

public struct PropertyAST: Sendable {
    public var name: Located<String>
    /// The keys written, where: what stages that check where a key may stand read.
    public var writtenKeys: [(key: PropertyKey, location: SourceLocation)] {
        get { self[rare: \.writtenKeys] ?? [] }
        set { self[rare: \.writtenKeys] = newValue.isEmpty ? nil : newValue }
    }
    public var type: Located<TypeSpelling>
    public var defaultValue: YAMLNode?
    public var renamedFrom: Located<String>?
    public var flags: [Located<AttributeFlag>]
    public var expression: Located<String>? {
        get { self[rare: \.expression] }
        set { self[rare: \.expression] = newValue }
    }
    public var transient: Located<Bool>? {
        get { self[rare: \.transient] }
        set { self[rare: \.transient] = newValue }
    }
    public var unique: Located<Bool>? {
        get { self[rare: \.unique] }
        set { self[rare: \.unique] = newValue }
    }
    public var transformer: Located<String>? {
        get { self[rare: \.transformer] }
        set { self[rare: \.transformer] = newValue }
    }
    public var deleteRule: Located<DeleteRule>? {
        get { self[rare: \.deleteRule] }
        set { self[rare: \.deleteRule] = newValue }
    }
    public var inverse: Located<String>? {
        get { self[rare: \.inverse] }
        set { self[rare: \.inverse] = newValue }
    }
    /// `inverse: false`: a relationship one-way on purpose, which SDG206 leaves alone.
    public var oneWay: SourceLocation? {
        get { self[rare: \.oneWay] }
        set { self[rare: \.oneWay] = newValue }
    }
    public var minCount: Located<Int>? {
        get { self[rare: \.minCount] }
        set { self[rare: \.minCount] = newValue }
    }
    public var maxCount: Located<Int>? {
        get { self[rare: \.maxCount] }
        set { self[rare: \.maxCount] = newValue }
    }
    public var from: ConversionAST? {
        get { self[rare: \.from] }
        set { self[rare: \.from] = newValue }
    }
    public var hashModifier: Located<String>? {
        get { self[rare: \.hashModifier] }
        set { self[rare: \.hashModifier] = newValue }
    }
    public var storedName: Located<String>? {
        get { self[rare: \.storedName] }
        set { self[rare: \.storedName] = newValue }
    }
    public var access: Located<PropertyAccess>? {
        get { self[rare: \.access] }
        set { self[rare: \.access] = newValue }
    }
    public var enumStorage: Located<EnumStorage>? {
        get { self[rare: \.enumStorage] }
        set { self[rare: \.enumStorage] = newValue }
    }
    public var doc: String? {
        get { self[rare: \.doc] }
        set { self[rare: \.doc] = newValue }
    }

    /// The options most properties leave out, out of line: a file's AST is alive while it is
    /// resolved, one per core, and these would triple its size.
    private struct Rare: Sendable {
        var expression: Located<String>?
        var transient: Located<Bool>?
        var unique: Located<Bool>?
        var transformer: Located<String>?
        var deleteRule: Located<DeleteRule>?
        var inverse: Located<String>?
        var oneWay: SourceLocation?
        var writtenKeys: [(key: PropertyKey, location: SourceLocation)]?
        var minCount: Located<Int>?
        var maxCount: Located<Int>?
        var from: ConversionAST?
        var hashModifier: Located<String>?
        var storedName: Located<String>?
        var enumStorage: Located<EnumStorage>?
        var access: Located<PropertyAccess>?
        var doc: String?
    }

    private var rare: OutOfLine<Rare>?

    /// One out-of-line field; no box is made to hold a nil.
    private subscript<Value>(rare field: WritableKeyPath<Rare, Value?>) -> Value? {
        get { rare?.value[keyPath: field] }
        set {
            guard newValue != nil || rare != nil else { return }
            var value = rare?.value ?? Rare()
            value[keyPath: field] = newValue
            rare = OutOfLine(value)
        }
    }

    public init(name: Located<String>, type: Located<TypeSpelling>) {
        self.name = name
        self.type = type
        self.flags = []
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
