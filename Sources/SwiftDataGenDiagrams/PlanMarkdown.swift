import SwiftDataGenCore

/// The migration plan as a pull request's description: per step, what happens to stored data,
/// the stages, what the team writes, the hazards, and the change diagram GitHub draws.
public enum PlanMarkdown {
    public static func render(history: SchemaHistory, plan: MigrationPlan) -> String {
        let report = PlanReport(plans: [(history, plan)])
        var lines = ["## \(escaped(history.name)): migration plan", ""]
        guard !plan.steps.isEmpty else {
            return
                (lines + ["One version (\(history.versions.first.map { "\($0.version)" } ?? "none")): no step.", ""]
                + checksums(report))
                .joined(separator: "\n")
        }
        for (step, reported) in zip(plan.steps, report.steps) {
            lines.append("### \(step.from) → \(step.to)")
            lines.append("")
            section("Stored data", storedData(step), into: &lines)
            section("Changes", reported.changes, into: &lines)
            section("Stages", reported.stages, into: &lines)
            section("Generated", reported.generated, into: &lines)
            if !reported.rowWalks.isEmpty { section("Row walks", reported.rowWalks, into: &lines) }
            section("You write", reported.teamMustWrite.isEmpty ? ["nothing"] : reported.teamMustWrite, into: &lines)
            let hazards = reported.dataLoss + Self.hazards(step)
            section("Hazards", hazards.isEmpty ? ["none found"] : hazards, into: &lines)
            // The step's versions are consecutive in the history: the plan has a step for each pair.
            if let old = history.versions.first(where: { $0.version == step.from }),
                let new = history.versions.first(where: { $0.version == step.to })
            {
                let picture = SchemaPicture(
                    schema: history.name, from: old, to: new, step: step, stages: reported.stages)
                lines += ["```mermaid", MermaidDiagram.render(picture).trimmingSuffixNewline(), "```", ""]
            }
        }
        return (lines + checksums(report)).joined(separator: "\n")
    }

    /// Each schema's SwiftData checksum, to compare with a store from a device.
    static func checksums(_ report: PlanReport) -> [String] {
        var lines = ["### Checksums", "", "| schema | version | `versionChecksum` |", "|---|---|---|"]
        lines += report.schemas.map {
            "| \(escaped($0.name)) | \($0.version) | `\($0.checksum)`"
                + ($0.pairedChecksum.map { " (`\($0)` where SwiftData pairs undeclared inverses)" } ?? "") + " |"
        }
        lines.append("")
        // Entity hashes as a store's metadata holds them, for a store that matches no checksum.
        lines += ["#### Entity version hashes", ""]
        for schema in report.schemas {
            lines.append("- \(escaped(schema.name)) (\(schema.version))")
            lines += PlanReport.hashLines(schema.entityHashes, paired: schema.pairedEntityHashes).map {
                "  - `\($0)`"
            }
        }
        lines.append("")
        if !report.unprovedMappings.isEmpty {
            lines += [
                "Not yet proved by an Apple-computed hash: "
                    + "\(report.unprovedMappings.map(escaped).joined(separator: "; ")).",
                "",
            ]
        }
        return lines
    }

    /// A picture for a Markdown page: a heading, the fenced diagram (GitHub draws `mermaid`), and
    /// the stages and other changes below it.
    public static func diagram(_ picture: SchemaPicture, dot: Bool) -> String {
        let body = dot ? DOTDiagram.render(picture) : MermaidDiagram.render(picture)
        var lines = ["### \(escaped(picture.title))", "", dot ? "```dot" : "```mermaid", body + "```", ""]
        section("Stages", picture.stages, into: &lines)
        section("Also", picture.otherChanges, into: &lines)
        return lines.joined(separator: "\n")
    }

    /// What the step does to the rows on a device, sorted into kept, moved, converted,
    /// de-duplicated, dropped and new.
    static func storedData(_ step: MigrationPlan.Step) -> [String] {
        var moved: [String] = []
        var dropped: [String] = []
        var added: [String] = []
        var addedModels: [String] = []
        var converted: [String] = []
        var deduplicated: [String] = []
        let conversions = StepConversions(step)
        for action in step.stages.flatMap(\.actions) {
            switch action {
            case .convert(let c):
                converted.append("\(c.model).\(c.source) → \(c.property) (\(c.sourceType) → \(c.targetType))")
            case .link(let l):
                converted.append("\(l.model).\(l.source) → \(l.property), linked to \(l.targetModel).\(l.matchKey)")
            case .deduplicate(let d): deduplicated.append(d.summary)
            case .relink(let r) where r.copyLink == nil:
                moved.append("\(r.model).\(r.links.map(\.source).joined(separator: ", ")): links moved to the copies")
            case .copy, .relink, .hook: break
            }
        }
        for change in step.changes {
            switch change {
            case .modelRenamed(let from, let to):
                moved.append("\(from) → \(to) (every object copied through a bridge, its links moved to the copy)")
            case .propertyRenamed(let m, let from, let to): moved.append("\(m).\(from) → \(to)")
            case .columnAdopted(let m, let from, let to, let column):
                moved.append("\(m).\(from) → \(to) (column \(column))")
            case .storedNameChanged(let m, let p, let from, let to): moved.append("\(m).\(p): column \(from) → \(to)")
            case .modelRemoved(let m): dropped.append("every \(m) (removal acknowledged)")
            case .propertyRemoved(let m, let p) where !conversions.sources.contains("\(m).\(p)"):
                dropped.append("\(m).\(p) (removal acknowledged)")
            case .propertyAdded(let m, let p) where conversions.targets["\(m).\(p)"] == nil: added.append("\(m).\(p)")
            case .modelAdded(let m): addedModels.append(m)
            default: break
            }
        }
        var items = ["Kept: every other stored value, as it is"]
        if !moved.isEmpty { items.append("Moved: " + moved.joined(separator: "; ")) }
        if !converted.isEmpty { items.append("Converted: " + converted.joined(separator: "; ")) }
        if !deduplicated.isEmpty { items.append("De-duplicated: " + deduplicated.joined(separator: "; ")) }
        if !dropped.isEmpty { items.append("Dropped: " + dropped.joined(separator: "; ")) }
        if !added.isEmpty {
            items.append("New, at its default (or nil) in every existing object: " + added.joined(separator: "; "))
        }
        if !addedModels.isEmpty { items.append("New models, empty: " + addedModels.joined(separator: "; ")) }
        return items
    }

    /// What a reviewer must accept beyond the planner's warnings: objects deleted and values
    /// dropped for good, even when acknowledged.
    static func hazards(_ step: MigrationPlan.Step) -> [String] {
        var hazards: [String] = []
        for action in step.stages.flatMap(\.actions) {
            if case .deduplicate(let d) = action {
                hazards.append("Objects are deleted: \(d.summary); a device whose data repeats loses the others")
            }
        }
        for change in step.changes {
            switch change {
            case .modelRemoved(let m): hazards.append("Every \(m) on a device is deleted for good")
            default: break
            }
        }
        return hazards
    }

    private static func section(_ title: String, _ items: [String], into lines: inout [String]) {
        guard !items.isEmpty else { return }
        lines.append("**\(title)**")
        lines.append("")
        lines += items.map { "- " + escaped($0) }
        lines.append("")
    }

    /// Text that Markdown shows as written: no emphasis, links, HTML, code or tables from a name.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\`*_{}[]<>#|~".contains(character) { out.append("\\") }
            out.append(character.isNewline ? " " : character)
        }
        return out
    }
}

extension String {
    func trimmingSuffixNewline() -> String {
        hasSuffix("\n") ? String(dropLast()) : self
    }
}
