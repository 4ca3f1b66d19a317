/// Every key of the config file (`swiftdata-gen.yaml`), declared once: the decoder reads each
/// through an exhaustive switch, and the documentation's config table is generated from these with
/// `NamingKey`'s rows after `naming`'s (DSLKeyTests).
public enum ConfigKey: String, CaseIterable, Sendable {
    case platforms, cloudKit, access, naming

    /// What the key means, in Markdown.
    public var documentation: String {
        switch self {
        case .platforms: return "floors per OS: `{ iOS: 17, macOS: 14, tvOS: …, watchOS: …, visionOS: … }`"
        case .cloudKit:
            return "`true` turns on the CloudKit rules (see below) for every version; `{ from: 10.0.0 }` for the "
                + "versions from that one on, for an app that turned sync on later (its earlier versions shipped "
                + "without it and are not held to the rules). A step between two syncing versions that removes, "
                + "renames or retypes something is warned (SDG505): CloudKit's schema only grows"
        case .access: return "`internal`, `public` or `package`: the access of every generated declaration"
        case .naming: return "the names of the generated types, where the derived ones are not wanted: the keys below"
        }
    }

    /// What applies when the key is not written, in Markdown.
    public var defaultValue: String {
        switch self {
        case .platforms: return "`iOS: 17, macOS: 14`"
        case .cloudKit: return "`false`"
        case .access: return "`internal`"
        case .naming: return "derived from `schema`"
        }
    }
}

/// The keys of `naming:` in the config file.
public enum NamingKey: String, CaseIterable, Sendable {
    case schemaSuffix, versionPrefix, migrationPlanSuffix, rawValueSuffix, currentSchema, migrationPlan

    /// What the key means, in Markdown.
    public var documentation: String {
        switch self {
        case .schemaSuffix: return "`Trips` + `Schema` → `TripsSchema`, `TripsSchemaV3`"
        case .versionPrefix: return "`TripsSchema` + `V` + `3` → `TripsSchemaV3`"
        case .migrationPlanSuffix: return "`Trips` + `MigrationPlan`"
        case .rawValueSuffix: return "stored property of an enum: `status` + `RawValue`"
        case .currentSchema:
            return "full name of the current-version alias, where the derived one is not wanted"
        case .migrationPlan: return "full name of the migration plan (`MigrationPlan`)"
        }
    }

    /// What applies when the key is not written, in Markdown.
    public var defaultValue: String {
        switch self {
        case .schemaSuffix: return "`Schema`"
        case .versionPrefix: return "`V`"
        case .migrationPlanSuffix: return "`MigrationPlan`"
        case .rawValueSuffix: return "`RawValue`"
        case .currentSchema: return "`<schema><schemaSuffix>`"
        case .migrationPlan: return "`<schema><migrationPlanSuffix>`"
        }
    }
}
