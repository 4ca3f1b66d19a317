import SwiftDataGenDSL

/// Derives the migration plan by diffing consecutive versions (DESIGN §6): lightweight where
/// SwiftData can infer the step, a custom stage where data must move, two stages through a
/// generated bridge schema for conversions, and hooks where only the team can write the code.
/// A change that would drop data the YAML does not account for is an error or a warning.
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
            diagnostics += HistoryResolver.checkIdentifiersUnique(
                bridge.schema, naming: history.config.naming, schemaName: names.bridge(into: bridge.into))
        }
        return plan
    }

    /// Makes every schema of the plan differ in SwiftData's checksum from every earlier one —
    /// bridges included, not only neighbours — by adding `hashModifier: "<version>"` to one
    /// property where the store identity alone would repeat (evidence §4, WWDC25 [S17]). Depends
    /// only on the schemas before it, so adding versions never changes a shipped one.
    private mutating func settleChecksums(_ plan: inout MigrationPlan) {
        let naming = history.config.naming
        let references = plan.schemas
        for shipped in history.shippedModifiers {
            guard var schema = plan.schema(shipped.schema), let m = schema.modelIndex(named: shipped.model),
                let p = schema.models[m].properties.firstIndex(where: { $0.name == shipped.property }),
                schema.models[m].properties[p].hashModifier == nil
            else { continue }
            schema.models[m].properties[p].hashModifier = shipped.modifier
            plan.replace(shipped.schema, with: schema)
        }
        // Checksums on all cores, kept without their identities, so a long history never holds
        // every schema's identity at once. Each core takes a run of neighbouring schemas, which
        // share most of their hashes (`VersionHashCache`).
        let start = plan
        let run = max(1, (references.count + ParallelWork.cores - 1) / ParallelWork.cores)
        let runs = Array(stride(from: 0, to: references.count, by: run))
        // Properties stored as a type no hash proves in any schema: their types are erased in the
        // third reading of every schema, so a change to or from such a type alone is not trusted
        // to move the checksum.
        let uncertain = runs.parallelMap { first in
            references[first..<min(first + run, references.count)].reduce(into: Set<String>()) { keys, reference in
                guard let schema = start.schema(reference) else { return }
                keys.formUnion(
                    StoreIdentity.uncertainTypes(
                        of: schema.models.map { CoreDataEntity($0, in: schema, naming: naming) }))
            }
        }.reduce(into: Set<String>()) { $0.formUnion($1) }
        let identities = runs.parallelMap { first in
            var cache = VersionHashCache()
            return references[first..<min(first + run, references.count)].map { reference in
                start.schema(reference).map { StoreIdentity($0, naming: naming, cache: &cache) }.map {
                    ($0.readings(erasingTypesOf: uncertain, cache: &cache), $0)
                }
            }
        }.flatMap { $0 }
        var unproved = Set(identities.flatMap { $0?.1.unprovedRows ?? [] })
        // One table per reading (`StoreIdentity.readings`): a schema repeats an earlier one if it
        // does so under any.
        var seen: [[String: MigrationPlan.SchemaReference]] = [[:], [:], [:]]
        func earlierSchema(_ readings: [String]) -> MigrationPlan.SchemaReference? {
            zip(seen, readings).lazy.compactMap { $0[$1] }.first
        }
        var previous: SchemaVersion?
        for (reference, identity) in zip(references, identities) {
            guard var schema = plan.schema(reference), var readings = identity?.0, var shown = identity?.1 else {
                continue
            }
            if let earlier = earlierSchema(readings) {
                let modifier = "\(schema.version)"
                guard let (m, p) = modifierSite(in: schema, after: previous) else {
                    diagnostics.append(
                        .error(
                            .duplicateChecksum,
                            "version \(schema.version) would have the same SwiftData checksum as "
                                + "\(describe(earlier)) and has no stored property to carry a hashModifier; add a "
                                + "property or drop the version",
                            at: schema.location))
                    continue
                }
                schema.models[m].properties[p].hashModifier = modifier
                unproved.insert(.hashModifier)
                var cache = VersionHashCache()
                shown = StoreIdentity(schema, naming: naming, cache: &cache)
                readings = shown.readings(erasingTypesOf: uncertain, cache: &cache)
                if let clash = earlierSchema(readings) {
                    diagnostics.append(
                        .error(
                            .duplicateChecksum,
                            "version \(schema.version) has the same SwiftData checksum as \(describe(clash)) even "
                                + "with hashModifier \"\(modifier)\"; give "
                                + "\(schema.models[m].name).\(schema.models[m].properties[p].name) another "
                                + "hashModifier",
                            at: schema.models[m].properties[p].location))
                }
                plan.replace(reference, with: schema)
                let target: SemanticVersion
                switch reference {
                case .version(let number), .bridge(let number): target = number
                }
                if let step = plan.steps.firstIndex(where: { $0.to == target }) {
                    plan.steps[step].changeDescriptions.append(
                        "SwiftData's checksum would not tell \(describe(reference)) from \(describe(earlier)), so "
                            + "\(schema.models[m].name).\(schema.models[m].properties[p].name) carries hashModifier "
                            + "\"\(modifier)\""
                    )
                }
            }
            for (index, checksum) in readings.enumerated() {
                seen[index][checksum] = seen[index][checksum] ?? reference
            }
            plan.checksums[reference] = readings[0]
            if readings[1] != readings[0] { plan.pairedChecksums[reference] = readings[1] }
            plan.entityHashes[reference] = shown.entityHashes
            if let paired = shown.pairedReading, paired.entityHashes != shown.entityHashes {
                plan.pairedEntityHashes[reference] = paired.entityHashes
            }
            previous = schema
        }
        plan.unprovedRows = StorageRow.allCases.filter(unproved.contains)
    }

    private func describe(_ reference: MigrationPlan.SchemaReference) -> String {
        switch reference {
        case .version(let number): return "version \(number)"
        case .bridge(let number): return "the bridge into \(number)"
        }
    }

    /// Where a modifier goes: the first stored property, without one of its own, of the first
    /// model whose stored shape or defaults differ from the schema before; else of the first model.
    /// Never a composite (a Codable struct, an enum stored as itself): its hash is its elements'
    /// alone, so a modifier on it changes nothing (coredata-version-hash.md, step 4).
    private func modifierSite(in schema: SchemaVersion, after previous: SchemaVersion?) -> (model: Int, property: Int)?
    {
        let naming = history.config.naming
        let now = StoredShape(schema, naming: naming).lines
        let before = previous.map { StoredShape($0, naming: naming).lines } ?? []
        func changed(_ model: ModelDecl) -> Bool {
            let mine = { (line: StoredShape.Line) in
                line.subject == "model \(model.name)" || line.subject.hasPrefix("property \(model.name).")
            }
            let defaults = model.properties.map(\.defaultValue)
            return now.filter(mine) != before.filter(mine)
                || previous?.model(named: model.name)?.properties.map(\.defaultValue) != defaults
        }
        let order = schema.models.indices.filter { changed(schema.models[$0]) } + schema.models.indices
        for m in order {
            if let p = schema.models[m].properties.firstIndex(where: {
                $0.isStored && $0.hashModifier == nil && !$0.kind.isComposite && !$0.kind.storesEnumItself
            }) {
                return (m, p)
            }
        }
        return nil
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
        var work = StepWork(renames: RenameHints(from: old, to: new, naming: naming))
        for model in new.models {
            guard let before = SchemaDiff.counterpart(of: model, in: old) else {
                reportUnusedDedupe(model, because: "\(model.name) is new in \(new.version), with no existing data")
                continue
            }
            if before.name != model.name {
                planModelRename(model, from: before, old: old, new: new, work: &work)
                continue
            }
            for property in model.properties where property.isStored {
                planProperty(property, in: model, before: before, old: old, new: new, work: &work)
                reportCodableShape(property, in: model, before: before, old: old, new: new)
            }
            planUniqueness(model, before: before, old: old, new: new, work: &work)
        }
        for change in changes {
            switch change {
            case .superclassChanged(let model, _, _):
                work.hookReasons.append("move \(model)'s objects to their new superclass (\(change.summary))")
            case .enumCasesRemoved(let enumeration, let cases):
                work.hookReasons.append(
                    "map stored values of \(enumeration).\(cases.joined(separator: "/")) to cases that remain")
            case .cardinalityChanged(let model, let property, let from, let to)
            where from.hasPrefix("to-many") && to.hasPrefix("to-one"):
                // to-one → to-many is inferred (evidence §6, [S2]); the reverse must choose which
                // object stays, which only the team can say, and a hook runs too late to say it.
                let location = new.model(named: model)?.property(named: property)?.location ?? new.location
                diagnostics.append(
                    .error(
                        .toManyBecomesToOne,
                        "\(model).\(property) changes from \(from) to \(to), which SwiftData cannot infer: it "
                            + "would have to choose one related object per \(model); keep \(property) to-many in this "
                            + "version and add a new optional to-one relationship beside it (customMigration: true, "
                            + "then fill it in didMigrate), and remove \(property) in a later version",
                        at: location,
                        notes: [
                            .init(
                                "to-many in version \(old.version)",
                                at: old.model(named: model)?.property(named: property)?.location ?? old.location)
                        ]))
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
        let hooks = stages.flatMap(\.actions).compactMap(\.hook).map { "\(names.hooks).\($0.name)(_:) — \($0.summary)" }
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

    private mutating func planProperty(
        _ property: Property, in model: ModelDecl, before: ModelDecl, old: SchemaVersion, new: SchemaVersion,
        work: inout StepWork
    ) {
        let path = "\(model.name).\(property.name)"
        if let conversion = property.conversion {
            planConversion(conversion, of: property, in: model, before: before, old: old, new: new, work: &work)
            return
        }
        guard let previous = SchemaDiff.counterpart(of: property, in: before, within: model, naming: naming),
            previous.isStored
        else {
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
            planRelinked(property, from: previous, in: model, before: before, new: new, work: &work)
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
            // runs, does not change an attribute's type (evidence §2).
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

    /// A change of type or kind the author acknowledged as a removal: the property is re-created
    /// empty, dropped by a bridge and added back by the target, since no schema step converts it.
    /// False when not acknowledged; true when planned or refused here.
    private mutating func recreate(
        _ previous: Property, as property: Property, in model: ModelDecl, before: ModelDecl, new: SchemaVersion,
        work: inout StepWork
    ) -> Bool {
        let path = "\(model.name).\(property.name)"
        // Links to a model this version removes on purpose go with its rows: acknowledged with it.
        let destinationRemoved = previous.relationship.map {
            new.model(named: $0.target) == nil && new.acknowledgedRemovals.contains($0.target)
        }
        guard
            new.acknowledgedRemovals.contains(path)
                || new.acknowledgedRemovals.contains("\(before.name).\(previous.name)")
                || destinationRemoved == true
        else { return false }
        guard property.isOptional || property.defaultValue != nil || property.relationship?.isToMany == true else {
            diagnostics.append(
                .error(
                    .requiredPropertyAdded,
                    "\(path) is re-created empty (acknowledgedRemovals), but it is required and existing "
                        + "\(model.name) objects have no value for it; add default: … or make the type optional",
                    at: property.location))
            return true
        }
        work.recreated[before.name, default: []].insert(previous.name)
        return true
    }

    /// A relationship whose destination changes, or a property that turns from a relationship into
    /// an attribute or back: no conversion moves links. A destination replaced by a new model (the
    /// old one removed in this step, as apps rename model classes) is what shipped: its links go
    /// with the old model's rows, said as a loss; any other change is refused with what to write.
    private mutating func planRelationshipChange(
        from previous: Property, to property: Property, in model: ModelDecl, before: ModelDecl,
        old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        let path = "\(model.name).\(property.name)"
        let declared = [Diagnostic.Note("\(before.name).\(previous.name) is declared here", at: previous.location)]
        guard let was = previous.relationship, let now = property.relationship else {
            let (from, to) = (SchemaDiff.typeDescription(previous), SchemaDiff.typeDescription(property))
            var isText = false
            if case .attribute(.scalar(.string), false) = previous.kind { isText = true }
            let link =
                isText
                ? "; to link each object by that text, add from: { property: \(previous.name), match: <key of "
                    + "\(property.relationship?.target ?? "the destination")> } to a relationship of another name"
                : ""
            diagnostics.append(
                .error(
                    .typeChangeLosesData,
                    "\(path) changes from \(from) to \(to): a relationship is never converted into an attribute or "
                        + "back; keep \(previous.name) as it is and add the new property under another name, or, to "
                        + "re-create it empty (its \(previous.relationship == nil ? "values" : "links") are dropped), "
                        + "add \"\(path)\" to acknowledgedRemovals\(link)",
                    at: property.location, notes: declared))
            return
        }
        let replaced = new.model(named: was.target) == nil && old.model(named: now.target) == nil
        guard replaced else {
            diagnostics.append(
                .error(
                    .typeChangeLosesData,
                    "\(path) changes its destination from \(was.target) to \(now.target); links cannot move to "
                        + "another model: keep the destination, add a relationship of another name to \(now.target), "
                        + "or, to re-create it empty (its links are dropped), add \"\(path)\" to acknowledgedRemovals",
                    at: property.location, notes: declared))
            return
        }
        // Dropped by the bridge and added back, so no schema step has to infer a relationship
        // that changes its destination.
        work.recreated[before.name, default: []].insert(previous.name)
        let acknowledged = [was.target, "\(before.name).\(previous.name)", path].contains {
            new.acknowledgedRemovals.contains($0)
        }
        guard !acknowledged else { return }
        diagnostics.append(
            .warning(
                .dataLoss,
                "\(path) now leads to \(now.target), which replaces \(was.target) in version \(new.version): its "
                    + "links to \(was.target) objects are deleted with them on upgrade; if \(now.target) is "
                    + "\(was.target) renamed, write renamedFrom: \(was.target) on \(now.target) (its objects are copied "
                    + "and these links moved to the copies); if the loss is what shipped, add \"\(was.target)\" to "
                    + "acknowledgedRemovals",
                at: property.location, notes: declared))
    }

    /// A refusal for want of code, unless the step into `new` runs hooks (`customMigration`): then
    /// a warning naming what that code must leave true, since only it can do the work.
    private mutating func refuseUnlessHooks(
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

    private mutating func planConversion(
        _ conversion: Conversion, of property: Property, in model: ModelDecl, before: ModelDecl,
        old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        guard let source = conversionSource(conversion, of: property, in: model, before: before, old: old),
            let bridged = bridgeColumn(
                for: property, from: source, conversion: conversion, in: model, before: before, old: old, work: &work)
        else { return }
        if let relationship = property.relationship, let key = conversion.matchKey {
            planLink(
                relationship, matching: key, bridged: bridged, source: source, conversion: conversion, of: property,
                in: model, before: before, old: old, new: new, work: &work)
        } else if case .attribute = property.kind {
            planValueConversion(
                bridged: bridged, source: source, conversion: conversion, of: property, in: model, before: before,
                old: old, new: new, work: &work)
        }
    }

    /// The previous version's attribute a conversion reads, or nil with the reason said.
    private mutating func conversionSource(
        _ conversion: Conversion, of property: Property, in model: ModelDecl, before: ModelDecl, old: SchemaVersion
    ) -> Property? {
        let path = "\(model.name).\(property.name)"
        guard let source = before.property(named: conversion.sourceProperty), source.isStored else {
            let notes = Diagnostic.Note.suggestion(
                for: conversion.sourceProperty, in: before.properties.map { ($0.name, $0.location) })
            diagnostics.append(
                .error(
                    .conversionSourceMissing,
                    "from.property '\(conversion.sourceProperty)' is not a stored property of \(before.name) in "
                        + "version \(old.version); name the property the value comes from",
                    at: conversion.location, notes: notes))
            return nil
        }
        if property.renamedFrom != nil {
            diagnostics.append(
                .error(
                    .conversionConflict,
                    "\(path) has both renamedFrom and from; a converted value names its source in from.property only",
                    at: conversion.location))
            return nil
        }
        if source.relationship != nil {
            diagnostics.append(
                .error(
                    .conversionConflict,
                    "from.property '\(source.name)' is a relationship; conversions read attributes",
                    at: conversion.location))
            return nil
        }
        return source
    }

    /// The property the bridge stores a converted value in while both versions' columns exist:
    /// under a temporary name when converting in place. Nil, with the reason said, when the bridge
    /// cannot hold it beside the old model's properties.
    private mutating func bridgeColumn(
        for property: Property, from source: Property, conversion: Conversion, in model: ModelDecl,
        before: ModelDecl, old: SchemaVersion, work: inout StepWork
    ) -> Property? {
        let path = "\(model.name).\(property.name)"
        // An in-place conversion holds its value under the temporary identifier the resolver chose.
        let inPlace = source.name == property.name
        let naming = history.config.naming
        // The temporary column's identifier, and a Swift name the bridge can declare it under.
        let temporary =
            property.originalName
            ?? naming.storedName(of: property, named: GeneratedNames.convertedProperty(property.name))
        let bridgeName = inPlace ? Self.propertyName(storing: temporary, like: property, naming: naming) : property.name
        if before.property(named: bridgeName) != nil {
            // The bridge holds the old model's properties and the new one side by side.
            let message =
                source.name == property.name
                ? "converting \(path) in place needs a temporary property '\(bridgeName)', but \(before.name) "
                    + "already has one; give the converted property a new name"
                : "\(before.name) in version \(old.version) already has a property '\(property.name)', so the "
                    + "bridge cannot hold the converted value beside it; convert in place (from.property: "
                    + "\(property.name)) or choose a new name"
            diagnostics.append(.error(.conversionConflict, message, at: conversion.location))
            return nil
        }
        work.consumed.insert("\(before.name).\(source.name)")
        // The bridge declares the old model's stored properties beside the converted one, and a
        // class cannot store two properties under one name.
        let stored = naming.storedName(property)
        if !inPlace, let clash = before.properties.first(where: { $0.isStored && naming.storedName($0) == stored }) {
            let message =
                clash.name == source.name && SchemaDiff.sameColumnType(source, property)
                ? "\(path) is stored in '\(stored)', the column from.property '\(source.name)' is stored in, so "
                    + "there is nothing to convert: remove from: and the column keeps its values (read as "
                    + "\(SchemaDiff.typeDescription(property)) from then on); to rewrite them, convert into a "
                    + "property stored under another name"
                : "\(path) would be stored in '\(stored)', which \(before.name).\(clash.name) of version "
                    + "\(old.version) is stored in; the bridge holds both, so give \(property.name) another stored "
                    + "name (storedName:)"
            diagnostics.append(
                .error(
                    .conversionConflict, message, at: conversion.location,
                    notes: [.init("'\(clash.name)' is declared here", at: clash.location)]))
            return nil
        }
        var bridged = property
        bridged.name = bridgeName
        if inPlace {
            bridged.storedName = nil
            if naming.storedName(bridged) != temporary { bridged.storedName = temporary }
        }
        // Optional, because old rows have no value until the stage writes one; without what only
        // the new version means (its default, uniqueness, hash modifier, rename and conversion).
        bridged.isOptional = true
        bridged.defaultValue = nil
        bridged.isUnique = false
        bridged.hashModifier = nil
        // The bridge column carries the identifier the new version reads it back by.
        bridged.originalName = inPlace ? nil : property.originalName
        bridged.renamedFrom = nil
        bridged.conversion = nil
        return bridged
    }

    /// A text attribute turned into a relationship: each row linked to the related object whose
    /// `key` equals the text, created when missing.
    private mutating func planLink(
        _ relationship: Relationship, matching key: String, bridged: Property, source: Property,
        conversion: Conversion, of property: Property, in model: ModelDecl, before: ModelDecl,
        old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        var bridged = bridged
        let bridgeName = bridged.name
        guard case .attribute(.scalar(.string), false) = source.kind else {
            diagnostics.append(
                .error(
                    .conversionConflict,
                    "from.property '\(source.name)' must be a String to be matched against "
                        + "\(relationship.target).\(key)",
                    at: conversion.location))
            return
        }
        guard
            let target = bridgeTarget(for: relationship, of: model, before: before, old: old, new: new, work: &work)
        else { return }
        let required = target.properties.filter {
            $0.isStored && $0.defaultValue == nil && !$0.isOptional && $0.relationship?.isToMany != true
        }
        guard required.map(\.name) == [key] else {
            diagnostics.append(
                .error(
                    .linkTargetNotCreatable,
                    "to create \(relationship.target) objects from text, \(relationship.target) may require "
                        + "only '\(key)'; give \(required.map(\.name).filter { $0 != key }.joined(separator: ", ")) "
                        + "a default or make it optional",
                    at: conversion.location))
            return
        }
        bridged.kind = .relationship(
            Relationship(
                target: target.name, isToMany: false, deleteRule: relationship.deleteRule,
                inverse: relationship.inverse,
                declaresInverse: relationship.inverse != nil, minCount: nil, maxCount: nil))
        work.bridgeProperties[before.name, default: []].append(bridged)
        work.links.append(
            MigrationPlan.Link(
                property: property.name, model: before.name, source: source.name,
                sourceIsOptional: source.isOptional, target: bridgeName,
                targetModel: target.name, matchKey: key,
                summary:
                    "Links each \(before.name) to one \(target.name) per distinct \(source.name), creating "
                    + "the \(target.name) when missing"
            ))
    }

    /// An attribute converted from the previous version's value, through `convert:` or unchanged.
    private mutating func planValueConversion(
        bridged: Property, source: Property, conversion: Conversion, of property: Property, in model: ModelDecl,
        before: ModelDecl, old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        let path = "\(model.name).\(property.name)"
        let bridgeName = bridged.name
        // The same enum stored another way holds the same Swift values: it moves unchanged.
        let sameSwiftType = SchemaDiff.onlyEnumStorageDiffers(source, property)
        if conversion.expression == nil && !sameSwiftType
            && !SchemaDiff.sameStoredType(source, property, old: old, new: new)
        {
            diagnostics.append(
                .error(
                    .typeChangeLosesData,
                    "\(path) comes from \(source.name) of type \(SchemaDiff.typeDescription(source)) but is "
                        + "\(SchemaDiff.typeDescription(property)); add convert: \"<Swift over $0>\" to from",
                    at: conversion.location))
            return
        }
        if case .attribute(.enumeration(let enumName, _, _), _) = property.kind,
            let decl = new.enumeration(named: enumName)
        {
            // The bridge declares one enum of that name: the old cases plus the new ones.
            if let oldDecl = old.enumeration(named: enumName) {
                let clash = decl.cases.first { item in
                    oldDecl.cases.contains {
                        $0.name == item.name ? $0.rawValue != item.rawValue : $0.rawValue == item.rawValue
                    }
                }
                if oldDecl.rawType != decl.rawType || clash != nil {
                    diagnostics.append(
                        .error(
                            .conversionConflict,
                            "\(path) converts into \(enumName), whose raw values changed since version "
                                + "\(old.version); the bridge needs the old and new cases side by side, so keep "
                                + "existing cases' raw values and raw type, or convert into a new enum",
                            at: conversion.location))
                    return
                }
            }
            work.bridgeEnums.append(decl)
        }
        work.bridgeProperties[before.name, default: []].append(bridged)
        let heldAs = bridgeName == property.name ? "" : " (held as \(bridgeName) until the next stage)"
        work.conversions.append(
            MigrationPlan.Conversion(
                property: property.name, model: before.name, source: source.name,
                sourceType: SchemaDiff.typeDescription(source), target: bridgeName,
                targetType: SchemaDiff.typeDescription(property), expression: conversion.expression ?? "$0",
                summary:
                    "Converts \(before.name).\(source.name) into \(model.name).\(property.name)\(heldAs), in batches"))
    }

    /// The related model a link points at, as the bridge declares it: the old model when it
    /// exists, otherwise the new one with its attributes and the inverse back.
    private mutating func bridgeTarget(
        for relationship: Relationship, of model: ModelDecl, before: ModelDecl, old: SchemaVersion, new: SchemaVersion,
        work: inout StepWork
    ) -> ModelDecl? {
        guard let newTarget = new.model(named: relationship.target) else { return nil }
        if let existing = SchemaDiff.counterpart(of: newTarget, in: old) {
            if let inverse = relationship.inverse, existing.property(named: inverse) == nil,
                var back = newTarget.property(named: inverse)
            {
                back.kind = retarget(back.kind, to: before.name)
                back.isOptional = true
                work.bridgeProperties[existing.name, default: []].append(back)
            }
            return existing
        }
        if let added = work.bridgeModels.first(where: { $0.name == newTarget.name }) { return added }
        var target = newTarget
        target.properties = newTarget.properties.filter { $0.relationship == nil || $0.name == relationship.inverse }
            .map { property in
                var copy = property
                copy.kind = retarget(copy.kind, to: before.name)
                copy.originalName = nil
                copy.renamedFrom = nil
                copy.conversion = nil
                return copy
            }
        target.uniqueGroups = []
        target.indexGroups = []
        target.superclass = nil
        for property in target.properties {
            if case .attribute(.enumeration(let enumName, _, _), _) = property.kind,
                let decl = new.enumeration(named: enumName)
            {
                work.bridgeEnums.append(decl)
            }
        }
        work.bridgeModels.append(target)
        return target
    }

    /// A relationship copied into the bridge, pointing at the old model. The bridge's link
    /// property carries `inverse:`, so the copy never does (one side only).
    func retarget(_ kind: PropertyKind, to model: String) -> PropertyKind {
        guard case .relationship(var r) = kind else { return kind }
        r.target = model
        r.declaresInverse = false
        return .relationship(r)
    }

    /// Uniqueness added over existing rows: duplicates go before the stage that adds it (evidence
    /// §3), compared on converted values when a key is converted in the same step, with nil keys
    /// distinct unless the policy says otherwise. A key every existing row would share (a new
    /// property's default) would fail the stage on the second row, so it is refused.
    private mutating func planUniqueness(
        _ model: ModelDecl, before: ModelDecl, old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        // A group kept with its names in another order constrains the same values: no duplicates
        // can appear (the order is in the version hash, so such a version is still a new schema).
        let oldGroups = Set(diff.uniqueGroups(before).map(Set.init))
        let nilKeysAreEqual = model.dedupe?.nilKeysAreEqual ?? false
        /// Whether this step adds uniqueness the policy is for (used, or refused for another reason).
        var policyUsed = false
        for group in diff.uniqueGroups(model) {
            let oldNames = group.map { diff.oldName(ofStored: $0, in: model, before: before) }
            // Uniqueness over a key this step converts is new uniqueness: a conversion need not be
            // one-to-one ("7" and "007" both become 7), so the converted values are de-duplicated.
            let convertsAKey = group.contains { stored in
                model.properties.contains { property in
                    diff.storedName(property) == stored
                        && work.conversions.contains { $0.model == before.name && $0.property == property.name }
                }
            }
            let kept = oldGroups.contains(Set(oldNames))
            guard !kept || convertsAKey else { continue }
            let related = group.compactMap { stored in
                model.properties.first { diff.storedName($0) == stored && $0.relationship != nil }?.name
            }
            if !related.isEmpty {
                refuseUnlessHooks(
                    .uniquenessNeedsDedupe,
                    "\(model.name) becomes unique by (\(group.joined(separator: ", "))), which holds the "
                        + "relationship \(related.joined(separator: ", ")): existing objects may repeat it, and the "
                        + "generator does not remove duplicates by a related model; make the group unique in the "
                        + "version that adds \(model.name), or group attributes only",
                    obligation: "leave no two \(before.name) objects with equal (\(group.joined(separator: ", ")))",
                    into: new, at: model.location)
                continue
            }
            var keys: [String] = []
            var optionalKeys: [String] = []
            var keyProperties: [Property] = []
            var shared: [Property] = []
            var converted = false
            var alwaysNil = false
            for stored in group {
                guard let property = model.properties.first(where: { diff.storedName($0) == stored }) else { continue }
                if let conversion = work.conversions.first(where: {
                    $0.model == before.name && $0.property == property.name
                }) {
                    var bridged = property
                    bridged.name = conversion.target
                    keys.append(diff.storedName(bridged))
                    keyProperties.append(bridged)
                    optionalKeys.append(diff.storedName(bridged))
                    converted = true
                } else if let previous = SchemaDiff.counterpart(
                    of: property, in: before, within: model, naming: naming), previous.isStored
                {
                    keys.append(diff.storedName(previous))
                    keyProperties.append(previous)
                    if previous.isOptional { optionalKeys.append(diff.storedName(previous)) }
                } else if property.isOptional
                    && (property.defaultValue == nil || property.defaultValue == .literal(.null))
                {
                    alwaysNil = true
                } else {
                    shared.append(property)
                }
            }
            // Every existing row holds nil for a new optional key: with nil keys distinct, none collide.
            if alwaysNil && !nilKeysAreEqual { continue }
            policyUsed = true
            if keys.isEmpty {
                let names = shared.map(\.name).joined(separator: ", ")
                diagnostics.append(
                    .error(
                        .uniqueValueNotPerRow,
                        "\(model.name) becomes unique by (\(group.joined(separator: ", "))), but \(names) is new, "
                            + "so every existing \(model.name) would get the same value and the upgrade would fail on "
                            + "the second one; make it optional with no default (nil values never collide), or add it "
                            + "in one version and make it unique in a later one after filling it (from: or "
                            + "customMigration)",
                        at: shared.first?.location ?? model.location))
                continue
            }
            guard let policy = model.dedupe else {
                let why =
                    kept
                    ? "stays unique by (\(group.joined(separator: ", "))), but this step converts its values, and "
                        + "two values may convert to one"
                    : "becomes unique by (\(group.joined(separator: ", "))), but existing objects may repeat "
                        + "those values"
                let message =
                    "\(model.name) \(why); add dedupe: { keep: first | last, orderBy: <property> } to "
                    + "\(model.name) to say which one survives"
                if converted {
                    diagnostics.append(.error(.uniquenessNeedsDedupe, message, at: model.location))
                } else {
                    refuseUnlessHooks(
                        .uniquenessNeedsDedupe, message,
                        obligation: "leave no two \(before.name) objects with equal (\(group.joined(separator: ", ")))",
                        into: new, at: model.location)
                }
                continue
            }
            let orderByProperty = model.property(named: policy.orderBy).flatMap {
                SchemaDiff.counterpart(of: $0, in: before, within: model, naming: naming)
            }
            guard let orderBy = orderByProperty, orderBy.isStored, !orderBy.kind.isEnumeration,
                orderBy.relationship == nil
            else {
                diagnostics.append(
                    .error(
                        .uniquenessNeedsDedupe,
                        "dedupe.orderBy '\(policy.orderBy)' must be a stored attribute that \(before.name) "
                            + "already has in version \(old.version), since duplicates are removed before the upgrade",
                        at: policy.location))
                continue
            }
            let nils =
                optionalKeys.isEmpty
                ? "" : policy.nilKeysAreEqual ? ", nil counted as one value" : ", objects with a nil key kept"
            let deduplication = MigrationPlan.Deduplication(
                model: before.name, keys: keys, optionalKeys: optionalKeys, nilKeysAreEqual: policy.nilKeysAreEqual,
                keyType: keyProperties.count == 1 ? keyProperties.first?.scalarKeyType : nil,
                keyOrder: keyProperties.allSatisfy(\.isSortableAttribute)
                    ? zip(keys, keyProperties).map { .init(key: $0, isString: $1.isStringAttribute) } : nil,
                orderBy: orderBy.name,
                keepLast: policy.keepLast,
                summary:
                    "Removes \(before.name) objects that repeat "
                    + "(\(keys.joined(separator: ", ")))\(converted ? " after conversion" : ""), keeping the "
                    + "\(policy.keepLast ? "last" : "first") by \(orderBy.name)\(nils)"
            )
            if converted {
                work.deduplicationsAfterConversion.append(deduplication)
            } else {
                work.deduplications.append(deduplication)
            }
        }
        if !policyUsed {
            reportUnusedDedupe(
                model, because: "the step from \(old.version) adds no uniqueness over existing \(model.name) data")
        }
    }

    /// SDG635: a struct stored `.codable` whose fields change needs no stage (SwiftData sees one
    /// encoded value), but every value an earlier version encoded must still decode.
    private mutating func reportCodableShape(
        _ property: Property, in model: ModelDecl, before: ModelDecl, old: SchemaVersion, new: SchemaVersion
    ) {
        guard property.flags.contains(.codable),
            let previous = SchemaDiff.counterpart(of: property, in: before, within: model, naming: naming),
            previous.flags.contains(.codable), SchemaDiff.sameStoredType(previous, property, old: old, new: new)
        else { return }
        let changed = Set(Self.structNames(in: property.kind)).union(Self.structNames(in: previous.kind)).filter {
            old.compositeSignature(of: $0) != new.compositeSignature(of: $0)
        }
        guard !changed.isEmpty else { return }
        diagnostics.append(
            .warning(
                .codableShapeChanged,
                "\(model.name).\(property.name) is stored .codable, and \(changed.sorted().joined(separator: ", ")) "
                    + "changed fields since \(old.version): SwiftData migrates nothing for it, so every value stored "
                    + "by an earlier version must still decode; make new fields optional (or decode a default in "
                    + "init(from:)) and keep every stored field's name and type",
                at: property.location))
    }

    /// The struct a value names, if any.
    private static func structNames(in kind: PropertyKind) -> [String] {
        switch kind {
        case .attribute(.composite(let name), _), .attribute(.dictionary(_, let name), _): return [name]
        default: return []
        }
    }

    /// SDG633: a `dedupe` no step reads would otherwise be accepted and silently do nothing.
    private mutating func reportUnusedDedupe(_ model: ModelDecl, because reason: String) {
        guard let policy = model.dedupe else { return }
        diagnostics.append(
            .warning(
                .dedupeUnused, "dedupe on \(model.name) is not used: \(reason); remove it from this version",
                at: policy.location))
    }

    private mutating func reportLosses(
        _ changes: [SchemaChange], old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        for change in changes {
            let lost: String
            var rename: RenameHints.Question?
            switch change {
            case .propertyRemoved(let model, let property):
                let oldModel =
                    new.model(named: model).flatMap { SchemaDiff.counterpart(of: $0, in: old) }?.name ?? model
                guard !work.consumed.contains("\(oldModel).\(property)") else { continue }
                guard
                    !new.acknowledgedRemovals.contains("\(model).\(property)")
                        && !new.acknowledgedRemovals.contains("\(oldModel).\(property)")
                else { continue }
                lost = "\(oldModel).\(property)"
                rename = work.renames.question(removed: property, of: oldModel)
            case .modelRemoved(let model):
                guard !new.acknowledgedRemovals.contains(model) else { continue }
                lost = model
                rename = work.renames.question(removedModel: model)
            default:
                continue
            }
            let deleted =
                "version \(new.version) removes \(lost), so its stored data is deleted on upgrade; if that is "
                + "intended, add \"\(lost)\" to acknowledgedRemovals"
            let message =
                rename.map { "\($0.asked) then write \($0.write) to keep its values. Otherwise \(deleted)" }
                ?? "\(deleted), otherwise keep it or move its data with from:"
            work.warnings.append(message)
            diagnostics.append(
                .warning(
                    .dataLoss, message, at: new.location,
                    notes: [.init("version \(old.version) is declared here", at: old.location)]))
        }
    }

    /// Between two versions that sync, CloudKit's schema only grows: a field removed, renamed or
    /// retyped here is still written by devices on the older version.
    private mutating func reportCloudKitShrinking(_ changes: [SchemaChange], old: SchemaVersion, new: SchemaVersion) {
        guard history.config.cloudKit.applies(to: old.version) else { return }
        for change in changes {
            switch change {
            case .modelRemoved, .propertyRemoved, .propertyRenamed, .modelRenamed, .typeChanged, .storedNameChanged:
                diagnostics.append(
                    .warning(
                        .cloudKitSchemaShrinks,
                        "\(change.summary) between \(old.version) and \(new.version), which both sync with "
                            + "CloudKit; CloudKit's production schema only grows, and devices still on \(old.version) "
                            + "go on syncing the old field; keep the old property beside the new one until no device "
                            + "runs \(old.version)",
                        at: new.location, notes: [.init("version \(old.version) is declared here", at: old.location)]))
            default:
                continue
            }
        }
    }

    private mutating func makeBridge(
        from old: SchemaVersion, into new: SchemaVersion, work: StepWork, declared: Set<SemanticVersion>
    ) -> MigrationPlan.Bridge? {
        let candidate = SemanticVersion(old.version.major, old.version.minor, old.version.patch + 1)
        guard candidate < new.version, !declared.contains(candidate) else {
            diagnostics.append(
                .error(
                    .noRoomForBridge,
                    "version \(new.version) needs a bridge schema after \(old.version), and the bridge needs a "
                        + "version number between them; number this version "
                        + "\(old.version.major).\(old.version.minor + 1).0 or later",
                    at: new.location))
            return nil
        }
        var schema = old
        schema.version = candidate
        schema.file = new.file
        schema.location = new.location
        schema.acknowledgedRemovals = []
        schema.customMigration = false
        for decl in work.bridgeEnums {
            if let index = schema.enums.firstIndex(where: { $0.name == decl.name }) {
                let missing = decl.cases.filter { item in !schema.enums[index].cases.contains { $0.name == item.name } }
                schema.enums[index].cases += missing
            } else {
                schema.enums.append(decl)
            }
        }
        schema.models += work.bridgeModels
        // The structs the bridge's new properties hold come from the new version; one name
        // cannot stand for two structs in one schema.
        let held = (work.bridgeProperties.values.joined() + work.bridgeModels.flatMap(\.properties)).compactMap {
            property -> String? in
            switch property.kind {
            case .attribute(.composite(let name), _), .attribute(.dictionary(_, let name), _): return name
            default: return nil
            }
        }
        for name in new.structsHeld(by: Set(held).sorted()) {
            guard let decl = new.structure(named: name) else { continue }
            if let existing = schema.structure(named: name) {
                guard schema.compositeSignature(of: name) == new.compositeSignature(of: name) else {
                    diagnostics.append(
                        .error(
                            .conversionConflict,
                            "struct \(name) changes its fields in \(new.version), and a conversion fills a "
                                + "property of the new \(name) while the old one is still stored; give the changed "
                                + "struct a new name",
                            at: decl.location,
                            notes: [.init("\(name) in \(old.version) is declared here", at: existing.location)]))
                    return nil
                }
            } else {
                schema.structs.append(decl)
            }
        }
        // Touch only the models that change, so the rest share storage with the old version.
        for index in schema.models.indices {
            if schema.models[index].dedupe != nil { schema.models[index].dedupe = nil }
            if let dropped = work.recreated[schema.models[index].name] {
                schema.models[index].properties.removeAll { dropped.contains($0.name) }
            }
            // A relationship whose inverse the bridge drops keeps no inverse.
            for p in schema.models[index].properties.indices {
                guard case .relationship(var relationship) = schema.models[index].properties[p].kind,
                    let inverse = relationship.inverse, work.recreated[relationship.target]?.contains(inverse) == true
                else { continue }
                relationship.inverse = nil
                relationship.declaresInverse = false
                schema.models[index].properties[p].kind = .relationship(relationship)
            }
            if let added = work.bridgeProperties[schema.models[index].name] { schema.models[index].properties += added }
            for p in schema.models[index].properties.indices where schema.models[index].properties[p].conversion != nil
            {
                schema.models[index].properties[p].conversion = nil
            }
        }
        return MigrationPlan.Bridge(into: new.version, schema: schema)
    }

    private func composeStages(from old: SemanticVersion, to new: SemanticVersion, bridge: Bool, work: StepWork)
        -> [MigrationPlan.Stage]
    {
        let suffix = names.versionSuffix(new)
        let allReasons = (work.carriedReason.map { [$0] } ?? []) + work.hookReasons
        let reasons = allReasons.joined(separator: "; ")
        let willHooks: [MigrationPlan.Action] =
            allReasons.isEmpty
            ? []
            : [
                .hook(
                    .init(
                        name: "willMigrateTo\(suffix)", summary: "On the \(old) schema, before the upgrade: \(reasons)")
                )
            ]
        let didHooks: [MigrationPlan.Action] =
            allReasons.isEmpty
            ? []
            : [
                .hook(
                    .init(name: "didMigrateTo\(suffix)", summary: "On the \(new) schema, after the upgrade: \(reasons)")
                )
            ]
        let will = work.deduplications.map(MigrationPlan.Action.deduplicate) + willHooks
        if bridge {
            // The bridge's schema step adds the new columns; the data moves in the next stage's
            // willMigrate, which reruns until that stage's schema step commits: a launch ended part
            // way loses nothing, where a didMigrate is never run again (evidence §11).
            let first: MigrationPlan.Stage =
                will.isEmpty
                ? .lightweight(from: .version(old), to: .bridge(into: new))
                : .custom(from: .version(old), to: .bridge(into: new), willMigrate: will, didMigrate: [])
            // Copies come before the relinks, which replace each related object by its copy.
            let moves =
                work.conversions.map(MigrationPlan.Action.convert) + work.links.map(MigrationPlan.Action.link)
                + work.copies.map(MigrationPlan.Action.copy) + work.relinks.map(MigrationPlan.Action.relink)
                + work.deduplicationsAfterConversion.map(MigrationPlan.Action.deduplicate)
            // A bridge that only drops properties to re-create them moves nothing.
            let second: MigrationPlan.Stage =
                moves.isEmpty && didHooks.isEmpty
                ? .lightweight(from: .bridge(into: new), to: .version(new))
                : .custom(from: .bridge(into: new), to: .version(new), willMigrate: moves, didMigrate: didHooks)
            return [first, second]
        }
        if will.isEmpty && didHooks.isEmpty { return [.lightweight(from: .version(old), to: .version(new))] }
        return [.custom(from: .version(old), to: .version(new), willMigrate: will, didMigrate: didHooks)]
    }
}

extension MigrationPlanner {
    /// The Swift name under which a property like `property` is stored as `identifier`: the
    /// identifier without the raw-value suffix for an enum stored by raw value, else itself.
    static func propertyName(storing identifier: String, like property: Property, naming: NamingConfig) -> String {
        guard property.kind.storesEnumRawValue, identifier.hasSuffix(naming.rawValueSuffix),
            identifier.count > naming.rawValueSuffix.count
        else { return identifier }
        return String(identifier.dropLast(naming.rawValueSuffix.count))
    }
}
