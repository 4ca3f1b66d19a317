/// The Swift names the generator gives to what it declares, derived in one place so the
/// validator (which rejects clashes) and the renderer (which emits them) always agree.
public struct GeneratedNames: Sendable {
    public var schema: String
    public var naming: NamingConfig
    /// Versioned schemas named in their files (`typeName:`), by version.
    public var typeNames: [SemanticVersion: String]

    public init(schema: String, naming: NamingConfig, typeNames: [SemanticVersion: String] = [:]) {
        self.schema = schema
        self.naming = naming
        self.typeNames = typeNames
    }

    /// The names of `history`, its versions' `typeName:` included.
    public init(history: SchemaHistory) {
        self.init(schema: history.name, naming: history.config.naming, versions: history.versions)
    }

    public init(schema: String, naming: NamingConfig, versions: [SchemaVersion]) {
        var typeNames: [SemanticVersion: String] = [:]
        for version in versions { if let name = version.typeName { typeNames[version.version] = name } }
        self.init(schema: schema, naming: naming, typeNames: typeNames)
    }

    /// `TripsSchema`: what every derived versioned-schema name starts with.
    public var stem: String { schema + naming.schemaSuffix }
    /// `TripsSchema`: the alias app code uses for the current version.
    public var currentSchema: String { naming.currentSchema ?? stem }
    public var migrationPlan: String { naming.migrationPlan ?? schema + naming.migrationPlanSuffix }

    /// `TripsSchemaV3` for 3.0.0, `TripsSchemaV3_1` for 3.1.0, `TripsSchemaV3_1_2` for 3.1.2;
    /// the file's `typeName:` where it has one.
    public func versionedSchema(_ version: SemanticVersion) -> String {
        typeNames[version] ?? stem + versionSuffix(version)
    }

    public func rawValueProperty(_ property: String) -> String { property + naming.rawValueSuffix }

    /// `TripsSchemaV3Bridge`: the generated schema a two-stage step into 3.0.0 passes through.
    public func bridge(into version: SemanticVersion) -> String { versionedSchema(version) + "Bridge" }

    /// The user-owned type whose static functions the hook stages call.
    public var hooks: String { schema + "MigrationHooks" }

    /// `V3`, `V3_1`: the version part of a derived versioned-schema name, for function names and
    /// generated identifiers (never taken from `typeName:`, so those stay stable).
    public func versionSuffix(_ version: SemanticVersion) -> String {
        var suffix = naming.versionPrefix + String(version.major)
        if version.minor != 0 || version.patch != 0 { suffix += "_\(version.minor)" }
        if version.patch != 0 { suffix += "_\(version.patch)" }
        return suffix
    }

    /// Where a bridge keeps a value converted in place until the next stage renames it back.
    public static func convertedProperty(_ name: String) -> String { name + "Converted" }

    /// Where a bridge keeps a relationship moved to a renamed model's copies until the next
    /// stage, which reads it back under the relationship's name.
    public static func relinkedProperty(_ name: String) -> String { name + "Relinked" }

    /// The bridge-only link from an object of a renamed model to its copy: `labelCopy`.
    public static func copyLink(to model: String) -> String { SwiftLiteral.lowerFirst(model) + "Copy" }

    func all(for versions: [SemanticVersion]) -> Set<String> {
        Set([currentSchema, migrationPlan, hooks] + versions.map(versionedSchema) + versions.map(bridge(into:)))
    }
}
