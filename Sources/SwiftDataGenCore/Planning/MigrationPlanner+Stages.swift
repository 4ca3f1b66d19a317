import SwiftDataGenDSL

/// The bridge schema a step passes through, and the stages of a step in order.
extension MigrationPlanner {
    mutating func makeBridge(
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

    func composeStages(from old: SemanticVersion, to new: SemanticVersion, bridge: Bool, work: StepWork)
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
            // way loses nothing, where a didMigrate is never run again (docs/store-evidence.md, "A
            // stage ended part way").
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

    /// The Swift name under which a property like `property` is stored as `identifier`: the
    /// identifier without the raw-value suffix for an enum stored by raw value, else itself.
    static func propertyName(storing identifier: String, like property: Property, naming: NamingConfig) -> String {
        guard property.kind.storesEnumRawValue, identifier.hasSuffix(naming.rawValueSuffix),
            identifier.count > naming.rawValueSuffix.count
        else { return identifier }
        return String(identifier.dropLast(naming.rawValueSuffix.count))
    }
}
