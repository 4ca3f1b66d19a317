/// A reviewer's summary of the migration plan, for `swiftdata-gen plan` (text or JSON).
public struct PlanReport: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public var schema: String
        public var from: String
        public var to: String
        public var changes: [String]
        public var stages: [String]
        public var generated: [String]
        /// How each custom stage's work walks the rows: what a large store costs at launch.
        public var rowWalks: [String]
        public var teamMustWrite: [String]
        /// Hooks holding the app's own stage code, carried by the importer.
        public var carriedFromApp: [String] = []
        public var dataLoss: [String]
    }

    /// A schema of a plan with the checksum a store at it holds.
    public struct SchemaChecksum: Sendable, Equatable {
        public var schema: String
        /// The versioned schema's type name.
        public var name: String
        /// `2.0.0`, or `bridge 2.0.1`.
        public var version: String
        public var checksum: String
        /// The checksum where SwiftData pairs undeclared inverses itself, where that differs.
        public var pairedChecksum: String?
        /// Entity name → version hash (hex), as a store's `NSStoreModelVersionHashes` decode; and the
        /// paired reading's, where it differs.
        public var entityHashes: [String: String] = [:]
        public var pairedEntityHashes: [String: String]?
    }

    public var steps: [Step]
    public var schemas: [SchemaChecksum]
    /// The Swift forms the plans store whose Core Data mapping no Apple-computed hash proves yet
    /// (`StorageRow`): their checksums are the expectation, not a measurement.
    public var unprovedMappings: [String]

    public init(histories: [SchemaHistory]) {
        self.init(plans: histories.map { ($0, MigrationPlanner.plan($0).plan) })
    }

    /// For callers that have planned already.
    public init(plans: [(history: SchemaHistory, plan: MigrationPlan)]) {
        schemas = plans.flatMap { history, plan in
            let names = GeneratedNames(history: history)
            return plan.schemas.compactMap { reference -> SchemaChecksum? in
                guard let schema = plan.schema(reference) else { return nil }
                let (name, version): (String, String)
                switch reference {
                case .version(let number): (name, version) = (names.versionedSchema(number), "\(number)")
                case .bridge(let into): (name, version) = (names.bridge(into: into), "bridge \(schema.version)")
                }
                return SchemaChecksum(
                    schema: history.name, name: name, version: version, checksum: plan.checksums[reference] ?? "",
                    pairedChecksum: plan.pairedChecksums[reference], entityHashes: plan.entityHashes[reference] ?? [:],
                    pairedEntityHashes: plan.pairedEntityHashes[reference])
            }
        }
        let unproved = Set(plans.flatMap(\.plan.unprovedRows))
        unprovedMappings = StorageRow.allCases.filter(unproved.contains).map(\.swiftForm)
        steps = plans.flatMap { history, plan -> [Step] in
            let names = GeneratedNames(history: history)
            let bridgeVersions = Dictionary(
                plan.bridges.map { ($0.into, $0.schema.version) }, uniquingKeysWith: { first, _ in first })
            func describe(_ reference: MigrationPlan.SchemaReference) -> String {
                switch reference {
                case .version(let version): return "\(version)"
                case .bridge(let into):
                    return "bridge \(bridgeVersions[into].map { "\($0)" } ?? "?") (\(names.bridge(into: into)))"
                }
            }
            return plan.steps.map { step in
                let stages = step.stages.map { stage -> String in
                    switch stage {
                    case .lightweight(let from, let to):
                        return "lightweight \(describe(from)) → \(describe(to))"
                    case .custom(let from, let to, let will, let did):
                        let phases = [("willMigrate", will), ("didMigrate", did)].filter { !$0.1.isEmpty }
                            .map { "\($0.0): \($0.1.map(\.label).joined(separator: ", "))" }
                        return "custom \(describe(from)) → \(describe(to)); \(phases.joined(separator: "; "))"
                    }
                }
                return Step(
                    schema: history.name, from: "\(step.from)", to: "\(step.to)", changes: step.changeDescriptions,
                    stages: stages,
                    generated: step.stages.flatMap(\.actions).compactMap(\.generatedSummary),
                    rowWalks: step.stages.flatMap(\.rowWalks),
                    teamMustWrite: step.teamMustWrite, carriedFromApp: step.carriedFromApp,
                    dataLoss: step.warnings)
            }
        }
    }

    /// The report as `plan --format json` prints it.
    public var json: String {
        JSONValue.fields([
            "schemas": .array(
                schemas.map { schema in
                    .fields([
                        "checksum": .string(schema.checksum),
                        "entityHashes": .object(schema.entityHashes.mapValues(JSONValue.string)),
                        "name": .string(schema.name),
                        "pairedChecksum": schema.pairedChecksum.map(JSONValue.string),
                        "pairedEntityHashes": schema.pairedEntityHashes.map { .object($0.mapValues(JSONValue.string)) },
                        "schema": .string(schema.schema), "version": .string(schema.version),
                    ])
                }),
            "steps": .array(
                steps.map { step in
                    .fields([
                        "carriedFromApp": .strings(step.carriedFromApp),
                        "changes": .strings(step.changes), "dataLoss": .strings(step.dataLoss),
                        "from": .string(step.from), "generated": .strings(step.generated),
                        "rowWalks": .strings(step.rowWalks),
                        "schema": .string(step.schema), "stages": .strings(step.stages),
                        "teamMustWrite": .strings(step.teamMustWrite), "to": .string(step.to),
                    ])
                }),
            "unprovedMappings": .strings(unprovedMappings),
        ]).document
    }

    public var text: String {
        guard !steps.isEmpty else { return "No migration steps: the history has one version.\n" + checksumText }
        var lines: [String] = []
        for step in steps {
            lines.append("\(step.schema) \(step.from) → \(step.to)")
            func section(_ title: String, _ items: [String], empty: String) {
                lines.append("  \(title):" + (items.isEmpty ? " \(empty)" : ""))
                lines += items.map { "    - " + $0 }
            }
            section("changes", step.changes, empty: "none")
            section("stages", step.stages, empty: "none")
            section("generated", step.generated, empty: "nothing beyond the stages")
            section("row walks", step.rowWalks, empty: "none: each stage is a schema step")
            section("you write", step.teamMustWrite, empty: "nothing")
            if !step.carriedFromApp.isEmpty { section("carried from the app", step.carriedFromApp, empty: "") }
            section("data loss", step.dataLoss, empty: "none")
            lines.append("")
        }
        return lines.joined(separator: "\n") + checksumText
    }

    /// One line per entity in name order: `Book 1f2e…` (the full hash), and the paired reading's
    /// hash after it where that differs.
    public static func hashLines(_ hashes: [String: String], paired: [String: String]?) -> [String] {
        hashes.keys.sorted(by: VersionHashRecipe.precedes).map { name in
            let other = paired?[name].flatMap { $0 == hashes[name] ? nil : $0 }
            return "\(name) \(hashes[name] ?? "")" + (other.map { " (\($0) where paired)" } ?? "")
        }
    }

    /// Each schema's checksum, to compare with a store from a device, and the mappings they rest on
    /// that no Apple-computed hash proves yet.
    var checksumText: String {
        guard !schemas.isEmpty else { return "" }
        var lines = ["SwiftData checksums (versionChecksum):"]
        for schema in schemas {
            lines.append(
                "  \(schema.schema) \(schema.version) \(schema.name): \(schema.checksum)"
                    + (schema.pairedChecksum.map { " (\($0) where SwiftData pairs undeclared inverses)" } ?? ""))
            lines += Self.hashLines(schema.entityHashes, paired: schema.pairedEntityHashes).map { "    " + $0 }
        }
        if !unprovedMappings.isEmpty {
            lines.append(
                "  not yet proved by an Apple-computed hash: \(unprovedMappings.joined(separator: "; ")) (see the "
                    + "Store identity article)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
