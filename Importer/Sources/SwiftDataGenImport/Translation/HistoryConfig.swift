import SwiftDataGenCore
import SwiftDataGenDSL

/// What `swiftdata-gen.yaml` says for an imported history: the names the app's types have, the
/// access its module needs, the platforms its constructs need.
extension HistoryTranslator {
    /// The schema name and naming config that make the generator derive the app's names.
    struct Naming {
        var schema: String
        var schemaSuffix: String?
        var currentSchema: String?
        var migrationPlan: String?
        /// What the generator derives for a version without `typeName:`.
        func derived(_ number: (Int, Int, Int)) -> String {
            var name = schema + (schemaSuffix ?? "Schema") + "V\(number.0)"
            if number.1 != 0 || number.2 != 0 { name += "_\(number.1)" }
            if number.2 != 0 { name += "_\(number.2)" }
            return name
        }

        /// The app's names where it has them: the schema stem of its version types (`TripsSchemaV1`
        /// → Trips; bare `V1` → the migration plan's stem, or the fallback), and its own alias for
        /// the current version. A current-version name that would hide a type the app needs is
        /// changed, with a note.
        init(
            versions: [ImportedVersion], fallback: String, plan: String?, declared: Set<String> = [],
            notes: inout [ImportNote]
        ) {
            let typeNames = versions.compactMap(\.typeName)
            let stem =
                typeNames.first.map { name -> String in
                    guard let v = name.range(of: "V[0-9]", options: [.regularExpression, .backwards]) else {
                        return name
                    }
                    return String(name[..<v.lowerBound])
                } ?? fallback + "Schema"
            let planStem = plan.flatMap { name -> String? in
                guard name.hasSuffix("MigrationPlan"), name.count > "MigrationPlan".count else { return nil }
                return String(name.dropLast("MigrationPlan".count))
            }
            if stem.isEmpty {
                schema = planStem ?? fallback
            } else if stem == "Schema" || !stem.hasSuffix("Schema") {
                schema = stem
                schemaSuffix = ""
            } else {
                schema = String(stem.dropLast("Schema".count))
            }
            let current = schema + (schemaSuffix ?? "Schema")
            if let own = versions.last?.aliases.first(where: { NamePosition.type.refusal(of: $0) == nil }) {
                if own != current { currentSchema = own }
            } else if let refusal = NamePosition.type.refusal(of: current) {
                let renamed = "Current" + current
                currentSchema = renamed
                notes.append(
                    .init(
                        position: versions.last?.location ?? SourcePosition(file: "-", line: 1, column: 1),
                        message:
                            "the current version's alias would be \(current): \(refusal.reason); it is named "
                            + "\(renamed) (naming.currentSchema), or pass --schema <name>"))
            } else if typeNames.contains(current) {
                currentSchema = "Current" + current
            } else if declared.contains(current) {
                // The app declares a type of that name (a namespace enum, say): the alias would
                // redeclare it.
                var renamed = "Current" + current
                while declared.contains(renamed) { renamed = "Current" + renamed }
                currentSchema = renamed
                notes.append(
                    .init(
                        position: versions.last?.location ?? SourcePosition(file: "-", line: 1, column: 1),
                        message:
                            "the current version's alias would be \(current), which the files read declare already; "
                            + "it is named \(renamed) (naming.currentSchema)"))
            }
            if let plan, plan != schema + "MigrationPlan" {
                migrationPlan = plan
            } else if NamePosition.type.refusal(of: schema + "MigrationPlan") != nil {
                migrationPlan = "MigrationPlan"
            }
        }
    }

    /// The access every generated declaration takes: public (or package) when every model of
    /// every version is, so a framework's app still sees them; each model that differs is said.
    static func moduleAccess(_ versions: [ImportedVersion], notes: inout [ImportNote]) -> String {
        let models = versions.flatMap(\.models)
        let levels = models.map { accessWord($0.access) }
        let chosen = levels.first.flatMap { first in levels.allSatisfy { $0 == first } ? first : nil } ?? "internal"
        for model in models where accessWord(model.access) != chosen || model.access == "open" {
            notes.append(
                .init(
                    position: model.location,
                    message:
                        "\(model.name) is \(model.access ?? "internal"); every generated declaration takes the access "
                        + "of swiftdata-gen.yaml (access: \(chosen)), as not every model is "
                        + "\(model.access ?? "internal")"
                        + (model.access == "open" ? ", and a model class is generated final" : "")))
        }
        return chosen
    }

    /// The DSL's word for an access modifier as written; `open` classes are generated public.
    static func accessWord(_ written: String?) -> String {
        switch written {
        case "public"?, "open"?: return "public"
        case "package"?: return "package"
        case "private"?, "fileprivate"?: return written ?? "internal"
        default: return "internal"
        }
    }

    static func configText(naming: Naming, access: String, macros: Bool, inheritance: Bool, cloudKit: Bool)
        -> String
    {
        var lines = ["# Written by swiftdata-gen-import. Review it, then lock the versions that shipped."]
        if inheritance {
            lines.append("platforms: { iOS: 26, macOS: 26 }")
        } else if macros {
            lines.append("platforms: { iOS: 18, macOS: 15 }")
        } else {
            lines.append("platforms: { iOS: 17, macOS: 14 }")
        }
        var entries: [String] = []
        if let suffix = naming.schemaSuffix { entries.append("schemaSuffix: \(YAMLText.scalar(suffix))") }
        if let current = naming.currentSchema { entries.append("currentSchema: \(YAMLText.scalar(current))") }
        if let plan = naming.migrationPlan { entries.append("migrationPlan: \(YAMLText.scalar(plan))") }
        if !entries.isEmpty { lines.append("naming: { \(entries.joined(separator: ", ")) }") }
        if access != "internal" { lines.append("access: \(access)") }
        if cloudKit { lines.append("cloudKit: true") }
        return lines.joined(separator: "\n") + "\n"
    }
}
