import SwiftDataGenDSL

/// A model renamed through a bridge (docs/store-evidence.md, "Model renames"): SwiftData has no
/// renaming identifier for a model, so the bridge holds the old model and the new one side by side;
/// the stage after it copies every old object into a new one and moves every link to the copies in
/// an idempotent `willMigrate`, and its schema step drops the old model.
extension MigrationPlanner {
    /// Plans the copy of `before` into `model` and the relinks of the copies' own relationships;
    /// relationships of other models that follow the rename are planned by `planRelinked`.
    mutating func planModelRename(
        _ model: ModelDecl, from before: ModelDecl, old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        guard renameIsSupported(model, from: before, old: old, new: new) else { return }
        reportUnusedDedupe(
            model,
            because: "\(model.name) is renamed from \(before.name) in \(new.version), and its copies keep "
                + "\(before.name)'s uniqueness")
        let renamed = new.renamedModels
        var bridged = model
        bridged.renamedFrom = nil
        bridged.dedupe = nil
        bridged.properties = []
        var arguments: [MigrationPlan.ModelCopy.CopiedValue] = []
        var values: [MigrationPlan.ModelCopy.CopiedValue] = []
        var links: [MigrationPlan.Relink.MovedLink] = []
        var valid = true
        for property in model.properties {
            guard property.isStored else {
                bridged.properties.append(property)
                continue
            }
            if let relationship = property.relationship {
                guard
                    let previous = SchemaDiff.counterpart(of: property, in: before, within: model, naming: naming),
                    let was = previous.relationship
                else { continue }
                guard var kept = copiedRelationship(property, from: previous, in: model, old: old, new: new) else {
                    valid = false
                    continue
                }
                kept.originalName = property.originalName
                bridged.properties.append(kept)
                // A link to a model kept by name is set from that model's side when the bridge
                // keeps the inverse there (a relationship of that model that follows the rename).
                let otherSideSetsIt = renamed[relationship.target] == nil && kept.relationship?.inverse != nil
                if !otherSideSetsIt {
                    links.append(
                        .init(
                            target: property.name, source: previous.name, isToMany: relationship.isToMany,
                            sourceIsOptional: previous.isOptional,
                            through: renamed[relationship.target].map { _ in
                                copyLinkName(into: relationship.target, from: was.target, in: old)
                            }))
                }
                continue
            }
            var attribute = property
            attribute.renamedFrom = nil
            attribute.conversion = nil
            bridged.properties.append(attribute)
            let reported = diagnostics.count
            guard let (value, swiftSource) = copiedValue(property, in: model, from: before, old: old, new: new) else {
                if diagnostics.count > reported {
                    valid = false
                } else if property.defaultValue == nil && !property.isOptional {
                    valid = false
                    reportNoSource(property, in: model, from: before, old: old)
                }
                continue
            }
            if let conversion = property.conversion {
                work.consumed.insert("\(before.name).\(conversion.sourceProperty)")
            }
            let required = property.defaultValue == nil && !property.isOptional
            if required {
                arguments.append(.init(target: property.name, source: swiftSource, conversion: value.conversion))
            }
            // The init sets a value through its Swift name; the stored column is copied as it is.
            if !required || naming.storedName(property) != property.name {
                values.append(value)
            }
        }
        guard valid else { return }
        let allNames = Set(bridged.properties.map(\.name))
        bridged.uniqueGroups = model.uniqueGroups.filter { $0.allSatisfy(allNames.contains) }
        bridged.indexGroups = model.indexGroups.filter { $0.allSatisfy(allNames.contains) }
        for property in bridged.properties {
            if case .attribute(.enumeration(let enumName, _, _), _) = property.kind,
                let decl = new.enumeration(named: enumName)
            {
                work.bridgeEnums.append(decl)
            }
        }
        work.bridgeModels.append(bridged)
        let copyLink = copyLinkName(into: model.name, from: before.name, in: old)
        let link = Property(
            name: copyLink,
            kind: .relationship(
                Relationship(
                    target: model.name, isToMany: false, deleteRule: .nullify, inverse: nil, declaresInverse: false,
                    minCount: nil, maxCount: nil)),
            isOptional: true, location: model.location)
        work.bridgeProperties[before.name, default: []].append(link)
        work.copies.append(
            MigrationPlan.ModelCopy(
                oldModel: before.name, newModel: model.name, copyLink: copyLink, arguments: arguments, values: values,
                summary: "Copies every \(before.name) into a new \(model.name), with every stored value, in batches"))
        if !links.isEmpty {
            work.relinks.append(
                MigrationPlan.Relink(
                    model: before.name, copyLink: copyLink, links: links,
                    summary:
                        "Sets each \(model.name) copy's \(links.map(\.target).joined(separator: ", ")) from its "
                        + "\(before.name), in batches"))
        }
    }

    /// A relationship of another model that follows its destination's rename: the bridge holds
    /// a second relationship to the new model, filled from the old links, which the next
    /// version reads back under the relationship's name (its identifier, `HistoryResolver`).
    mutating func planRelinked(
        _ property: Property, from previous: Property, in model: ModelDecl, before: ModelDecl, old: SchemaVersion,
        new: SchemaVersion, work: inout StepWork
    ) {
        guard let now = property.relationship, let was = previous.relationship else { return }
        let path = "\(model.name).\(property.name)"
        guard now.isToMany == was.isToMany else {
            diagnostics.append(
                .error(
                    .modelRenameUnsupported,
                    "\(path) follows \(was.target)'s rename to \(now.target) and changes from "
                        + "\(was.isToMany ? "to-many" : "to-one") to \(now.isToMany ? "to-many" : "to-one") "
                        + "in the same "
                        + "step; keep its cardinality here and change it in a later version",
                    at: property.location))
            return
        }
        var parallel = property
        parallel.name = Self.relinkedName(of: property)
        parallel.originalName = nil
        parallel.renamedFrom = nil
        parallel.hashModifier = nil
        parallel.conversion = nil
        parallel.defaultValue = nil
        if !now.isToMany { parallel.isOptional = true }
        // The bridge's copy of the renamed model holds only the relationships it copies: an inverse
        // that is new in this step is not there, and the link is set from this side alone.
        if var relationship = parallel.relationship, let inverse = relationship.inverse,
            let oldTarget = new.renamedModels[now.target], let target = new.model(named: now.target),
            let back = target.property(named: inverse), let targetBefore = old.model(named: oldTarget),
            SchemaDiff.counterpart(of: back, in: targetBefore, within: target, naming: naming)?.relationship == nil
        {
            relationship.inverse = nil
            relationship.declaresInverse = false
            parallel.kind = .relationship(relationship)
        }
        work.bridgeProperties[before.name, default: []].append(parallel)
        work.consumed.insert("\(before.name).\(previous.name)")
        let moved = MigrationPlan.Relink.MovedLink(
            target: parallel.name, source: previous.name, isToMany: now.isToMany, sourceIsOptional: previous.isOptional,
            through: copyLinkName(into: now.target, from: was.target, in: old))
        if let index = work.relinks.firstIndex(where: { $0.model == before.name && $0.copyLink == nil }) {
            work.relinks[index].links.append(moved)
            work.relinks[index].summary = Self.relinkSummary(before.name, work.relinks[index].links)
        } else {
            work.relinks.append(
                MigrationPlan.Relink(
                    model: before.name, copyLink: nil, links: [moved], summary: Self.relinkSummary(before.name, [moved])
                ))
        }
    }

    /// The bridge's name for a relationship that follows a rename: the identifier the next
    /// version reads it back by.
    static func relinkedName(of property: Property) -> String {
        property.originalName ?? GeneratedNames.relinkedProperty(property.name)
    }

    private static func relinkSummary(_ model: String, _ links: [MigrationPlan.Relink.MovedLink]) -> String {
        "Points each \(model)'s \(links.map(\.source).joined(separator: ", ")) at the renamed models' copies, "
            + "in batches"
    }

    /// The copy link's name on the old model: `labelCopy`, numbered past any name it already has.
    func copyLinkName(into model: String, from oldModel: String, in old: SchemaVersion) -> String {
        let base = GeneratedNames.copyLink(to: model)
        guard let owner = old.model(named: oldModel) else { return base }
        var candidate = base
        var counter = 1
        while owner.properties.contains(where: { $0.name == candidate || naming.storedName($0) == candidate }) {
            counter += 1
            candidate = base + "\(counter)"
        }
        return candidate
    }

    /// Where SwiftData or the copy cannot follow a rename, the refusal and its reason.
    private mutating func renameIsSupported(
        _ model: ModelDecl, from before: ModelDecl, old: SchemaVersion, new: SchemaVersion
    ) -> Bool {
        let rename = "\(before.name) is renamed to \(model.name)"
        var reasons: [String] = []
        if history.config.cloudKit.applies(to: old.version) {
            reasons.append(
                "CloudKit stores each model as a record type that is never removed from its production schema: a "
                    + "renamed model is a second record type, every row would be uploaded again as a new record, and "
                    + "devices still on \(old.version) go on syncing \(before.name); keep the name \(before.name) "
                    + "(rename the Swift type with a typealias in app code)")
        }
        let subclasses =
            old.models.filter { $0.superclass == before.name } + new.models.filter { $0.superclass == model.name }
        if model.superclass != nil || before.superclass != nil || !subclasses.isEmpty {
            reasons.append(
                "it takes part in inheritance, and copying an object would not keep its subclass; rename it before "
                    + "it inherits or is inherited from, or keep the name")
        }
        if new.model(named: before.name) != nil {
            reasons.append(
                "version \(new.version) also declares a model named \(before.name), and the bridge holds the old "
                    + "\(before.name) beside \(model.name); rename in two versions")
        }
        if old.model(named: model.name) != nil {
            reasons.append(
                "version \(old.version) already has a model named \(model.name); the bridge cannot hold both")
        }
        let oldGroups = Set(diff.uniqueGroups(before).map(Set.init))
        for group in diff.uniqueGroups(model) {
            let oldNames = Set(group.map { diff.oldName(ofStored: $0, in: model, before: before) })
            if !oldGroups.contains(oldNames) {
                reasons.append(
                    "\(model.name) becomes unique by (\(group.joined(separator: ", "))) in the same step, and copies "
                        + "that repeat a value would be merged; add the uniqueness in a later version (with dedupe:)")
            }
        }
        for property in model.properties where property.isStored {
            if property.conversion?.matchKey != nil {
                reasons.append(
                    "\(model.name).\(property.name) is linked from text (from.match) in the same step; link it in a "
                        + "later version")
            }
            if let r = property.relationship, !r.isToMany, !property.isOptional {
                reasons.append(
                    "\(model.name).\(property.name) is a required to-one, and a copy is made before its related "
                        + "object's copy exists; make it optional")
            }
        }
        if reasons.isEmpty { return true }
        for reason in reasons {
            diagnostics.append(
                .error(
                    .modelRenameUnsupported, "\(rename), but \(reason)", at: model.location,
                    notes: [.init("\(before.name) in version \(old.version) is declared here", at: before.location)]))
        }
        return false
    }

    /// A relationship of the renamed model as the bridge declares it: its destination the model
    /// the bridge holds (a renamed one under its new name), and an inverse that names a
    /// relationship following the rename under the bridge's name for it.
    private mutating func copiedRelationship(
        _ property: Property, from previous: Property, in model: ModelDecl, old: SchemaVersion, new: SchemaVersion
    ) -> Property? {
        guard var relationship = property.relationship, let was = previous.relationship else { return nil }
        let renamed = new.renamedModels
        let path = "\(model.name).\(property.name)"
        let expected = renamed[relationship.target] ?? relationship.target
        guard was.target == expected, was.isToMany == relationship.isToMany, old.model(named: expected) != nil else {
            diagnostics.append(
                .error(
                    .modelRenameUnsupported,
                    "\(path) is copied from \(previous.name), which leads to \(was.target)"
                        + "\(was.isToMany ? " (to-many)" : " (to-one)"); a renamed model's relationship keeps its "
                        + "destination and cardinality in the step that renames it, so change it in a later version",
                    at: property.location))
            return nil
        }
        if let inverse = relationship.inverse, renamed[relationship.target] == nil,
            let target = new.model(named: relationship.target), let back = target.property(named: inverse),
            let targetBefore = old.model(named: relationship.target)
        {
            if SchemaDiff.followsRenamedDestination(
                back, in: targetBefore, within: target, renamed: renamed, naming: naming)
            {
                relationship.inverse = Self.relinkedName(of: back)
            } else {
                relationship.inverse = nil
                relationship.declaresInverse = false
            }
        }
        var kept = property
        kept.kind = .relationship(relationship)
        kept.renamedFrom = nil
        kept.conversion = nil
        return kept
    }

    /// What an attribute of the renamed model is copied from: its counterpart (the same name or
    /// `renamedFrom`) or `from: { property:, convert: }`; nil when it is new.
    private mutating func copiedValue(
        _ property: Property, in model: ModelDecl, from before: ModelDecl, old: SchemaVersion, new: SchemaVersion
    ) -> (MigrationPlan.ModelCopy.CopiedValue, swiftSource: String)? {
        let path = "\(model.name).\(property.name)"
        if let conversion = property.conversion {
            guard let source = before.property(named: conversion.sourceProperty), source.isStored,
                source.relationship == nil
            else {
                diagnostics.append(
                    .error(
                        .conversionSourceMissing,
                        "from.property '\(conversion.sourceProperty)' is not a stored attribute of \(before.name) in "
                            + "version \(old.version); name the attribute the value comes from",
                        at: conversion.location))
                return nil
            }
            let plain = { (p: Property) in
                if case .attribute(.scalar, _) = p.kind, !p.flags.contains(.codable) { return true }
                return false
            }
            guard plain(source), plain(property) else {
                diagnostics.append(
                    .error(
                        .modelRenameUnsupported,
                        "\(path) converts \(before.name).\(source.name) while \(before.name) is renamed; a renamed "
                            + "model converts values of plain types only (no enum or struct): convert in a later "
                            + "version",
                        at: conversion.location))
                return nil
            }
            guard let expression = conversion.expression else {
                guard SchemaDiff.sameStoredType(source, property, old: old, new: new) else {
                    reportConvertMissing(path, from: source, into: property, at: conversion.location)
                    return nil
                }
                return (
                    .init(target: naming.storedName(property), source: naming.storedName(source), conversion: nil),
                    source.name
                )
            }
            let conversion = MigrationPlan.ModelCopy.ValueConversion(
                name: "convert" + SwiftLiteral.upperFirst(property.name),
                sourceType: SchemaDiff.typeDescription(source), targetType: SchemaDiff.typeDescription(property),
                expression: expression)
            return (
                .init(target: naming.storedName(property), source: naming.storedName(source), conversion: conversion),
                source.name
            )
        }
        guard let previous = SchemaDiff.counterpart(of: property, in: before, within: model, naming: naming),
            previous.isStored
        else { return nil }
        guard SchemaDiff.sameStoredType(previous, property, old: old, new: new) else {
            diagnostics.append(
                .error(
                    .typeChangeLosesData,
                    "\(path) changes type from \(SchemaDiff.typeDescription(previous)) to "
                        + "\(SchemaDiff.typeDescription(property)) while \(before.name) is renamed; add from: { "
                        + "property: \(previous.name), convert: \"<Swift over $0>\" }",
                    at: property.location,
                    notes: [.init("\(before.name).\(previous.name) is declared here", at: previous.location)]))
            return nil
        }
        return (
            .init(target: naming.storedName(property), source: naming.storedName(previous), conversion: nil),
            previous.name
        )
    }

    private mutating func reportNoSource(
        _ property: Property, in model: ModelDecl, from before: ModelDecl, old: SchemaVersion
    ) {
        diagnostics.append(
            .error(
                .requiredPropertyAdded,
                "\(model.name).\(property.name) is new and required, but the \(before.name) objects copied into "
                    + "\(model.name) have no value for it; add default: … or make the type optional, or name its "
                    + "source (renamedFrom: or from:)",
                at: property.location,
                notes: [.init("version \(old.version) is declared here", at: old.location)]))
    }
}
