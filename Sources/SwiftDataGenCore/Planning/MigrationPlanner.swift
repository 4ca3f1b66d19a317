/// Derives the migration plan by diffing consecutive versions (DESIGN §6): lightweight where
/// SwiftData can infer the step, a custom stage where data must move, two stages through a
/// generated bridge schema for conversions, and hooks where only the team can write the code.
/// A change that would drop data the YAML does not account for is an error or a warning.
public struct MigrationPlanner: Sendable {
    let history: SchemaHistory
    let names: GeneratedNames
    let diff: SchemaDiff
    private var diagnostics: [Diagnostic] = []

    public init(history: SchemaHistory) {
        self.history = history
        self.names = GeneratedNames(schema: history.name, naming: history.config.naming)
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
            let (step, bridge) = stepPlanner.planStep(from: planner.history.versions[pair.old], to: planner.history.versions[pair.new], declared: declared)
            return (step, bridge, stepPlanner.diagnostics)
        }
        for (step, bridge, stepDiagnostics) in planned {
            steps.append(step)
            if let bridge { bridges.append(bridge) }
            diagnostics += stepDiagnostics
        }
        return MigrationPlan(versions: history.versions.map(\.version), bridges: bridges, steps: steps)
    }

    private struct StepIndices: Sendable {
        var old: Int
        var new: Int
    }

    private struct StepWork {
        var conversions: [MigrationPlan.Conversion] = []
        var links: [MigrationPlan.Link] = []
        var deduplications: [MigrationPlan.Deduplication] = []
        var hookReasons: [String] = []
        var warnings: [String] = []
        /// Properties the bridge adds, per old model name.
        var bridgeProperties: [String: [Property]] = [:]
        /// Models the bridge needs that the old version lacks (link targets).
        var bridgeModels: [ModelDecl] = []
        var bridgeEnums: [EnumDecl] = []
        /// Old `Model.property` names consumed by a conversion: not lost.
        var consumed: Set<String> = []
    }

    private mutating func planStep(
        from old: SchemaVersion, to new: SchemaVersion, declared: Set<SemanticVersion>
    ) -> (MigrationPlan.Step, MigrationPlan.Bridge?) {
        let changes = diff.changes(from: old, to: new)
        var work = StepWork()
        for model in new.models {
            guard let before = SchemaDiff.counterpart(of: model, in: old) else { continue }
            if before.name != model.name {
                diagnostics.append(.error(
                    .modelRenameUnsupported,
                    "SwiftData cannot rename a model, so '\(before.name)' → '\(model.name)' would drop every \(before.name); keep the name \(before.name) (rename the Swift type with a typealias in app code) or add \(model.name) as a new model",
                    at: model.location))
            }
            for property in model.properties where property.isStored {
                planProperty(property, in: model, before: before, old: old, new: new, work: &work)
            }
            planUniqueness(model, before: before, old: old, new: new, work: &work)
        }
        for change in changes {
            switch change {
            case .superclassChanged(let model, _, _):
                work.hookReasons.append("move \(model)'s objects to their new superclass (\(change.summary))")
            case .enumCasesRemoved(let enumeration, let cases):
                work.hookReasons.append("map stored values of \(enumeration).\(cases.joined(separator: "/")) to cases that remain")
            case .cardinalityChanged(let model, let property, let from, let to) where from.hasPrefix("to-one") != to.hasPrefix("to-one"):
                work.hookReasons.append("move \(model).\(property) from \(from) to \(to)")
            default:
                break
            }
        }
        if new.customMigration { work.hookReasons.append("the custom migration version \(new.version) asks for (customMigration: true)") }
        reportLosses(changes, old: old, new: new, work: &work)

        var bridge: MigrationPlan.Bridge?
        if !work.conversions.isEmpty || !work.links.isEmpty {
            bridge = makeBridge(from: old, into: new, work: work, declared: declared)
        }
        let stages = composeStages(from: old.version, to: new.version, bridge: bridge != nil, work: work)
        let hooks = stages.flatMap(\.actions).compactMap(\.hook).map { "\(names.hooks).\($0.name)(_:) — \($0.summary)" }
        if !hooks.isEmpty {
            diagnostics.append(.warning(
                .hookRequired,
                "the step to \(new.version) needs code only you can write: \(work.hookReasons.joined(separator: "; ")); declare \(hooks.count == 1 ? "this function" : "these functions") in an extension of \(names.hooks) (generate --hooks-output DIR creates a file to fill in)",
                at: new.location, notes: hooks.map { Diagnostic.Note($0) }))
        }
        let descriptions = changes.map { change -> String in
            guard case .propertyRemoved(let model, let property) = change else { return change.summary }
            let oldModel = new.model(named: model).flatMap { SchemaDiff.counterpart(of: $0, in: old) }?.name ?? model
            if work.consumed.contains("\(oldModel).\(property)") { return change.summary + " (its data moves into the converted property)" }
            if new.acknowledgedRemovals.contains("\(model).\(property)") { return change.summary + " (acknowledged: its data is dropped)" }
            return change.summary + " (its data is lost: see the warning)"
        }
        let step = MigrationPlan.Step(
            from: old.version, to: new.version, changes: changes, changeDescriptions: descriptions, stages: stages,
            warnings: work.warnings, teamMustWrite: hooks)
        return (step, bridge)
    }

    private mutating func planProperty(
        _ property: Property, in model: ModelDecl, before: ModelDecl, old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        let path = "\(model.name).\(property.name)"
        if let conversion = property.conversion {
            planConversion(conversion, of: property, in: model, before: before, old: old, new: new, work: &work)
            return
        }
        guard let previous = SchemaDiff.counterpart(of: property, in: before), previous.isStored else {
            let canStayEmpty = property.isOptional || property.defaultValue != nil || property.relationship?.isToMany == true
            if !canStayEmpty {
                diagnostics.append(.error(
                    .requiredPropertyAdded,
                    "\(path) is new and required, but existing \(model.name) objects have no value for it; add default: … or make the type optional (\(SchemaDiff.typeDescription(property))?)",
                    at: property.location, notes: [.init("version \(old.version) is declared here", at: old.location)]))
            }
            return
        }
        if !SchemaDiff.sameStoredType(previous, property, old: old, new: new) {
            diagnostics.append(.error(
                .typeChangeLosesData,
                "\(path) changes type from \(SchemaDiff.typeDescription(previous)) to \(SchemaDiff.typeDescription(property)), which would lose its data; add from: { property: \(previous.name), convert: \"<Swift over $0>\" } (and give the property a new name if you keep the old one)",
                at: property.location, notes: [.init("\(before.name).\(previous.name) is declared here", at: previous.location)]))
        } else if previous.isOptional && !property.isOptional && property.defaultValue == nil {
            diagnostics.append(.error(
                .optionalityTightened,
                "\(path) becomes required, but existing objects may hold nil; add default: … so SwiftData can fill them",
                at: property.location, notes: [.init("optional in version \(old.version)", at: previous.location)]))
        }
    }

    private mutating func planConversion(
        _ conversion: Conversion, of property: Property, in model: ModelDecl, before: ModelDecl,
        old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        let path = "\(model.name).\(property.name)"
        guard let source = before.property(named: conversion.sourceProperty), source.isStored else {
            let notes = Identifier.suggestion(for: conversion.sourceProperty, in: before.properties.map(\.name)).map { [Diagnostic.Note("did you mean '\($0)'?")] } ?? []
            diagnostics.append(.error(
                .conversionSourceMissing,
                "from.property '\(conversion.sourceProperty)' is not a stored property of \(before.name) in version \(old.version); name the property the value comes from",
                at: conversion.location, notes: notes))
            return
        }
        if property.renamedFrom != nil {
            diagnostics.append(.error(.conversionConflict, "\(path) has both renamedFrom and from; a converted value names its source in from.property only", at: conversion.location))
            return
        }
        if source.relationship != nil {
            diagnostics.append(.error(.conversionConflict, "from.property '\(source.name)' is a relationship; conversions read attributes", at: conversion.location))
            return
        }
        let bridgeName = source.name == property.name ? GeneratedNames.convertedProperty(property.name) : property.name
        if before.property(named: bridgeName) != nil {
            // The bridge holds the old model's properties and the new one side by side.
            let message = source.name == property.name
                ? "converting \(path) in place needs a temporary property '\(bridgeName)', but \(before.name) already has one; give the converted property a new name"
                : "\(before.name) in version \(old.version) already has a property '\(property.name)', so the bridge cannot hold the converted value beside it; convert in place (from.property: \(property.name)) or choose a new name"
            diagnostics.append(.error(.conversionConflict, message, at: conversion.location))
            return
        }
        work.consumed.insert("\(before.name).\(source.name)")
        var bridged = property
        bridged.name = bridgeName
        bridged.isOptional = true
        bridged.defaultValue = nil
        bridged.isUnique = false
        bridged.originalName = nil
        bridged.renamedFrom = nil
        bridged.conversion = nil

        if let relationship = property.relationship, let key = conversion.matchKey {
            guard case .attribute(.scalar(.string), false) = source.kind else {
                diagnostics.append(.error(.conversionConflict, "from.property '\(source.name)' must be a String to be matched against \(relationship.target).\(key)", at: conversion.location))
                return
            }
            guard let target = bridgeTarget(for: relationship, of: model, before: before, old: old, new: new, work: &work) else { return }
            let required = target.properties.filter { $0.isStored && $0.defaultValue == nil && !$0.isOptional && $0.relationship?.isToMany != true }
            guard required.map(\.name) == [key] else {
                diagnostics.append(.error(
                    .linkTargetNotCreatable,
                    "to create \(relationship.target) objects from text, \(relationship.target) may require only '\(key)'; give \(required.map(\.name).filter { $0 != key }.joined(separator: ", ")) a default or make it optional",
                    at: conversion.location))
                return
            }
            bridged.kind = .relationship(Relationship(
                target: target.name, isToMany: false, deleteRule: relationship.deleteRule, inverse: relationship.inverse,
                declaresInverse: relationship.inverse != nil, minCount: nil, maxCount: nil))
            work.bridgeProperties[before.name, default: []].append(bridged)
            work.links.append(MigrationPlan.Link(
                property: property.name, model: before.name, source: source.name, sourceIsOptional: source.isOptional, target: bridgeName,
                targetModel: target.name, matchKey: key,
                summary: "Links each \(before.name) to one \(target.name) per distinct \(source.name), creating the \(target.name) when missing"))
            return
        }
        guard case .attribute = property.kind else { return }
        if conversion.expression == nil && !SchemaDiff.sameStoredType(source, property, old: old, new: new) {
            diagnostics.append(.error(
                .typeChangeLosesData,
                "\(path) comes from \(source.name) of type \(SchemaDiff.typeDescription(source)) but is \(SchemaDiff.typeDescription(property)); add convert: \"<Swift over $0>\" to from",
                at: conversion.location))
            return
        }
        if case .attribute(.enumeration(let enumName, _), _) = property.kind, let decl = new.enumeration(named: enumName) {
            // The bridge declares one enum of that name: the old cases plus the new ones.
            if let oldDecl = old.enumeration(named: enumName) {
                let clash = decl.cases.first { item in
                    oldDecl.cases.contains { $0.name == item.name ? $0.rawValue != item.rawValue : $0.rawValue == item.rawValue }
                }
                if oldDecl.rawType != decl.rawType || clash != nil {
                    diagnostics.append(.error(
                        .conversionConflict,
                        "\(path) converts into \(enumName), whose raw values changed since version \(old.version); the bridge needs the old and new cases side by side, so keep existing cases' raw values and raw type, or convert into a new enum",
                        at: conversion.location))
                    return
                }
            }
            work.bridgeEnums.append(decl)
        }
        work.bridgeProperties[before.name, default: []].append(bridged)
        let heldAs = bridgeName == property.name ? "" : " (held as \(bridgeName) until the next stage)"
        work.conversions.append(MigrationPlan.Conversion(
            property: property.name, model: before.name, source: source.name, sourceType: SchemaDiff.typeDescription(source), target: bridgeName,
            targetType: SchemaDiff.typeDescription(property), expression: conversion.expression ?? "$0",
            summary: "Converts \(before.name).\(source.name) into \(model.name).\(property.name)\(heldAs), in batches"))
    }

    /// The related model a link points at, as the bridge declares it: the old model when it
    /// exists, otherwise the new one with its attributes and the inverse back.
    private mutating func bridgeTarget(
        for relationship: Relationship, of model: ModelDecl, before: ModelDecl, old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) -> ModelDecl? {
        guard let newTarget = new.model(named: relationship.target) else { return nil }
        if let existing = SchemaDiff.counterpart(of: newTarget, in: old) {
            if let inverse = relationship.inverse, existing.property(named: inverse) == nil, var back = newTarget.property(named: inverse) {
                back.kind = retarget(back.kind, to: before.name)
                back.isOptional = true
                work.bridgeProperties[existing.name, default: []].append(back)
            }
            return existing
        }
        if let added = work.bridgeModels.first(where: { $0.name == newTarget.name }) { return added }
        var target = newTarget
        target.properties = newTarget.properties.filter { $0.relationship == nil || $0.name == relationship.inverse }.map { property in
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
            if case .attribute(.enumeration(let enumName, _), _) = property.kind, let decl = new.enumeration(named: enumName) {
                work.bridgeEnums.append(decl)
            }
        }
        work.bridgeModels.append(target)
        return target
    }

    /// A relationship copied into the bridge, pointing at the old model. The bridge's link
    /// property carries `inverse:`, so the copy never does (one side only).
    private func retarget(_ kind: PropertyKind, to model: String) -> PropertyKind {
        guard case .relationship(var r) = kind else { return kind }
        r.target = model
        r.declaresInverse = false
        return .relationship(r)
    }

    private mutating func planUniqueness(_ model: ModelDecl, before: ModelDecl, old: SchemaVersion, new: SchemaVersion, work: inout StepWork) {
        let oldGroups = Set(diff.uniqueGroups(before))
        for group in diff.uniqueGroups(model) {
            let oldNames = group.map { diff.oldName(ofStored: $0, in: model, before: before) }
            guard !oldGroups.contains(oldNames) else { continue }
            // Only values that already exist can collide.
            guard oldNames.allSatisfy({ name in before.properties.contains { $0.isStored && diff.storedName($0) == name } }) else { continue }
            guard let policy = model.dedupe else {
                diagnostics.append(.error(
                    .uniquenessNeedsDedupe,
                    "\(model.name) becomes unique by (\(group.joined(separator: ", "))), but existing objects may repeat those values; add dedupe: { keep: first | last, orderBy: <property> } to \(model.name) to say which one survives",
                    at: model.location))
                continue
            }
            let orderByProperty = model.property(named: policy.orderBy).flatMap { SchemaDiff.counterpart(of: $0, in: before) }
            guard let orderBy = orderByProperty, orderBy.isStored, !orderBy.kind.isEnumeration, orderBy.relationship == nil else {
                diagnostics.append(.error(
                    .uniquenessNeedsDedupe,
                    "dedupe.orderBy '\(policy.orderBy)' must be a stored attribute that \(before.name) already has in version \(old.version), since duplicates are removed before the upgrade",
                    at: model.location))
                continue
            }
            work.deduplications.append(MigrationPlan.Deduplication(
                model: before.name, keys: oldNames, orderBy: orderBy.name, keepLast: policy.keepLast,
                summary: "Removes \(before.name) objects that repeat (\(oldNames.joined(separator: ", "))), keeping the \(policy.keepLast ? "last" : "first") by \(orderBy.name)"))
        }
    }

    private mutating func reportLosses(_ changes: [SchemaChange], old: SchemaVersion, new: SchemaVersion, work: inout StepWork) {
        for change in changes {
            let lost: String
            switch change {
            case .propertyRemoved(let model, let property):
                let oldModel = new.model(named: model).flatMap { SchemaDiff.counterpart(of: $0, in: old) }?.name ?? model
                guard !work.consumed.contains("\(oldModel).\(property)") else { continue }
                guard !new.acknowledgedRemovals.contains("\(model).\(property)") && !new.acknowledgedRemovals.contains("\(oldModel).\(property)") else { continue }
                lost = "\(oldModel).\(property)"
            case .modelRemoved(let model):
                guard !new.acknowledgedRemovals.contains(model) else { continue }
                lost = model
            default:
                continue
            }
            let message = "version \(new.version) removes \(lost), so its stored data is deleted on upgrade; if that is intended, add \"\(lost)\" to acknowledgedRemovals, otherwise keep it or move its data with from:"
            work.warnings.append(message)
            diagnostics.append(.warning(.dataLoss, message, at: new.location, notes: [.init("version \(old.version) is declared here", at: old.location)]))
        }
    }

    private mutating func makeBridge(from old: SchemaVersion, into new: SchemaVersion, work: StepWork, declared: Set<SemanticVersion>) -> MigrationPlan.Bridge? {
        let candidate = SemanticVersion(old.version.major, old.version.minor, old.version.patch + 1)
        guard candidate < new.version, !declared.contains(candidate) else {
            diagnostics.append(.error(
                .noRoomForBridge,
                "version \(new.version) needs a bridge schema after \(old.version), and the bridge needs a version number between them; number this version \(old.version.major).\(old.version.minor + 1).0 or later",
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
        // Touch only the models that change, so the rest share storage with the old version.
        for index in schema.models.indices {
            if schema.models[index].dedupe != nil { schema.models[index].dedupe = nil }
            if let added = work.bridgeProperties[schema.models[index].name] { schema.models[index].properties += added }
            for p in schema.models[index].properties.indices where schema.models[index].properties[p].conversion != nil {
                schema.models[index].properties[p].conversion = nil
            }
        }
        return MigrationPlan.Bridge(into: new.version, schema: schema)
    }

    private func composeStages(from old: SemanticVersion, to new: SemanticVersion, bridge: Bool, work: StepWork) -> [MigrationPlan.Stage] {
        let suffix = names.versionSuffix(new)
        let reasons = work.hookReasons.joined(separator: "; ")
        let willHooks: [MigrationPlan.Action] = work.hookReasons.isEmpty ? [] : [.hook(.init(name: "willMigrateTo\(suffix)", summary: "On the \(old) schema, before the upgrade: \(reasons)"))]
        let didHooks: [MigrationPlan.Action] = work.hookReasons.isEmpty ? [] : [.hook(.init(name: "didMigrateTo\(suffix)", summary: "On the \(new) schema, after the upgrade: \(reasons)"))]
        let will = work.deduplications.map(MigrationPlan.Action.deduplicate) + willHooks
        if bridge {
            let moves = work.conversions.map(MigrationPlan.Action.convert) + work.links.map(MigrationPlan.Action.link)
            let first = MigrationPlan.Stage.custom(from: .version(old), to: .bridge(into: new), willMigrate: will, didMigrate: moves)
            let second: MigrationPlan.Stage = didHooks.isEmpty
                ? .lightweight(from: .bridge(into: new), to: .version(new))
                : .custom(from: .bridge(into: new), to: .version(new), willMigrate: [], didMigrate: didHooks)
            return [first, second]
        }
        if will.isEmpty && didHooks.isEmpty { return [.lightweight(from: .version(old), to: .version(new))] }
        return [.custom(from: .version(old), to: .version(new), willMigrate: will, didMigrate: didHooks)]
    }
}
