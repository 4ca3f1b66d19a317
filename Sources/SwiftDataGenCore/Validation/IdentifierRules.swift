import SwiftDataGenDSL

/// Rules about how SwiftData tells stored data apart: renaming identifiers and checksums.
enum IdentifierRules {
    static let history: [Rule<HistorySubject>] = [
        Rule(
            .duplicateRenamingIdentifier,
            example: [
                ("1.0.0.yaml", "schema: App\nversion: 1.0.0\nmodels:\n  A:\n    properties:\n      a: String\n"),
                (
                    "2.0.0.yaml",
                    "schema: App\nversion: 2.0.0\nmodels:\n  A:\n    properties:\n"
                        + "      b: { type: String, renamedFrom: a }\n      c: { type: String, renamedFrom: a }\n"
                ),
            ],
            check: { subject in
                subject.versions.flatMap { identifiersUnique(in: $0, naming: subject.config.naming) }
            }),
        Rule(
            .identicalVersions,
            example: [
                ("1.0.0.yaml", "schema: App\nversion: 1.0.0\nmodels:\n  A:\n    properties:\n      a: String\n"),
                ("2.0.0.yaml", "schema: App\nversion: 2.0.0\nmodels:\n  A:\n    properties:\n      a: String\n"),
            ],
            check: somethingChanged),
    ]

    /// No two stored properties of an entity may share a renaming identifier: Core Data would
    /// map one old column into both (docs/store-evidence.md, "Renaming identifiers").
    static func identifiersUnique(in version: SchemaVersion, naming: NamingConfig, schemaName: String? = nil)
        -> [Diagnostic]
    {
        var diagnostics: [Diagnostic] = []
        for model in version.models {
            // Names and stored names are unique in a model already, so a clash needs an `originalName`:
            // each such identifier is compared with every other property's, without building a table.
            for index in model.properties.indices
            where model.properties[index].originalName != nil && model.properties[index].isStored {
                let property = model.properties[index]
                let identifier = renamingIdentifier(of: property, naming: naming)
                guard
                    let first = model.properties.indices.first(where: { other in
                        other != index && model.properties[other].isStored
                            && Self.identifier(of: model.properties[other], is: identifier, naming: naming)
                            && (model.properties[other].originalName == nil || other < index)
                    }).map({ model.properties[$0] })
                else { continue }
                let place = schemaName.map { " in the generated \($0)" } ?? " in version \(version.version)"
                diagnostics.append(
                    .error(
                        .duplicateRenamingIdentifier,
                        "\(model.name).\(property.name) and \(model.name).\(first.name) would both read the data "
                            + "stored under '\(identifier)'\(place), so SwiftData would copy one column into both; let "
                            + "only one of them continue '\(identifier)' (remove one renamedFrom or from)",
                        at: property.location,
                        notes: [.init("\(model.name).\(first.name) is declared here", at: first.location)]))
            }
        }
        return diagnostics
    }

    /// Whether `property`'s renaming identifier is `identifier`, without building the identifier.
    private static func identifier(of property: Property, is identifier: String, naming: NamingConfig) -> Bool {
        if let original = property.originalName { return original == identifier }
        guard property.storedName == nil, property.kind.storesEnumRawValue else {
            return naming.storedName(property) == identifier
        }
        return identifier.utf8.count == property.name.utf8.count + naming.rawValueSuffix.utf8.count
            && identifier.hasPrefix(property.name)
            && identifier.hasSuffix(naming.rawValueSuffix)
    }

    /// A version that changes nothing at all is a mistake; one that changes only what SwiftData's
    /// checksum ignores is fine, and the planner gives it a `hashModifier` (docs/store-evidence.md,
    /// "Duplicate checksums and hashModifier").
    @Sendable static func somethingChanged(_ subject: HistorySubject) -> [Diagnostic] {
        let versions = subject.versions
        let naming = subject.config.naming
        return zip(versions.indices, versions.indices.dropFirst()).compactMap { olderIndex, newerIndex -> Diagnostic? in
            let older = versions[olderIndex]
            let newer = versions[newerIndex]
            // Same models and property names in the same order first: cheap, and false for nearly every pair.
            guard older.models.count == newer.models.count,
                zip(older.models, newer.models).allSatisfy({ a, b in
                    a.name == b.name && a.properties.count == b.properties.count
                        && zip(a.properties, b.properties).allSatisfy { $0.name == $1.name }
                }),
                StoreIdentity(older, naming: naming).versionChecksum
                    == StoreIdentity(newer, naming: naming).versionChecksum,
                StoredShape(older, naming: naming) == StoredShape(newer, naming: naming),
                older.models.map({ $0.properties.map(\.defaultValue) })
                    == newer.models.map({ $0.properties.map(\.defaultValue) }),
                older.enums.count == newer.enums.count,
                zip(older.enums, newer.enums).allSatisfy({
                    $0.name == $1.name && $0.rawType == $1.rawType && $0.cases == $1.cases
                }),
                !newer.customMigration
            else { return nil }
            return .error(
                .identicalVersions,
                "version \(newer.version) declares exactly what \(older.version) declares, so it has nothing to "
                    + "migrate; drop this version or make its change",
                at: newer.location, notes: [.init("version \(older.version) is declared here", at: older.location)])
        }
    }
}
