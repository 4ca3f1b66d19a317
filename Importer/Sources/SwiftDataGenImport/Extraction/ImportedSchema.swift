/// What the importer found in an app's Swift source: the stored shape of each model of each
/// schema version, as SwiftData would see it, and everything it could not carry.
public struct ImportedProject: Sendable, Equatable {
    public var versions: [ImportedVersion]
    /// The `SchemaMigrationPlan` type, when the app has one.
    public var migrationPlan: String?
    /// Its stages, in the order its `stages` lists them.
    public var stages: [ImportedStage] = []
    /// Models and enums declared outside any `VersionedSchema`: an app that never versioned.
    public var unversioned: ImportedVersion?
    public var notes: [ImportNote]
    /// Where each macro or attribute argument carried into the YAML is written (`file:line:col`);
    /// every other argument has a note at its position.
    public var carriedArguments: [String] = []
    /// Types and typealiases declared at module scope in the files read: names a generated
    /// module-scope declaration must not take.
    public var moduleNames: Set<String> = []
}

public struct ImportedVersion: Sendable, Equatable {
    /// The `VersionedSchema` type's name; nil for unversioned models.
    public var typeName: String?
    public var version: (major: Int, minor: Int, patch: Int)?
    public var enums: [ImportedEnum]
    public var structs: [ImportedStruct] = []
    public var models: [ImportedModel]
    public var location: SourcePosition
    /// `Model` and `Model.property` this version removed on purpose (a shipped Core Data model
    /// that dropped them: the data is gone on devices already).
    public var acknowledgedRemovals: [String] = []
    /// The schema's name with its enclosing types': `Schemas.V1`.
    public var qualifiedName: String?
    /// Module-scope typealiases naming this schema (`typealias CurrentSchema = SchemaV3`).
    public var aliases: [String] = []
    /// The classes its `models` lists, by qualified name (`Schemas.V1.Item`), in its order: what
    /// the importer resolved each entry to.
    public var listedModels: [String] = []
    /// The declarations read as this version's models, for the extractor's own bookkeeping.
    var modelDeclarations: [Int] = []

    public static func == (a: ImportedVersion, b: ImportedVersion) -> Bool {
        a.typeName == b.typeName
            && a.version.map { [$0.major, $0.minor, $0.patch] } == b.version.map { [$0.major, $0.minor, $0.patch] }
            && a.enums == b.enums && a.structs == b.structs && a.models == b.models && a.location == b.location
            && a.acknowledgedRemovals == b.acknowledgedRemovals && a.qualifiedName == b.qualifiedName
            && a.aliases == b.aliases
    }
}

public struct ImportedEnum: Sendable, Equatable {
    public var name: String
    /// `String`, `Int`, or `none` for a `Codable` enum without raw values.
    public var rawType: String
    /// Case names with the raw value as written (text for String enums, digits for Int), and the
    /// associated values of an enum without a raw type, each named by its label or `_0`, `_1`… by
    /// position where unlabeled (Swift's synthesized coding keys).
    public var cases: [(name: String, rawValue: String?, values: [ImportedStruct.Field])]
    public var location: SourcePosition

    public static func == (a: ImportedEnum, b: ImportedEnum) -> Bool {
        a.name == b.name && a.rawType == b.rawType && a.cases.map(\.name) == b.cases.map(\.name)
            && a.cases.map(\.rawValue) == b.cases.map(\.rawValue) && a.cases.map(\.values) == b.cases.map(\.values)
    }
}

/// A `Codable` struct a model stores as one attribute.
public struct ImportedStruct: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var typeName: String
        public var isOptional: Bool
        public var isArray: Bool
    }

    public var name: String
    public var fields: [Field]
    public var location: SourcePosition
}

public struct ImportedModel: Sendable, Equatable {
    public var name: String
    public var superclass: String?
    public var properties: [ImportedProperty]
    /// `#Unique` groups, by property name.
    public var uniqueGroups: [[String]]
    public var indexGroups: [[String]]
    public var doc: String?
    public var location: SourcePosition
    /// The class's access modifier as written; nil for none (internal).
    public var access: String?
    /// Models this one's properties or superclass name, for the extractor to read with it.
    var relatedDeclarations: [Int] = []

    public init(
        name: String, superclass: String? = nil, properties: [ImportedProperty], uniqueGroups: [[String]],
        indexGroups: [[String]], doc: String? = nil, location: SourcePosition, access: String? = nil
    ) {
        self.name = name
        self.superclass = superclass
        self.properties = properties
        self.uniqueGroups = uniqueGroups
        self.indexGroups = indexGroups
        self.doc = doc
        self.location = location
        self.access = access
    }

    public static func == (a: ImportedModel, b: ImportedModel) -> Bool {
        a.name == b.name && a.superclass == b.superclass && a.properties == b.properties
            && a.uniqueGroups == b.uniqueGroups && a.indexGroups == b.indexGroups && a.doc == b.doc
            && a.location == b.location && a.access == b.access
    }
}

/// One stored property, with the type as written.
public struct ImportedProperty: Sendable, Equatable {
    public enum DefaultValue: Sendable, Equatable {
        case string(String)
        /// Digits as written, with a leading `-` when negative.
        case number(String)
        case bool(Bool)
        case null
        case enumCase(String)
        case list([DefaultValue])
        /// Any other Swift expression, carried verbatim.
        case expression(String)
    }

    public var name: String
    /// The base type's name: `String`, `Trip`, `Status`.
    public var typeName: String
    public var isOptional: Bool
    public var isArray: Bool
    /// The key type of a dictionary `[Key: typeName]`; nil for anything else.
    public var dictionaryKey: String?
    public var defaultValue: DefaultValue?
    public var isTransient = false
    public var isUnique = false
    public var flags: [String] = []
    public var transformer: String?
    public var originalName: String?
    public var hashModifier: String?
    public var deleteRule: String?
    public var inverse: String?
    public var minimumCount: Int?
    public var maximumCount: Int?
    /// Written with `@Relationship(...)`: with the initial value, decides whether SwiftData pairs it
    /// with a relationship that points back without an inverse.
    public var isAnnotatedRelationship = false
    public var access: String?
    public var doc: String?
    public var location: SourcePosition
}

public struct SourcePosition: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public var description: String { "\(file):\(line):\(column)" }
}

/// Something in the source the YAML cannot carry (a method, a custom init, a computed property,
/// a hand-written stage), said with where it is so nothing is dropped silently. An error is what
/// makes the import wrong: a version that cannot be read, a stored shape the history would not
/// reproduce. Any error means nothing is written.
public struct ImportNote: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        case note, warning, error
    }

    public var position: SourcePosition
    public var message: String
    public var severity: Severity
    public var isError: Bool { severity == .error }

    public init(position: SourcePosition, message: String, isError: Bool = false) {
        self.init(position: position, message: message, severity: isError ? .error : .note)
    }

    public init(position: SourcePosition, message: String, severity: Severity) {
        self.position = position
        self.message = message
        self.severity = severity
    }

    public var description: String { "\(position): \(severity.rawValue): \(message)" }
}
