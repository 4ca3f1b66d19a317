import SwiftDataGenDSL

/// Rules about how relationships may change from one version to the next.
enum RelationshipRules {
    static let step: [Rule<StepSubject>] = [
        Rule(
            .toManyBecomesToOne,
            example: [
                (
                    "1.0.0.yaml",
                    "schema: App\nversion: 1.0.0\nmodels:\n  A:\n    properties:\n      bs: \"[B]\"\n  B:\n"
                        + "    properties:\n      a: { type: A?, inverse: bs }\n"
                ),
                (
                    "2.0.0.yaml",
                    "schema: App\nversion: 2.0.0\nmodels:\n  A:\n    properties:\n      bs: B?\n  B:\n"
                        + "    properties:\n      a: { type: A?, inverse: bs }\n"
                ),
            ],
            check: toManyStaysToMany)
    ]

    /// To-one → to-many is inferred (docs/store-evidence.md, "Relationships: inverses, links and
    /// cardinality"); the reverse must choose which object stays, which only the team can say, and a
    /// hook runs too late to say it.
    @Sendable static func toManyStaysToMany(_ subject: StepSubject) -> [Diagnostic] {
        let (old, new) = (subject.old, subject.new)
        return subject.changes.compactMap { change in
            guard case .cardinalityChanged(let model, let property, let from, let to) = change,
                from.hasPrefix("to-many"), to.hasPrefix("to-one")
            else { return nil }
            return .error(
                .toManyBecomesToOne,
                "\(model).\(property) changes from \(from) to \(to), which SwiftData cannot infer: it would have to "
                    + "choose one related object per \(model); keep \(property) to-many in this version and add a new "
                    + "optional to-one relationship beside it (customMigration: true, then fill it in didMigrate), and "
                    + "remove \(property) in a later version",
                at: new.model(named: model)?.property(named: property)?.location ?? new.location,
                notes: [
                    .init(
                        "to-many in version \(old.version)",
                        at: old.model(named: model)?.property(named: property)?.location ?? old.location)
                ])
        }
    }
}
