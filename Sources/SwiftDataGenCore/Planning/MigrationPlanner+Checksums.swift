import SwiftDataGenDSL

/// Every schema of a plan distinct in SwiftData's checksum, and the hashes `plan` shows for each.
extension MigrationPlanner {
    /// Makes every schema of the plan differ in SwiftData's checksum from every earlier one —
    /// bridges included, not only neighbours — by adding `hashModifier: "<version>"` to one
    /// property where the store identity alone would repeat (docs/store-evidence.md, "Duplicate
    /// checksums and hashModifier"). Depends only on the schemas before it, so adding versions
    /// never changes a shipped one.
    mutating func settleChecksums(_ plan: inout MigrationPlan) {
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
        // Checksums on all cores, each core taking a run of neighbouring schemas, which share most
        // of their hashes (`VersionHashCache`). Every schema's identity is kept until the loop
        // below has read its entity hashes.
        let start = plan
        let run = max(1, (references.count + ParallelWork.cores - 1) / ParallelWork.cores)
        let runs = Array(stride(from: 0, to: references.count, by: run))
        // Each run's identities with the hashes they computed, kept for the readings below.
        let computed = runs.parallelMap { first in
            var cache = VersionHashCache()
            let identities = references[first..<min(first + run, references.count)].map { reference in
                start.schema(reference).map { StoreIdentity($0, naming: naming, cache: &cache) }
            }
            return (identities, cache)
        }
        // Properties stored as a type no hash proves in any schema: their types are erased in the
        // third reading of every schema, so a change to or from such a type alone is not trusted
        // to move the checksum.
        let uncertain = computed.reduce(into: Set<String>()) { keys, run in
            for identity in run.0 {
                keys.formUnion(identity.map { StoreIdentity.uncertainTypes(of: $0.entities) } ?? [])
            }
        }
        let identities = computed.parallelMap { run in
            var cache = run.1
            return run.0.map { identity in
                identity.map { ($0.readings(erasingTypesOf: uncertain, cache: &cache), $0) }
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

    func describe(_ reference: MigrationPlan.SchemaReference) -> String {
        switch reference {
        case .version(let number): return "version \(number)"
        case .bridge(let number): return "the bridge into \(number)"
        }
    }

    /// Where a modifier goes: the first stored property, without one of its own, of the first model
    /// whose stored shape or defaults differ from the schema before; else of the first model. Never
    /// a composite (a Codable struct, an enum stored as itself): its hash is its elements' alone,
    /// so a modifier on it changes nothing (docs/version-hash-recipe.md, "The recipe", step 4).
    func modifierSite(in schema: SchemaVersion, after previous: SchemaVersion?) -> (model: Int, property: Int)? {
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
}
