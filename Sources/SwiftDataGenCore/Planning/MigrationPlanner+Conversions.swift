import SwiftDataGenDSL

/// Values converted and text linked through a bridge: the bridge's columns and the walks that fill them.
extension MigrationPlanner {
    mutating func planConversion(
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
    mutating func conversionSource(
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
    mutating func bridgeColumn(
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
    mutating func planLink(
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
        // The bridge holds the renamed model's copies only once the step's copy has run.
        if let oldName = new.renamedModels[relationship.target] {
            diagnostics.append(
                .error(
                    .modelRenameUnsupported,
                    "\(model.name).\(property.name) links by text to \(relationship.target), which is renamed from "
                        + "\(oldName) in the same step; link in a later version",
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
    mutating func planValueConversion(
        bridged: Property, source: Property, conversion: Conversion, of property: Property, in model: ModelDecl,
        before: ModelDecl, old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        let path = "\(model.name).\(property.name)"
        let bridgeName = bridged.name
        // The bridge and the upgrade tests carry an enum's values by raw value.
        for (side, direction) in [(source, "from"), (property, "into")] {
            guard case .attribute(.enumeration(let name, nil, _), _) = side.kind else { continue }
            diagnostics.append(
                .error(
                    .conversionConflict,
                    "\(path) converts \(direction) \(name), an enum without a raw type, "
                        + "which the generator does not convert; move the values in hooks (customMigration: true) or "
                        + "give \(name) a raw type in a new enum",
                    at: conversion.location))
            return
        }
        // The same enum stored another way holds the same Swift values: it moves unchanged.
        let sameSwiftType = SchemaDiff.onlyEnumStorageDiffers(source, property)
        if conversion.expression == nil && !sameSwiftType
            && !SchemaDiff.sameStoredType(source, property, old: old, new: new)
        {
            reportConvertMissing(path, from: source, into: property, at: conversion.location)
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
    mutating func bridgeTarget(
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

    /// SDG621: `from:` names a source of another type and no `convert:` to turn it into this one.
    mutating func reportConvertMissing(
        _ path: String, from source: Property, into property: Property, at location: SourceLocation
    ) {
        diagnostics.append(
            .error(
                .typeChangeLosesData,
                "\(path) comes from \(source.name) of type \(SchemaDiff.typeDescription(source)) but is "
                    + "\(SchemaDiff.typeDescription(property)); add convert: \"<Swift over $0>\" to from",
                at: location))
    }
}
