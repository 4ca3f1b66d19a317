import SwiftDataGenDSL

/// Uniqueness added over existing rows, and the de-duplication it needs first.
extension MigrationPlanner {
    /// Uniqueness added over existing rows: duplicates go before the stage that adds it
    /// (docs/store-evidence.md, "Uniqueness over existing rows"), compared on converted values when
    /// a key is converted in the same step, with nil keys distinct unless the policy says
    /// otherwise. A key every existing row would share (a new property's default) would fail the
    /// stage on the second row, so it is refused.
    mutating func planUniqueness(
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
}
