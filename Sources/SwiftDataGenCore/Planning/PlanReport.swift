import Foundation

/// A reviewer's summary of the migration plan, for `swiftdata-gen plan` (text or JSON).
public struct PlanReport: Codable, Sendable, Equatable {
    public struct Step: Codable, Sendable, Equatable {
        public var schema: String
        public var from: String
        public var to: String
        public var changes: [String]
        public var stages: [String]
        public var generated: [String]
        public var teamMustWrite: [String]
        public var dataLoss: [String]
    }

    public var steps: [Step]

    public init(histories: [SchemaHistory]) {
        self.init(plans: histories.map { ($0, MigrationPlanner.plan($0).plan) })
    }

    /// For callers that have planned already.
    public init(plans: [(history: SchemaHistory, plan: MigrationPlan)]) {
        steps = plans.flatMap { history, plan -> [Step] in
            let names = GeneratedNames(history: history)
            let bridgeVersions = Dictionary(plan.bridges.map { ($0.into, $0.schema.version) }, uniquingKeysWith: { first, _ in first })
            func describe(_ reference: MigrationPlan.SchemaReference) -> String {
                switch reference {
                case .version(let version): return "\(version)"
                case .bridge(let into): return "bridge \(bridgeVersions[into].map { "\($0)" } ?? "?") (\(names.bridge(into: into)))"
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
                    schema: history.name, from: "\(step.from)", to: "\(step.to)", changes: step.changeDescriptions, stages: stages,
                    generated: step.stages.flatMap(\.actions).compactMap(\.generatedSummary), teamMustWrite: step.teamMustWrite,
                    dataLoss: step.warnings)
            }
        }
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    public var text: String {
        guard !steps.isEmpty else { return "No migration steps: the history has one version.\n" }
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
            section("you write", step.teamMustWrite, empty: "nothing")
            section("data loss", step.dataLoss, empty: "none")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}
