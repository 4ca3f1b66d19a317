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
    /// The key type of `[Key: Name]`, a dictionary of `name` values; nil for anything else.
    public var dictionaryKey: String?

    public init(name: String, isArray: Bool = false, isOptional: Bool = false, dictionaryKey: String? = nil) {
        self.name = name
        self.isArray = isArray
        self.isOptional = isOptional
        self.dictionaryKey = dictionaryKey
    }

    /// Parses the spellings above and `[Key: Name]`, `[Key: Name]?`; nil for anything else (nested
    /// optionals, generics).
    public init?(parsing raw: String) {
        // Most spellings are a bare name, or a name and `?`: nothing to trim or take apart.
        if Identifier.isValid(raw) {
            self.init(name: raw)
            return
        }
        if raw.utf8.last == UInt8(ascii: "?"), case let name = String(raw.dropLast()), Identifier.isValid(name) {
            self.init(name: name, isOptional: true)
            return
        }
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
        var key: String?
        if bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") {
            array = true
            bytes.removeFirst()
            bytes.removeLast()
            trim(&bytes)
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                var keyBytes = bytes[..<colon]
                trim(&keyBytes)
                key = String(decoding: keyBytes, as: UTF8.self)
                bytes = bytes[bytes.index(after: colon)...]
                trim(&bytes)
                array = false
            }
        }
        let name = String(decoding: bytes, as: UTF8.self)
        guard Identifier.isValid(name), key.map(Identifier.isValid) ?? true else { return nil }
        self.init(name: name, isArray: array, isOptional: optional, dictionaryKey: key)
    }

    public var description: String {
        let base = dictionaryKey.map { "[\($0): \(name)]" } ?? (isArray ? "[\(name)]" : name)
        return isOptional ? base + "?" : base
    }
}

public enum Platform: String, CaseIterable, Sendable, Hashable {
    case iOS, macOS, tvOS, watchOS, visionOS
}

public enum AccessLevel: String, CaseIterable, Sendable {
    case `internal`, `public`, `package`
}

extension PropertyAccess {
    /// Out of reach of the upgrade tests, which live in another file.
    var isFilePrivate: Bool { self == .private || self == .fileprivate }
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
    /// Where the app's own custom stage into this version is (`Plan.swift:42`), for an imported history.
    public var carriedFrom: Located<String>?
    /// The versioned schema's type name, where an app's existing name is not the derived one.
    public var typeName: Located<String>?
    public var structs: [StructAST] = []
}

public struct EnumAST: Sendable {
    public struct Case: Sendable {
        public var name: Located<String>
        /// The raw value as written, or nil when it is the case name.
        public var rawValue: Located<String>?
        /// The associated values (`every: { days: Int }`), in order; empty for a case without.
        public var values: [Value] = []
    }

    /// One associated value: `label: Type`, or a type alone for an unlabeled one.
    public struct Value: Sendable {
        public var label: Located<String>?
        public var type: Located<TypeSpelling>
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
    public var unique: [Located<[Located<String>]>] = []
    public var indexes: [Located<[Located<String>]>] = []
    public var properties: [PropertyAST] = []
    public var doc: String?

    /// A model with no key yet; the decoder reads each key into it.
    public init(name: Located<String>) { self.name = name }
}

/// `from:` on a property: where its data comes from in the previous version.
public struct ConversionAST: Sendable {
    public var property: Located<String>
    public var convert: Located<String>?
    /// For a text property turned into a relationship: the related model's property that holds the text.
    public var match: Located<String>?
    public var location: SourceLocation
}

/// A key's value as decoded by its declared kind (`PropertyKey.Value`).
public enum KeyValue: Sendable {
    case flag(Bool)
    case text(String)
    case integer(Int)
    /// A literal, read once the property's type is known. Boxed, as is a conversion, so that a
    /// written key stays small to copy.
    indirect case literal(YAMLNode)
    indirect case conversion(ConversionAST)
    /// `inverse: false`.
    case oneWay
}

public struct PropertyAST: Sendable {
    /// One key as written: where the key stands, and its value where it decoded (nil after an error,
    /// which the decoder has reported; the key still counts as written for placement checks).
    public struct WrittenKey: Sendable {
        public var key: PropertyKey
        public var keyLocation: SourceLocation
        public var value: Located<KeyValue>?
    }

    public var name: Located<String>
    public var type: Located<TypeSpelling>
    /// Every key written (`type` too), in `PropertyKey` order; stages read them through the accessors below,
    /// or `self[key]` for a key with no accessor of its own.
    public var written: [WrittenKey] = []

    public init(name: Located<String>, type: Located<TypeSpelling>) {
        self.name = name
        self.type = type
    }

    public subscript(key: PropertyKey) -> Located<KeyValue>? {
        for index in written.indices where written[index].key == key { return written[index].value }
        return nil
    }

    /// The keys written that belong to `position`, where: an option at its key, any other at its
    /// value (what placement checks show). Mostly there are none, and then no list is built.
    public func writtenKeys(for position: PropertyKey.Position) -> [(key: PropertyKey, location: SourceLocation)] {
        var keys: [(key: PropertyKey, location: SourceLocation)] = []
        for entry in written where entry.key.position == position {
            let location = entry.key.value == .option ? entry.keyLocation : entry.value?.location ?? entry.keyLocation
            keys.append((entry.key, location))
        }
        return keys
    }

    public func text(_ key: PropertyKey) -> Located<String>? {
        guard let value = self[key], case .text(let text) = value.value else { return nil }
        return Located(text, at: value.location)
    }

    public func flag(_ key: PropertyKey) -> Located<Bool>? {
        guard let value = self[key], case .flag(let flag) = value.value else { return nil }
        return Located(flag, at: value.location)
    }

    public func integer(_ key: PropertyKey) -> Located<Int>? {
        guard let value = self[key], case .integer(let number) = value.value else { return nil }
        return Located(number, at: value.location)
    }

    /// A `choice` key's value as its enum; the decoder has checked it is one of the options.
    public func choice<T: RawRepresentable>(_ key: PropertyKey, as type: T.Type) -> Located<T>?
    where T.RawValue == String {
        text(key).flatMap { text in T(rawValue: text.value).map { Located($0, at: text.location) } }
    }

    public var defaultValue: YAMLNode? {
        guard case .literal(let node) = self[.default]?.value else { return nil }
        return node
    }
    public var from: ConversionAST? {
        guard case .conversion(let conversion) = self[.from]?.value else { return nil }
        return conversion
    }
    /// `inverse: false`: a relationship one-way on purpose, which SDG206 leaves alone.
    public var oneWay: SourceLocation? {
        guard let value = self[.inverse], case .oneWay = value.value else { return nil }
        return value.location
    }
    /// The option keys (`PropertyKey.Value.option`) written `true`, each at its key.
    /// An option written as `true`, where its key stands: one of `flags`, found without building them.
    public func option(_ key: PropertyKey) -> Located<PropertyKey>? {
        for entry in written where entry.key == key {
            guard entry.key.value == .option, case .flag(true) = entry.value?.value else { return nil }
            return Located(entry.key, at: entry.keyLocation)
        }
        return nil
    }

    public var flags: [Located<PropertyKey>] {
        written.compactMap { entry in
            guard entry.key.value == .option, case .flag(true) = entry.value?.value else { return nil }
            return Located(entry.key, at: entry.keyLocation)
        }
    }
    public var expression: Located<String>? { text(.expression) }
    public var renamedFrom: Located<String>? { text(.renamedFrom) }
    public var transient: Located<Bool>? { flag(.transient) }
    public var unique: Located<Bool>? { flag(.unique) }
    public var transformer: Located<String>? { text(.transformable) }
    public var deleteRule: Located<DeleteRule>? { choice(.deleteRule, as: DeleteRule.self) }
    public var inverse: Located<String>? { text(.inverse) }
    public var minCount: Located<Int>? { integer(.minCount) }
    public var maxCount: Located<Int>? { integer(.maxCount) }
    public var hashModifier: Located<String>? { text(.hashModifier) }
    public var storedName: Located<String>? { text(.storedName) }
    public var access: Located<PropertyAccess>? { choice(.access, as: PropertyAccess.self) }
    public var enumStorage: Located<EnumStorage>? { choice(.enumStorage, as: EnumStorage.self) }
    public var doc: String? { text(.doc)?.value }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
