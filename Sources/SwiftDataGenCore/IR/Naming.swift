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

    func all(for versions: [SemanticVersion]) -> Set<String> {
        Set([currentSchema, migrationPlan] + versions.map(versionedSchema))
    }
}
