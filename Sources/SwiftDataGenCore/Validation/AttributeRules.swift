import SwiftDataGenDSL

/// Rules about attributes, uniqueness and indexes.
enum AttributeRules {
    static let history: [Rule<HistorySubject>] = [
        Rule(
            .redundantIndex,
            example: [
                (
                    "1.0.0.yaml",
                    "schema: App\nversion: 1.0.0\nmodels:\n  A:\n    unique: [[a, b]]\n"
                        + "    indexes: [[a]]\n    properties:\n      a: String\n      b: Int\n"
                )
            ],
            check: indexesDifferFromUniqueness),
        Rule(
            .redundantIndex,
            example: [
                (
                    "1.0.0.yaml",
                    "schema: App\nversion: 1.0.0\nmodels:\n  A:\n    indexes: [[a], [a, b]]\n    properties:\n"
                        + "      a: String\n      b: Int\n"
                )
            ],
            check: indexesDifferFromEachOther),
    ]

    /// SQLite keeps every uniqueness constraint as an index of its own (`Z_<Entity>_UNIQUE_…`,
    /// docs/version-hash-recipe.md, "Names in the SQLite file"), which serves lookups on its first
    /// properties too: an index on the same properties in the same order, or on the first of them,
    /// is a second index every insert and update pays for. Said of the latest version only: a shipped
    /// one is frozen, and the advice is for the version being written.
    @Sendable static func indexesDifferFromUniqueness(_ subject: HistorySubject) -> [Diagnostic] {
        (subject.versions.last?.models ?? []).flatMap { model -> [Diagnostic] in
            let unique = model.uniqueGroups + model.properties.filter(\.isUnique).map { [$0.name] }
            return model.indexGroups.compactMap { group -> Diagnostic? in
                guard let covering = unique.first(where: { $0.starts(with: group) }) else { return nil }
                return .warning(
                    .redundantIndex,
                    "the index on \(model.name) (\(group.joined(separator: ", "))) repeats what the uniqueness "
                        + "constraint on (\(covering.joined(separator: ", "))) already indexes; drop the index (in a "
                        + "new version if this one has shipped)",
                    at: model.location)
            }
        }
    }

    /// An index on the first properties of another index is served by that one: SQLite reads an
    /// index by any prefix of its columns. Equal groups are SDG309 already.
    @Sendable static func indexesDifferFromEachOther(_ subject: HistorySubject) -> [Diagnostic] {
        (subject.versions.last?.models ?? []).flatMap { model -> [Diagnostic] in
            model.indexGroups.compactMap { group -> Diagnostic? in
                guard let longer = model.indexGroups.first(where: { $0.count > group.count && $0.starts(with: group) })
                else { return nil }
                return .warning(
                    .redundantIndex,
                    "the index on \(model.name) (\(group.joined(separator: ", "))) is served by the index on "
                        + "(\(longer.joined(separator: ", "))), which starts with the same properties; drop it (in a "
                        + "new version if this one has shipped)",
                    at: model.location)
            }
        }
    }
}
