import SwiftDataGenCore

/// Which version of a history a store holds, judged by shape (`StoreShape`): every version
/// compared, the ones it matches, the nearest when none does, and the plan's steps from there.
public struct StoreMatch: Sendable {
    public struct Comparison: Sendable, Equatable {
        public var schema: String
        public var version: SemanticVersion
        public var differences: [String]
    }

    public var comparisons: [Comparison]
    /// Versions whose shape the store has exactly; more than one when they differ only in what
    /// SQLite does not keep.
    public var matched: [Comparison] { comparisons.filter(\.differences.isEmpty) }
    /// The version with the fewest differences, when none matches.
    public var nearest: Comparison? {
        guard matched.isEmpty else { return nil }
        return comparisons.min { $0.differences.count < $1.differences.count }
    }
    /// The plan's steps from the oldest matched version on: what opening the store with the
    /// latest schema runs. Empty when the store is at the latest version or matches none.
    public var steps: [PlanReport.Step]

    public init(_ shape: StoreShape, histories: [SchemaHistory]) {
        var comparisons: [Comparison] = []
        for history in histories {
            for version in history.versions {
                let expected = StoreShape(version, naming: history.config.naming)
                comparisons.append(
                    Comparison(
                        schema: history.name, version: version.version,
                        differences: Self.differences(store: shape, version: expected)))
            }
        }
        self.comparisons = comparisons
        steps = []
        guard let first = comparisons.first(where: \.differences.isEmpty),
            let history = histories.first(where: { $0.name == first.schema })
        else { return }
        let plan = MigrationPlanner.plan(history).plan
        let report = PlanReport(plans: [(history, plan)])
        steps = zip(plan.steps, report.steps).filter { $0.0.from >= first.version }.map(\.1)
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
}
