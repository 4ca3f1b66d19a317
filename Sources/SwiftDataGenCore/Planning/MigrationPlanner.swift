import SwiftDataGenDSL

/// Derives the migration plan by diffing consecutive versions (the change table of MigrationPlanning.md in the DocC
/// catalog): lightweight where SwiftData can infer the step, a custom stage where data must move, two stages through a
/// generated bridge schema for conversions, and hooks where only the team can write the code. A change that would drop
/// data the YAML does not account for is an error or a warning.
public struct MigrationPlanner: Sendable {
    let history: SchemaHistory
    var naming: NamingConfig { history.config.naming }
    let names: GeneratedNames
    let diff: SchemaDiff
    var diagnostics: [Diagnostic] = []

    public init(history: SchemaHistory) {
        self.history = history
        self.names = GeneratedNames(history: history)
        self.diff = SchemaDiff(naming: history.config.naming)
    }

    public static func plan(_ history: SchemaHistory) -> (plan: MigrationPlan, diagnostics: [Diagnostic]) {
        var planner = MigrationPlanner(history: history)
        let plan = planner.plan()
        return (plan, planner.diagnostics)
    }

    /// Steps depend only on their two versions, so they are planned on all cores; results and
    /// diagnostics keep the order of the history.
    mutating func plan() -> MigrationPlan {
        var steps: [MigrationPlan.Step] = []
        var bridges: [MigrationPlan.Bridge] = []
        let declared = Set(history.versions.map(\.version))
        let pairs = Array(zip(history.versions.indices, history.versions.indices.dropFirst()))
        let planner = self
        let planned = pairs.map { StepIndices(old: $0.0, new: $0.1) }.parallelMap { pair in
            var stepPlanner = planner
            let (step, bridge) = stepPlanner.planStep(
                from: planner.history.versions[pair.old], to: planner.history.versions[pair.new], declared: declared)
            return (step, bridge, stepPlanner.diagnostics)
        }
        for (step, bridge, stepDiagnostics) in planned {
            steps.append(step)
            if let bridge { bridges.append(bridge) }
            diagnostics += stepDiagnostics
        }
        if let first = history.versions.first {
            for model in first.models { reportUnusedDedupe(model, because: "the first version has no existing data") }
        }
        var plan = MigrationPlan(versions: history.versions, bridges: bridges, steps: steps)
        settleChecksums(&plan)
        for bridge in plan.bridges {
            diagnostics += IdentifierRules.identifiersUnique(
                in:
                    bridge.schema, naming: history.config.naming, schemaName: names.bridge(into: bridge.into))
        }
        return plan
    }

    private struct StepIndices: Sendable {
        var old: Int
        var new: Int
    }

    struct StepWork {
        var conversions: [MigrationPlan.Conversion] = []
        var links: [MigrationPlan.Link] = []
        var deduplications: [MigrationPlan.Deduplication] = []
        /// Run on the bridge, after the conversions, because a key is converted in this step.
        var deduplicationsAfterConversion: [MigrationPlan.Deduplication] = []
        var hookReasons: [String] = []
        /// Where the app's own stage into this version was, when the hooks hold its code.
        var carriedReason: String?
        var warnings: [String] = []
        /// Properties the bridge adds, per old model name.
        var bridgeProperties: [String: [Property]] = [:]
        /// Models the bridge needs that the old version lacks (link targets).
        var bridgeModels: [ModelDecl] = []
        var bridgeEnums: [EnumDecl] = []
        /// Old `Model.property` names consumed by a conversion: not lost.
        var consumed: Set<String> = []
        /// Properties re-created empty under the same name (a change of type or kind the author
        /// acknowledged), per old model name: the bridge drops them, the target adds them back.
        var recreated: [String: Set<String>] = [:]
        /// What may be a rename written as a drop and an add.
        var renames: RenameHints
        /// Models renamed in this step, copied on the bridge (new name → old name).
        var copies: [MigrationPlan.ModelCopy] = []
        /// Relationships moved to the copies, per old model walked, in the order met.
        var relinks: [MigrationPlan.Relink] = []
    }

    private mutating func planStep(
        from old: SchemaVersion, to new: SchemaVersion, declared: Set<SemanticVersion>
    ) -> (MigrationPlan.Step, MigrationPlan.Bridge?) {
        let changes = diff.changes(from: old, to: new)
        var work = StepWork(renames: RenameHints(from: old, to: new, changes: changes, naming: naming))
        for model in new.models {
            guard let before = SchemaDiff.counterpart(of: model, in: old) else {
                reportUnusedDedupe(model, because: "\(model.name) is new in \(new.version), with no existing data")
                continue
            }
            if before.name != model.name {
                planModelRename(model, from: before, old: old, new: new, work: &work)
                continue
            }
            let renamedAway = SchemaDiff.renamedAway(in: model)
            for position in model.properties.indices where model.properties[position].isStored {
                let property = model.properties[position]
                let previous = SchemaDiff.counterpart(
                    of: property, in: before, within: model, naming: naming, near: position, renamedAway: renamedAway)
                planProperty(property, previous: previous, in: model, before: before, old: old, new: new, work: &work)
                reportCodableShape(property, in: model, before: before, old: old, new: new)
            }
            planUniqueness(model, before: before, old: old, new: new, work: &work)
        }
        diagnostics += Rules.check(Rules.step, StepSubject(old: old, new: new, changes: changes))
        for change in changes {
            switch change {
            case .superclassChanged(let model, _, _):
                work.hookReasons.append("move \(model)'s objects to their new superclass (\(change.summary))")
            case .enumCasesRemoved(let enumeration, let cases):
                work.hookReasons.append(
                    "map stored values of \(enumeration).\(cases.joined(separator: "/")) to cases that remain")
            default:
                break
            }
        }
        if let place = new.carriedFrom {
            work.carriedReason = "the app's own stage into \(new.version), carried from \(place)"
        } else if new.customMigration {
            work.hookReasons.append("the custom migration version \(new.version) asks for (customMigration: true)")
        }
        reportLosses(changes, old: old, new: new, work: &work)
        reportCloudKitShrinking(changes, old: old, new: new)

        var bridge: MigrationPlan.Bridge?
        if !work.conversions.isEmpty || !work.links.isEmpty || !work.recreated.isEmpty || !work.copies.isEmpty {
            bridge = makeBridge(from: old, into: new, work: work, declared: declared)
        }
        let stages = composeStages(from: old.version, to: new.version, bridge: bridge != nil, work: work)
        let hooks = stages.flatMap(\.actions).compactMap(\.hook).map {
            "\(names.hooks).\($0.name)(_:) — \($0.summary)"
        }
        // Hooks that hold the app's own code are carried, not written; other reasons still are.
        let carried = work.carriedReason == nil ? [] : hooks
        if !hooks.isEmpty && !work.hookReasons.isEmpty {
            diagnostics.append(
                .warning(
                    .hookRequired,
                    "the step to \(new.version) needs code only you can write: "
                        + "\(work.hookReasons.joined(separator: "; ")); declare "
                        + "\(hooks.count == 1 ? "this function" : "these functions") in an extension of \(names.hooks) "
                        + "(generate --hooks-output DIR creates a file to fill in)",
                    at: new.location, notes: hooks.map { Diagnostic.Note($0) }))
        }
        let descriptions = changes.map { change -> String in
            // A change of type that is acknowledged is re-created (or refused, with the reason said).
            if case .typeChanged(let model, let property, _, _) = change,
                new.acknowledgedRemovals.contains("\(model).\(property)")
            {
                return change.summary + " (acknowledged: re-created empty through a bridge, its data dropped)"
            }
            if case .modelRenamed(let from, let to) = change, work.copies.contains(where: { $0.oldModel == from }) {
                return "\(from) renamed to \(to): 2 stages, every \(from) copied into a \(to) through the bridge, "
                    + "links moved to the copies"
            }
            if case .typeChanged(let model, let property, _, _) = change,
                work.relinks.contains(where: { relink in
                    relink.copyLink == nil && relink.links.contains { $0.source == property }
                        && new.model(named: model).flatMap { SchemaDiff.counterpart(of: $0, in: old) }?.name
                            == relink.model
                })
            {
                return change.summary + " (its links move to the copies)"
            }
            if case .modelRemoved(let model) = change, let rename = work.renames.question(removedModel: model) {
                return change.summary + " (its rows are lost unless: \(rename.asked) see the warning)"
            }
            guard case .propertyRemoved(let model, let property) = change else { return change.summary }
            let oldModel = new.model(named: model).flatMap { SchemaDiff.counterpart(of: $0, in: old) }?.name ?? model
            if work.consumed.contains("\(oldModel).\(property)") {
                return change.summary + " (its data moves into the converted property)"
            }
            if new.acknowledgedRemovals.contains("\(model).\(property)") {
                return change.summary + " (acknowledged: its data is dropped)"
            }
            if let rename = work.renames.question(removed: property, of: oldModel) {
                return change.summary + " (its data is lost unless: \(rename.asked) see the warning)"
            }
            return change.summary + " (its data is lost: see the warning)"
        }
        let step = MigrationPlan.Step(
            from: old.version, to: new.version, changes: changes, changeDescriptions: descriptions, stages: stages,
            warnings: work.warnings, teamMustWrite: work.hookReasons.isEmpty ? [] : hooks, carriedFromApp: carried)
        return (step, bridge)
    }

    /// `previous` is the property's counterpart in `before` (`SchemaDiff.Counterparts`), if any.
    private mutating func planProperty(
        _ property: Property, previous counterpart: Property?, in model: ModelDecl, before: ModelDecl,
        old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        // Spelled out only where a message needs it.
        var path: String { "\(model.name).\(property.name)" }
        if let conversion = property.conversion {
            planConversion(conversion, of: property, in: model, before: before, old: old, new: new, work: &work)
            return
        }
        guard let previous = counterpart, previous.isStored else {
            let canStayEmpty =
                property.isOptional || property.defaultValue != nil || property.relationship?.isToMany == true
            if !canStayEmpty {
                let needed =
                    "\(path) is new and required, but existing \(model.name) objects have no value for it"
                let fix = "add default: … or make the type optional (\(SchemaDiff.typeDescription(property))?)"
                let message =
                    work.renames.question(added: property, in: model).map {
                        "\($0.asked) then write \($0.write) to keep its values. Otherwise \(needed): \(fix)"
                    } ?? "\(needed); \(fix)"
                diagnostics.append(
                    .error(
                        .requiredPropertyAdded, message,
                        at: property.location,
                        notes: [.init("version \(old.version) is declared here", at: old.location)]))
            }
            return
        }
        if let now = property.relationship, let was = previous.relationship, now.target != was.target,
            SchemaDiff.followsRenamedDestination(
                property, in: before, within: model, renamed: new.renamedModels, naming: naming)
        {
            planRelinked(property, from: previous, in: model, before: before, old: old, new: new, work: &work)
            return
        }
        if SchemaDiff.onlyEnumStorageDiffers(previous, property) {
            diagnostics.append(
                .error(
                    .typeChangeLosesData,
                    "\(path) changes from \(SchemaDiff.storageDescription(previous)) to "
                        + "\(SchemaDiff.storageDescription(property)); the store keeps the two differently, so the "
                        + "values must be copied: add from: { property: \(previous.name) }",
                    at: property.location,
                    notes: [.init("\(before.name).\(previous.name) is declared here", at: previous.location)]))
            return
        }
        if previous.flags.contains(.codable) != property.flags.contains(.codable) {
            diagnostics.append(
                .error(
                    .typeChangeLosesData,
                    "\(path) changes from \(SchemaDiff.storageDescription(previous)) to "
                        + "\(SchemaDiff.storageDescription(property)): a composite keeps a column per field and "
                        + ".codable one encoded value, so the values must be copied: add from: { property: "
                        + "\(previous.name), convert: \"$0\" }",
                    at: property.location,
                    notes: [.init("\(before.name).\(previous.name) is declared here", at: previous.location)]))
            return
        }
        if !SchemaDiff.sameStoredType(previous, property, old: old, new: new) {
            if recreate(previous, as: property, in: model, before: before, new: new, work: &work) { return }
            if previous.relationship != nil || property.relationship != nil {
                planRelationshipChange(
                    from: previous, to: property, in: model, before: before, old: old, new: new, work: &work)
                return
            }
            // Not even a hook can help: lightweight inference, which every stage's schema step
            // runs, does not change an attribute's type (docs/store-evidence.md, "Stages, bridges
            // and the store's version").
            diagnostics.append(
                .error(
                    .typeChangeLosesData,
                    "\(path) changes type from \(SchemaDiff.typeDescription(previous)) to "
                        + "\(SchemaDiff.typeDescription(property)), which would lose its data; add from: { property: "
                        + "\(previous.name), convert: \"<Swift over $0>\" } (and give the property a new name if you "
                        + "keep the old one), or, to re-create it empty, add \"\(path)\" to acknowledgedRemovals",
                    at: property.location,
                    notes: [.init("\(before.name).\(previous.name) is declared here", at: previous.location)]))
        } else if previous.isOptional && !property.isOptional && property.defaultValue == nil
            && property.relationship?.isToMany != true
        {
            refuseUnlessHooks(
                .optionalityTightened,
                "\(path) becomes required, but existing objects may hold nil; add default: … so SwiftData can "
                    + "fill them",
                obligation: "leave no \(before.name) whose \(previous.name) is nil",
                into: new, at: property.location,
                notes: [.init("optional in version \(old.version)", at: previous.location)])
        }
    }

    /// A refusal for want of code, unless the step into `new` runs hooks (`customMigration`): then
    /// a warning naming what that code must leave true, since only it can do the work.
    mutating func refuseUnlessHooks(
        _ code: DiagnosticCode, _ message: String, obligation: String, into new: SchemaVersion,
        at location: SourceLocation, notes: [Diagnostic.Note] = []
    ) {
        guard new.customMigration else {
            diagnostics.append(.error(code, message, at: location, notes: notes))
            return
        }
        let whose =
            new.carriedFrom.map { "the app's own stage (carried from \($0) into \(names.hooks))" }
            ?? "the hooks you write in \(names.hooks)"
        diagnostics.append(
            .warning(
                .customCodeObligation,
                "the step to \(new.version) leaves this to \(whose), whose willMigrate must \(obligation) before the "
                    + "schema step, or the migration fails on a device; without that code: \(message) "
                    + "[\(code.rawValue)]",
                at: location, notes: notes))
    }
}
