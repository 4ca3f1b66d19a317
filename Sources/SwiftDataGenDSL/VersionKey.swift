/// Every key a version file may have, declared once: the decoder accepts these and no other,
/// the documentation's version key table is generated from them, and DSLKeyTests requires each to change what
/// is generated or said.
public enum VersionKey: String, CaseIterable, Sendable {
    case schema, version, typeName, enums, structs, models, acknowledgedRemovals, customMigration, carriedFrom

    /// What the key means, in Markdown (the documentation's version key table).
    public var documentation: String {
        switch self {
        case .schema: return "name prefix: `Trips` → `TripsSchemaV3`, `TripsMigrationPlan`"
        case .version:
            return "`major.minor.patch` (`3`, `3.1` also accepted). Versions of a schema are unique; files are ordered "
                + "by version. `3.0.0` → `…V3`, `3.1.0` → `…V3_1`, `3.1.2` → `…V3_1_2`"
        case .typeName:
            return "the versioned schema's type name where the app already has one that is not derived (`SchemaV2` "
                + "for 1.5.0); its bridge is `<typeName>Bridge`. Generated identifiers (`titleV1_5`) still follow the "
                + "version number"
        case .enums:
            return "`Name: { rawType: String | Int | none, cases: … }`; `cases` is a list of names (String raw "
                + "values equal the names) or a mapping `name: rawValue`. `rawType: none` is an enum without raw "
                + "values, stored through its `Codable` conformance: always as itself, never converted, its form in "
                + "the store expected, not proved. Its cases may carry values, written after the name: `- every: { "
                + "days: Int }` (labeled), `- on: [Date]` (unlabeled), `- between: [Date, { until: Date? }]`; a "
                + "value is a value type, an enum or a struct of the version"
        case .structs:
            return "`Name: { field: Type, … }`: a `Codable` struct stored as one composite attribute (`size: "
                + "Dimensions?`, `chapters: \"[Chapter]\"`). Fields are value types, enums or other structs of the "
                + "version (`Name?`, `[Name]`; a struct holds itself only through an array), and a field may be named "
                + "like a Swift keyword (`private:`, written in backticks in the output: it is the payload's coding "
                + "key). Frozen with the version like its models; a struct whose fields change is a new type, so its "
                + "properties are converted (`from:`, into a struct of another name). Initial values only by "
                + "`expression:`. For the store's identity a struct is one composite attribute whose hash is its "
                + "fields', every field hashed optional (<doc:StoreIdentity>)"
        case .models: return "`Name: { properties: …, unique: …, indexes: …, superclass: …, doc: … }`"
        case .acknowledgedRemovals:
            return "for migrations: `[Model, Model.property]`, removals in this version that are intended; without "
                + "it each removal gets a data-loss warning (SDG625)"
        case .customMigration:
            return "for migrations: `true`, the step into this version is a custom stage that calls "
                + "`willMigrateTo…`/`didMigrateTo…` hooks you write. What the generator would refuse in that step for "
                + "want of code that `willMigrate` can do (a new uniqueness without `dedupe`, a property made "
                + "required without a default) is a warning (SDG636) naming what the hooks must leave true; a type "
                + "change still needs `from:`, since no stage's schema step changes a type"
        case .carriedFrom:
            return "for migrations: `\"Plan.swift:42\"`, where the app's own custom stage into this version is "
                + "(written by `swiftdata-gen-import`, with the hooks file holding its code); implies "
                + "`customMigration: true`, and `plan` lists the hooks under \"carried from the app\""
        }
    }
}
