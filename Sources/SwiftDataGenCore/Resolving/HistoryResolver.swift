/// Resolves decoded files into one `SchemaHistory` per schema name and enforces the rules that
/// span versions: unique, increasing versions; renames that name a real earlier property; renaming
/// identifiers that map each column to one property; and no version that changes nothing.
public enum HistoryResolver {
    /// A version resolved on its own, before it meets the rest of its history.
    public struct ResolvedFile: Sendable {
        public var schema: String
        public var version: SchemaVersion
    }

    public static func generatorConfig(_ file: ConfigFile?) -> GeneratorConfig {
        GeneratorConfig(
            platforms: file.map { $0.platforms.mapValues(\.value) }.flatMap { $0.isEmpty ? nil : $0 }
                ?? GeneratorConfig.defaultPlatforms,
            cloudKit: file?.cloudKit ?? .off, access: file?.access ?? .internal, naming: file?.naming ?? NamingConfig())
    }

    /// Resolves one version file; its AST can be dropped right after, which keeps memory to the
    /// IR plus one file however long the history is.
    public static func resolve(_ file: VersionFile, config: GeneratorConfig) -> (ResolvedFile, [Diagnostic]) {
        var resolver = VersionResolver(file: file, config: config)
        let version = resolver.resolve()
        let diagnostics =
            resolver.diagnostics + Rules.check(Rules.version, VersionSubject(version: version, naming: config.naming))
        return (ResolvedFile(schema: file.schema.value, version: version), diagnostics)
    }

    public static func resolve(config file: ConfigFile?, versions: [VersionFile]) -> (
        histories: [SchemaHistory], diagnostics: [Diagnostic]
    ) {
        let config = generatorConfig(file)
        let resolved = versions.map { resolve($0, config: config) }
        let (histories, diagnostics) = assemble(resolved.map(\.0), config: config)
        return (histories, resolved.flatMap(\.1) + diagnostics)
    }

    /// Groups resolved versions into histories and checks what spans versions. Takes the files
    /// over, so the renames below update each version in place instead of copying it.
    public static func assemble(_ files: consuming [ResolvedFile], config: GeneratorConfig) -> (
        histories: [SchemaHistory], diagnostics: [Diagnostic]
    ) {
        var diagnostics: [Diagnostic] = []
        var histories: [SchemaHistory] = []
        var bySchema = Dictionary(grouping: files, by: \.schema)
        for schema in bySchema.keys.sorted() {
            let sorted = (bySchema.removeValue(forKey: schema) ?? []).map(\.version).sorted {
                ($0.version, $0.file) < ($1.version, $1.file)
            }
            var versions: [SchemaVersion] = []
            if sorted.count > DSLDecoder.Limits.versions, let first = sorted.first {
                diagnostics.append(
                    .error(
                        .countLimit,
                        "\(sorted.count) versions of \(schema) is more than the \(DSLDecoder.Limits.versions) "
                            + "swiftdata-gen accepts; squash old versions that no device still has",
                        at: first.location))
                continue
            }
            for version in sorted {
                if let previous = versions.last, previous.version == version.version {
                    diagnostics.append(
                        .error(
                            .duplicateVersion,
                            "version \(version.version) of \(schema) is declared twice; every shipped version "
                                + "needs its own number",
                            at: version.location, notes: [.init("also declared here", at: previous.location)]))
                    continue
                }
                versions.append(version)
            }
            diagnostics += resolveRenames(&versions, schema: schema, naming: config.naming)
            diagnostics += Rules.check(
                Rules.history, HistorySubject(schema: schema, versions: versions, config: config))
            histories.append(SchemaHistory(name: schema, config: config, versions: versions))
        }
        return (histories, diagnostics)
    }

    /// Gives every stored property the renaming identifier that maps its data
    /// (docs/store-evidence.md, "Renaming identifiers"): a continued or renamed property keeps the
    /// identifier of the name first stored, so a store from any older version upgrades; a new
    /// property, and the temporary column of an in-place conversion, get an identifier that no
    /// property of the previous version has, so they start empty instead of receiving another
    /// property's data (docs/store-evidence.md, "Renaming identifiers").
    static func resolveRenames(_ versions: inout [SchemaVersion], schema: String, naming: NamingConfig) -> [Diagnostic]
    {
        var diagnostics: [Diagnostic] = []
        if let first = versions.first {
            // With no earlier version in the history, a rename names a version that was not kept.
            for (m, model) in first.models.enumerated() {
                for (p, property) in model.properties.enumerated() {
                    guard let renamedFrom = property.renamedFrom else { continue }
                    versions[0].models[m].properties[p].originalName = naming.storedName(
                        of: property, named: renamedFrom)
                }
            }
        }
        guard versions.count > 1 else { return diagnostics }
        let names = GeneratedNames(schema: schema, naming: naming)
        for v in 1..<versions.count {
            diagnostics += dropAppliedRenames(in: &versions[v], previous: versions[v - 1], naming: naming)
            let previous = versions[v - 1]
            let suffix = names.versionSuffix(versions[v].version)
            let renamed = versions[v].renamedModels
            for m in versions[v].models.indices {
                // Worked out on a borrowed model and applied after, so each model's properties are
                // changed in place rather than copied: the IR of a long history is most of its memory.
                let (continued, fresh, before) = continuedIdentifiers(
                    of: versions[v].models[m], previous: previous, renamed: renamed, naming: naming,
                    diagnostics: &diagnostics)
                for (p, identifier) in continued { versions[v].models[m].properties[p].originalName = identifier }
                guard !fresh.isEmpty else { continue }
                let made = freshIdentifiers(
                    for: fresh, in: versions[v].models[m], before: before, renamed: renamed, suffix: suffix,
                    naming: naming)
                for (p, identifier) in made { versions[v].models[m].properties[p].originalName = identifier }
            }
        }
        return diagnostics
    }

    /// A version file started by copying the last one keeps that version's `renamedFrom`: when the
    /// previous version already has the new name and not the old one, the rename is done. It is
    /// dropped, with a warning to remove it, instead of failing with advice that renames the
    /// property to itself.
    private static func dropAppliedRenames(
        in version: inout SchemaVersion, previous: SchemaVersion, naming: NamingConfig
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for m in version.models.indices {
            // A model's rename copied forward too: the previous version already has the new name.
            if let renamedFrom = version.models[m].renamedFrom, previous.model(named: renamedFrom) == nil,
                let applied = previous.model(named: version.models[m].name), applied.renamedFrom == renamedFrom
            {
                diagnostics.append(
                    .warning(
                        .renameAlreadyApplied,
                        "renamedFrom '\(renamedFrom)' was applied in version \(previous.version), which already "
                            + "calls the model '\(applied.name)'; remove it from this version (it was copied forward)",
                        at: version.models[m].location,
                        notes: [
                            .init("version \(previous.version) declares '\(applied.name)' here", at: applied.location)
                        ]))
                version.models[m].renamedFrom = nil
            }
            guard let before = previous.model(named: version.models[m].renamedFrom ?? version.models[m].name) else {
                continue
            }
            for p in version.models[m].properties.indices {
                let property = version.models[m].properties[p]
                guard let renamedFrom = property.renamedFrom, renamedFrom != property.name,
                    before.property(named: renamedFrom) == nil,
                    let applied = before.property(named: property.name),
                    applied.renamedFrom == renamedFrom
                        || applied.originalName == naming.storedName(of: applied, named: renamedFrom)
                else { continue }
                diagnostics.append(
                    .warning(
                        .renameAlreadyApplied,
                        "renamedFrom '\(renamedFrom)' was applied in version \(previous.version), which already "
                            + "calls it '\(property.name)'; remove it from this version (it was copied forward)",
                        at: property.location,
                        notes: [
                            .init("version \(previous.version) declares '\(property.name)' here", at: applied.location)
                        ]))
                version.models[m].properties[p].renamedFrom = nil
            }
        }
        return diagnostics
    }

    /// The identifiers that continue a property of the previous version (a rename or the same
    /// name), the stored properties that continue none, and the model they continue. A
    /// relationship that follows its destination's rename is fresh: the bridge holds its links to
    /// the copies under a new identifier beside the old links (`MigrationPlanner`).
    private static func continuedIdentifiers(
        of model: ModelDecl, previous: SchemaVersion, renamed: [String: String], naming: NamingConfig,
        diagnostics: inout [Diagnostic]
    ) -> (continued: [(Int, String?)], fresh: [Int], before: ModelDecl?) {
        let before = previous.model(named: model.renamedFrom ?? model.name)
        if let renamedFrom = model.renamedFrom, before == nil {
            diagnostics.append(
                .error(
                    .renameSourceNotFound,
                    "renamedFrom '\(renamedFrom)' names no model of version \(previous.version); name the model "
                        + "as it was in that version",
                    at: model.location,
                    notes: [.init("version \(previous.version) is declared here", at: previous.location)]))
        }
        var continued: [(Int, String?)] = []
        var fresh: [Int] = []
        let renamedAway = SchemaDiff.renamedAway(in: model)
        for p in model.properties.indices where model.properties[p].isStored {
            let property = model.properties[p]
            if property.conversion?.sourceProperty == property.name {
                fresh.append(p)
            } else if let before, model.renamedFrom == nil,
                SchemaDiff.followsRenamedDestination(
                    property, in: before, within: model, renamed: renamed, naming: naming)
            {
                fresh.append(p)
            } else if let renamedFrom = property.renamedFrom {
                guard let old = before?.property(named: renamedFrom, near: p) else {
                    diagnostics.append(
                        .error(
                            .renameSourceNotFound,
                            "renamedFrom '\(renamedFrom)' names no property of \(model.name) in version "
                                + "\(previous.version); name the property as it was in that version",
                            at: property.location,
                            notes: [.init("version \(previous.version) is declared here", at: previous.location)]))
                    continue
                }
                continued.append((p, renamingIdentifier(of: old, naming: naming)))
            } else if let before,
                let old = SchemaDiff.counterpart(
                    of: property, in: before, within: model, naming: naming, near: p, renamedAway: renamedAway),
                old.isStored
            {
                // The same name, kept where it was, unless the storage moved (enumStorage, storedName).
                let moved = naming.storedName(old) != naming.storedName(property)
                continued.append((p, old.originalName ?? (moved ? naming.storedName(old) : nil)))
            } else {
                fresh.append(p)
            }
        }
        return (continued, fresh, before)
    }

    /// For each new property whose name the previous version maps data by (and each in-place
    /// conversion's temporary column), an identifier that neither version uses.
    private static func freshIdentifiers(
        for fresh: [Int], in current: ModelDecl, before: ModelDecl?, renamed: [String: String], suffix: String,
        naming: NamingConfig
    ) -> [(Int, String)] {
        let continuing = current.properties.indices.filter { current.properties[$0].isStored && !fresh.contains($0) }
        // Identifiers the previous version maps data by, and those the continued properties keep.
        func isClaimed(_ identifier: String) -> Bool {
            before?.properties.contains { $0.isStored && renamingIdentifier(of: $0, naming: naming) == identifier }
                == true
                || continuing.contains { renamingIdentifier(of: current.properties[$0], naming: naming) == identifier }
        }
        var made: [(Int, String)] = []
        // Built only when an identifier must be made: every identifier and name either version uses.
        var taken: Set<String>?
        for p in fresh {
            let property = current.properties[p]
            let relinked =
                current.renamedFrom == nil
                && before.map {
                    SchemaDiff.followsRenamedDestination(
                        property, in: $0, within: current, renamed: renamed, naming: naming)
                } == true
            let inPlace = property.conversion?.sourceProperty == property.name || relinked
            if !inPlace && !isClaimed(naming.storedName(property)) { continue }
            var used =
                taken
                ?? Set(
                    (before?.properties ?? []).flatMap {
                        [$0.name, naming.storedName($0), renamingIdentifier(of: $0, naming: naming)]
                    })
            if taken == nil {
                used.formUnion(current.properties.flatMap { [$0.name, naming.storedName($0)] })
                used.formUnion(continuing.map { renamingIdentifier(of: current.properties[$0], naming: naming) })
            }
            // A name written with storedName: is the identifier as it stands; otherwise the
            // identifier is the stored name a property of the candidate's name would have.
            let explicit = property.storedName != nil
            func identifier(_ candidate: String) -> String {
                explicit ? candidate : naming.storedName(of: property, named: candidate)
            }
            let stem = explicit ? naming.storedName(property) : property.name
            // The first candidate that neither version uses, checked as the stored name too.
            let base =
                relinked
                ? GeneratedNames.relinkedProperty(stem)
                : inPlace ? GeneratedNames.convertedProperty(stem) : stem + suffix
            var candidate = base
            var counter = 1
            while used.contains(candidate) || used.contains(identifier(candidate)) {
                counter += 1
                candidate = inPlace && counter == 2 ? base + suffix : base + (inPlace ? suffix : "") + "_\(counter)"
            }
            made.append((p, identifier(candidate)))
            used.insert(candidate)
            used.insert(identifier(candidate))
            taken = used
        }
        return made
    }
}
