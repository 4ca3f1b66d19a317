/// The Swift names the generator gives to what it declares, derived in one place so the
/// validator (which rejects clashes) and the renderer (which emits them) always agree.
public struct GeneratedNames: Sendable {
    public var schema: String
    public var naming: NamingConfig

    public init(schema: String, naming: NamingConfig) {
        self.schema = schema
        self.naming = naming
    }

    /// `TripsSchema`: the alias app code uses for the current version.
    public var currentSchema: String { schema + naming.schemaSuffix }
    public var migrationPlan: String { schema + naming.migrationPlanSuffix }

    /// `TripsSchemaV3` for 3.0.0, `TripsSchemaV3_1` for 3.1.0, `TripsSchemaV3_1_2` for 3.1.2.
    public func versionedSchema(_ version: SemanticVersion) -> String {
        var name = currentSchema + naming.versionPrefix + String(version.major)
        if version.minor != 0 || version.patch != 0 { name += "_\(version.minor)" }
        if version.patch != 0 { name += "_\(version.patch)" }
        return name
    }

    public func rawValueProperty(_ property: String) -> String { property + naming.rawValueSuffix }

    /// `TripsSchemaV3Bridge`: the generated schema a two-stage step into 3.0.0 passes through.
    public func bridge(into version: SemanticVersion) -> String { versionedSchema(version) + "Bridge" }

    /// The user-owned type whose static functions the hook stages call.
    public var hooks: String { schema + "MigrationHooks" }

    /// `V3`, `V3_1`: the version part of a versioned schema's name, for function names.
    public func versionSuffix(_ version: SemanticVersion) -> String {
        String(versionedSchema(version).dropFirst(currentSchema.count))
    }

    /// Where a bridge keeps a value converted in place until the next stage renames it back.
    public static func convertedProperty(_ name: String) -> String { name + "Converted" }

    func all(for versions: [SemanticVersion]) -> Set<String> {
        Set([currentSchema, migrationPlan, hooks] + versions.map(versionedSchema) + versions.map(bridge(into:)))
    }
}
