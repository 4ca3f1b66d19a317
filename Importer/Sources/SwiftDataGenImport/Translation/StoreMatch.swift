import SwiftDataGenCore

/// Which version of a history a store holds: first by the entity version hashes its metadata
/// keeps, which SwiftData itself matches by (`StoreIdentity`); then by its shape (`StoreShape`)
/// and the model it keeps (`StoreModel`). Every version is compared, and every bridge schema of
/// the plan (a store a migration stopped in the middle of holds one): the ones it matches, the
/// nearest when none does, and the plan's steps from there.
public struct StoreMatch: Sendable {
    public struct Comparison: Sendable, Equatable {
        public var schema: String
        public var version: SemanticVersion
        /// The plan's bridge schema into `version`, not the version itself.
        public var isBridge = false
        public var differences: [String]
        /// Where the store's `NSStoreModelVersionHashes` and this schema's part, entity by entity,
        /// each with the differences above that concern the entity; empty when all are equal, nil
        /// when the store's metadata holds no hashes.
        public var hashDifferences: [String]?
        /// How many entity hashes the two have in common.
        public var equalHashes = 0
        /// The hashes compared are the ones where SwiftData pairs undeclared inverses itself
        /// (`StoreIdentity.pairedReading`), which were the nearer.
        public var byPairedReading = false

        /// `2.0.0`, or `bridge into 2.0.0`.
        public var label: String { isBridge ? "bridge into \(version)" : "\(version)" }
    }

    public var comparisons: [Comparison]
    /// Schemas whose entity version hashes all equal the store's: the ones SwiftData opens it as.
    public var identityMatched: [Comparison] { comparisons.filter { $0.hashDifferences?.isEmpty == true } }
    /// The schema whose entity hashes are nearest the store's (most equal, fewest differing, then
    /// fewest other differences), when none has them all.
    public var nearestByIdentity: Comparison? {
        guard identityMatched.isEmpty, comparisons.contains(where: { $0.hashDifferences != nil }) else { return nil }
        func score(_ c: Comparison) -> (Int, Int) {
            (c.equalHashes - (c.hashDifferences?.count ?? 0), -c.differences.count)
        }
        return comparisons.max { score($0) < score($1) }
    }
    /// Whether SwiftData would open the store with the plan: by its entity version hashes where
    /// its metadata has them, else by its shape and kept model.
    public var opens: Bool {
        comparisons.contains { $0.hashDifferences != nil } ? !identityMatched.isEmpty : !matched.isEmpty
    }
    /// Versions whose shape the store has exactly; more than one when they differ only in what
    /// neither the shape nor the kept model holds.
    public var matched: [Comparison] { comparisons.filter(\.differences.isEmpty) }
    /// The version with the fewest differences, when none matches.
    public var nearest: Comparison? {
        guard matched.isEmpty else { return nil }
        return comparisons.min { $0.differences.count < $1.differences.count }
    }
    /// The plan's steps from the oldest matched version on: what opening the store with the
    /// latest schema runs. Empty when the store is at the latest version or matches none.
    public var steps: [PlanReport.Step]

    public init(
        _ shape: StoreShape, model: StoreModel?, histories: [SchemaHistory], versionHashes: [String: [UInt8]] = [:]
    ) {
        var comparisons: [Comparison] = []
        var plans: [String: MigrationPlan] = [:]
        for history in histories {
            let plan = MigrationPlanner.plan(history).plan
            plans[history.name] = plan
            // The versions as the plan ships them: with the hash modifiers that keep their checksums
            // apart, which a store at one of them holds in its hashes.
            let schemas: [(SchemaVersion, bridgeInto: SemanticVersion?)] =
                plan.versions.map { ($0, nil) } + plan.bridges.map { ($0.schema, $0.into) }
            for (schema, bridgeInto) in schemas {
                let expected = StoreShape(schema, naming: history.config.naming)
                let identity = StoreIdentity(schema, naming: history.config.naming)
                var comparison = Comparison(
                    schema: history.name, version: bridgeInto ?? schema.version, isBridge: bridgeInto != nil,
                    differences: Self.differences(store: shape, version: expected)
                        + (model.map { Self.differences(model: $0, version: identity) } ?? []))
                if !versionHashes.isEmpty {
                    (comparison.hashDifferences, comparison.equalHashes) = Self.hashDifferences(
                        versionHashes, identity.entityHashes, explained: comparison.differences)
                    if let paired = identity.pairedReading, comparison.hashDifferences?.isEmpty == false {
                        let (differences, equal) = Self.hashDifferences(
                            versionHashes, paired.entityHashes, explained: comparison.differences)
                        if equal - differences.count > comparison.equalHashes - (comparison.hashDifferences?.count ?? 0)
                        {
                            (comparison.hashDifferences, comparison.equalHashes) = (differences, equal)
                            comparison.byPairedReading = true
                        }
                    }
                }
                comparisons.append(comparison)
            }
        }
        self.comparisons = comparisons
        steps = []
        guard let first = identityMatched.first ?? comparisons.first(where: \.differences.isEmpty),
            let history = histories.first(where: { $0.name == first.schema }), let plan = plans[history.name]
        else { return }
        // From a version, the steps that start there or later; from a bridge, the step into its
        // version (its remaining stage) and those after.
        let report = PlanReport(plans: [(history, plan)])
        steps = zip(plan.steps, report.steps).filter { step, _ in
            first.isBridge ? step.to >= first.version : step.from >= first.version
        }.map(\.1)
    }

    /// What a store written by `version` would have that `store` has not, and the reverse, one
    /// line each, in table order.
    static func differences(store: StoreShape, version: StoreShape) -> [String] {
        var lines: [String] = []
        let stored = Dictionary(store.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let expected = Dictionary(version.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in Set(stored.keys).union(expected.keys).sorted() {
            switch (stored[name], expected[name]) {
            case (nil, let table?):
                lines.append("no table \(name) for \(table.entities.joined(separator: ", "))")
            case (let table?, nil):
                lines.append("table \(name) (\(table.entities.joined(separator: ", "))) is not in this version")
            case (let have?, let want?):
                if have.entities != want.entities {
                    lines.append(
                        "\(name) holds \(have.entities.joined(separator: ", ")); this version stores "
                            + "\(want.entities.joined(separator: ", ")) there")
                }
                if have.unique != want.unique {
                    func groups(_ sets: Set<Set<String>>) -> String {
                        sets.isEmpty
                            ? "none" : sets.map { $0.sorted().joined(separator: "+") }.sorted().joined(separator: ", ")
                    }
                    lines.append("\(name) is unique by \(groups(have.unique)); this version by \(groups(want.unique))")
                }
                let composites = want.columns.filter { $0.value == .composite }.keys
                for column in Set(have.columns.keys).union(want.columns.keys).sorted() {
                    switch (have.columns[column], want.columns[column]) {
                    case (nil, let type?) where type != .composite:
                        lines.append("\(name) has no column \(column) (\(type))")
                    case (let type?, nil) where !composites.contains(where: { column.hasPrefix($0 + "_") }):
                        lines.append("\(name).\(column) (\(type)) is not a property of this version")
                    case (let type?, let wanted?) where !type.holds(wanted):
                        lines.append("\(name).\(column) is \(type); this version stores \(wanted)")
                    default: break
                    }
                }
            case (nil, nil): break
            }
        }
        let storeJoins = store.joinTables.flatMap { $0 }
        for pair in version.joinTables.sorted(by: { $0.sorted().joined() < $1.sorted().joined() })
        where pair.isDisjoint(with: storeJoins) {
            lines.append("no join table for the many-to-many \(pair.sorted().joined(separator: " / "))")
        }
        for join in storeJoins.sorted() where !version.joinTables.contains(where: { $0.contains(join) }) {
            lines.append("the join table of \(join) is not in this version")
        }
        return lines
    }

    /// The entities whose version hash in the store differs from the schema's, each followed by
    /// the differences that name it; and how many hashes are equal.
    static func hashDifferences(_ store: [String: [UInt8]], _ expected: [String: String], explained: [String]) -> (
        [String], Int
    ) {
        var lines: [String] = []
        var equal = 0
        let names = Set(store.keys).union(expected.keys).sorted()
        for name in names {
            let have = store[name].map(VersionHashText.hex)
            let want = expected[name]
            if have == want {
                equal += 1
                continue
            }
            guard let have else {
                lines.append("the store hashes no entity \(name)")
                continue
            }
            guard want != nil else {
                lines.append("the store hashes \(name), not in this version")
                continue
            }
            let causes = explained.filter {
                $0.contains(" \(name).") || $0.contains(" \(name)'s") || $0.contains(" \(name),")
                    || $0.hasSuffix(" \(name)") || $0.hasPrefix("\(name).") || $0.contains("entity \(name)")
            }
            lines.append(
                "\(name)'s version hash differs (store \(have.prefix(12))…)"
                    + (causes.isEmpty ? "" : ": " + causes.joined(separator: "; ")))
        }
        return (lines, equal)
    }

    /// Where the store's own model and the version's identity disagree: entities, property names
    /// in their case, attribute types and optionality, relationships' destinations and counts, and
    /// uniqueness, which is what Core Data's version hashes are computed from.
    static func differences(model: StoreModel, version identity: StoreIdentity) -> [String] {
        var lines: [String] = []
        let stored = Dictionary(model.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let expected = Dictionary(identity.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in Set(stored.keys).union(expected.keys).sorted() {
            guard let have = stored[name], let want = expected[name] else {
                lines.append(
                    stored[name] == nil
                        ? "the store's model has no entity \(name)"
                        : "the store's model has \(name), not in this version")
                continue
            }
            if have.superentity != want.parent {
                lines.append("\(name)'s superentity is \(have.superentity ?? "none") in the store's model")
            }
            var properties: [String: CoreDataProperty] = [:]
            for property in want.properties { properties[property.name] = property }
            let haveNames = Set(have.attributes.map(\.name) + have.relationships.map(\.name))
            for missing in Set(properties.keys).subtracting(haveNames).sorted() {
                lines.append("the store's model has no \(name).\(missing)")
            }
            for extra in haveNames.subtracting(properties.keys).sorted() {
                lines.append("the store's model has \(name).\(extra), not in this version")
            }
            for attribute in have.attributes {
                guard let property = properties[attribute.name] else { continue }
                let type: CoreDataAttributeType
                switch property.kind {
                case .attribute(let attributeType, _, _): type = attributeType
                case .composite: type = .composite
                case .relationship:
                    lines.append("\(name).\(attribute.name) is an attribute in the store's model")
                    continue
                }
                if Int(type.rawValue) != attribute.type {
                    lines.append(
                        "\(name).\(attribute.name) has attribute type \(attribute.type) in the store's model; this "
                            + "version stores \(type)")
                }
                if attribute.isOptional != property.isOptional {
                    lines.append(
                        "\(name).\(attribute.name) is \(attribute.isOptional ? "optional" : "required") in the "
                            + "store's model"
                    )
                }
            }
            for relationship in have.relationships {
                guard let property = properties[relationship.name] else { continue }
                guard case .relationship(let want) = property.kind else {
                    lines.append("\(name).\(relationship.name) is a relationship in the store's model")
                    continue
                }
                if relationship.destination != want.destination || relationship.isToMany != want.isToMany {
                    lines.append(
                        "\(name).\(relationship.name) is \(relationship.isToMany ? "to-many" : "to-one") "
                            + "\(relationship.destination) in the store's model")
                }
            }
            if Set(have.uniqueness) != Set(want.uniquenessConstraints) {
                lines.append("\(name)'s uniqueness differs in the store's model")
            }
        }
        return lines
    }
}
