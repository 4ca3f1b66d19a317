import SwiftDataGenDSL

/// Rules about the names the generated code declares.
enum NameRules {
    static let history: [Rule<HistorySubject>] = [
        Rule(
            .outputNameCollision,
            example: [
                (
                    "1.0.0.yaml",
                    "schema: App\nversion: 1.0.0\ntypeName: Shared\nmodels:\n  A:\n    properties:\n      a: String\n"
                ),
                (
                    "2.0.0.yaml",
                    "schema: App\nversion: 2.0.0\ntypeName: Shared\nmodels:\n  A:\n    properties:\n      a: String\n"
                        + "      b: String?\n"
                ),
            ],
            check: generatedNamesDistinct),
        Rule(
            .reservedName,
            example: [
                (
                    "1.0.0.yaml",
                    "schema: App\nversion: 1.0.0\nmodels:\n  AppMigrationPlan:\n    properties:\n      a: String\n"
                )
            ],
            check: declaredTypesClearOfGeneratedNames),
    ]

    /// The naming config must not make two generated types (or their files) share a name; said
    /// by `validate` and `plan`, not only when files are written.
    @Sendable static func generatedNamesDistinct(_ subject: HistorySubject) -> [Diagnostic] {
        let (versions, names) = (subject.versions, subject.names)
        var owners: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        var declared = [
            (names.currentSchema, "the current-version alias"), (names.migrationPlan, "the migration plan"),
            (names.hooks, "the hooks type"),
        ]
        var versionNames: Set<String> = []
        for version in versions {
            let name = names.versionedSchema(version.version)
            declared.append((name, "version \(version.version)"))
            // A bridge's name follows its version's: a clash there is said once, for the version.
            if versionNames.insert(name).inserted {
                declared.append((names.bridge(into: version.version), "the bridge into \(version.version)"))
            }
        }
        for (name, what) in declared {
            if let refusal = NamePosition.type.refusal(of: name) {
                diagnostics.append(
                    .error(
                        .reservedName,
                        "\(what) would be named '\(name)': \(refusal.reason); change typeName or naming "
                            + "(currentSchema, migrationPlan, schemaSuffix)",
                        at: versions.first?.location))
            } else if let first = owners[name] {
                diagnostics.append(
                    .error(
                        .outputNameCollision,
                        "\(first) and \(what) would both be named '\(name)'; change typeName or naming "
                            + "(schemaSuffix, versionPrefix, migrationPlanSuffix, currentSchema, migrationPlan) so "
                            + "every generated type has its own",
                        at: versions.first?.location))
            } else {
                owners[name] = what
            }
        }
        return diagnostics
    }

    /// A model or enum may not take the name of a type the generated code declares.
    @Sendable static func declaredTypesClearOfGeneratedNames(_ subject: HistorySubject) -> [Diagnostic] {
        let versions = subject.versions
        let reserved = subject.names.all(for: versions.map(\.version))
        return versions.flatMap { version in
            (version.models.map { ($0.name, $0.location) } + version.enums.map { ($0.name, $0.location) })
                .filter { reserved.contains($0.0) }
                .map { name, location in
                    .error(
                        .reservedName,
                        "'\(name)' would clash with a type the generated code declares; rename it (for example "
                            + "\(subject.schema)\(name))",
                        at: location)
                }
        }
    }
}
