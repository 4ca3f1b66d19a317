/// Resolves decoded files into one `SchemaHistory` per schema name and enforces the rules that
/// span versions: unique, increasing versions; renames that name a real earlier property; and no
/// two adjacent versions with the same persisted shape.
public enum HistoryResolver {
    /// A version resolved on its own, before it meets the rest of its history.
    public struct ResolvedFile: Sendable {
        public var schema: String
        public var version: SchemaVersion
    }

    public static func generatorConfig(_ file: ConfigFile?) -> GeneratorConfig {
        GeneratorConfig(
            platforms: file.map { $0.platforms.mapValues(\.value) }.flatMap { $0.isEmpty ? nil : $0 } ?? GeneratorConfig.defaultPlatforms,
            cloudKit: file?.cloudKit ?? false, access: file?.access ?? .internal, naming: file?.naming ?? NamingConfig())
    }

    /// Resolves one version file; its AST can be dropped right after, which keeps memory to the
    /// IR plus one file however long the history is.
    public static func resolve(_ file: VersionFile, config: GeneratorConfig) -> (ResolvedFile, [Diagnostic]) {
        var resolver = VersionResolver(file: file, config: config)
        let version = resolver.resolve()
        return (ResolvedFile(schema: file.schema.value, version: version), resolver.diagnostics)
    }

    public static func resolve(config file: ConfigFile?, versions: [VersionFile]) -> (histories: [SchemaHistory], diagnostics: [Diagnostic]) {
        let config = generatorConfig(file)
        let resolved = versions.map { resolve($0, config: config) }
        let (histories, diagnostics) = assemble(resolved.map(\.0), config: config)
        return (histories, resolved.flatMap(\.1) + diagnostics)
    }

    /// Groups resolved versions into histories and checks what spans versions. Takes the files
    /// over, so the renames below update each version in place instead of copying it.
    public static func assemble(_ files: consuming [ResolvedFile], config: GeneratorConfig) -> (histories: [SchemaHistory], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var histories: [SchemaHistory] = []
        var bySchema = Dictionary(grouping: files, by: \.schema)
        for schema in bySchema.keys.sorted() {
            let sorted = (bySchema.removeValue(forKey: schema) ?? []).map(\.version).sorted { ($0.version, $0.file) < ($1.version, $1.file) }
            var versions: [SchemaVersion] = []
            if sorted.count > DSLDecoder.Limits.versions, let first = sorted.first {
                diagnostics.append(.error(
                    .countLimit, "\(sorted.count) versions of \(schema) is more than the \(DSLDecoder.Limits.versions) swiftdata-gen accepts; squash old versions that no device still has",
                    at: first.location))
                continue
            }
            for version in sorted {
                if let previous = versions.last, previous.version == version.version {
                    diagnostics.append(.error(
                        .duplicateVersion, "version \(version.version) of \(schema) is declared twice; every shipped version needs its own number",
                        at: version.location, notes: [.init("also declared here", at: previous.location)]))
                    continue
                }
                versions.append(version)
            }
            let reserved = GeneratedNames(schema: schema, naming: config.naming).all(for: versions.map(\.version))
            for version in versions {
                let declared = version.models.map { ($0.name, $0.location) } + version.enums.map { ($0.name, $0.location) }
                for (name, location) in declared where reserved.contains(name) {
                    diagnostics.append(.error(
                        .reservedName, "'\(name)' would clash with a type the generated code declares; rename it (for example \(schema)\(name))",
                        at: location))
                }
            }
            diagnostics += resolveRenames(&versions)
            diagnostics += checkShapesDiffer(versions)
            histories.append(SchemaHistory(name: schema, config: config, versions: versions))
        }
        return (histories, diagnostics)
    }

    /// Resolves rename chains to the name first stored and carries `originalName` forward, so a
    /// store from any older version upgrades (dropping it breaks a V1→V3 upgrade).
    static func resolveRenames(_ versions: inout [SchemaVersion]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if let first = versions.first {
            // With no earlier version in the history, a rename names a version that was not kept.
            for (m, model) in first.models.enumerated() {
                for (p, property) in model.properties.enumerated() where property.renamedFrom != nil {
                    versions[0].models[m].properties[p].originalName = property.renamedFrom
                }
            }
        }
        guard versions.count > 1 else { return diagnostics }
        for v in 1..<versions.count {
            let previous = versions[v - 1]
            for m in versions[v].models.indices {
                let model = versions[v].models[m]
                let before = previous.model(named: model.renamedFrom ?? model.name)
                if let renamedFrom = model.renamedFrom, before == nil {
                    diagnostics.append(.error(
                        .renameSourceNotFound,
                        "renamedFrom '\(renamedFrom)' names no model of version \(previous.version); name the model as it was in that version",
                        at: model.location, notes: [.init("version \(previous.version) is declared here", at: previous.location)]))
                }
                for p in model.properties.indices {
                    let property = model.properties[p]
                    if property.conversion?.sourceProperty == property.name {
                        // The bridge holds the converted value under another name until the last stage.
                        versions[v].models[m].properties[p].originalName = GeneratedNames.convertedProperty(property.name)
                    } else if let renamedFrom = property.renamedFrom {
                        guard let old = before?.property(named: renamedFrom) else {
                            diagnostics.append(.error(
                                .renameSourceNotFound,
                                "renamedFrom '\(renamedFrom)' names no property of \(model.name) in version \(previous.version); name the property as it was in that version",
                                at: property.location, notes: [.init("version \(previous.version) is declared here", at: previous.location)]))
                            continue
                        }
                        versions[v].models[m].properties[p].originalName = old.originalName ?? old.name
                    } else if let old = before?.property(named: property.name), let original = old.originalName {
                        versions[v].models[m].properties[p].originalName = original
                    }
                }
            }
        }
        return diagnostics
    }

    static func checkShapesDiffer(_ versions: [SchemaVersion]) -> [Diagnostic] {
        let names = versions.map(StoredNames.init)
        return zip(versions.indices, versions.indices.dropFirst()).compactMap { olderIndex, newerIndex in
            let older = versions[olderIndex], newer = versions[newerIndex]
            // Names are part of the shape, so only pairs that store the same names need the full comparison.
            guard names[olderIndex] == names[newerIndex], PersistedShape(older) == PersistedShape(newer) else { return nil }
            return .error(
                .identicalVersions,
                "version \(newer.version) stores exactly what \(older.version) stores, so SwiftData would compute the same checksum for both and refuse to launch; change the stored shape or drop this version",
                at: newer.location, notes: [.init("version \(older.version) is declared here", at: older.location)])
        }
    }
}

/// The models a version stores and the names of their stored properties: a cheap first test of
/// whether two versions could store the same shape.
struct StoredNames: Equatable {
    let properties: [String: [String]]

    init(_ version: SchemaVersion) {
        var properties: [String: [String]] = [:]
        properties.reserveCapacity(version.models.count)
        for model in version.models {
            properties[model.name] = model.properties.compactMap { $0.isStored ? $0.name : nil }.sorted()
        }
        self.properties = properties
    }
}

/// What a version stores, in a canonical form: two versions with equal shapes get the same
/// checksum in SwiftData. Docs, defaults, transient properties and enum cases are not stored.
struct PersistedShape: Equatable, Sendable {
    let lines: [String]
    /// Compared first, so versions that differ (nearly all pairs) are told apart in O(1).
    private let digest: Int

    static func == (a: PersistedShape, b: PersistedShape) -> Bool {
        a.digest == b.digest && a.lines == b.lines
    }

    init(_ version: SchemaVersion) {
        var lines: [String] = []
        for model in version.models.sorted(by: { $0.name < $1.name }) {
            func groups(_ list: [[String]]) -> String { list.map { "(" + $0.joined(separator: ",") + ")" }.joined() }
            lines.append("model \(model.name) : \(model.superclass ?? "-") unique \(groups(model.uniqueGroups)) index \(groups(model.indexGroups))")
            // Sort positions, not the (large) properties themselves.
            let order = model.properties.indices.filter { model.properties[$0].isStored }.sorted { model.properties[$0].name < model.properties[$1].name }
            for index in order {
                let property = model.properties[index]
                let kind: String
                switch property.kind {
                case .attribute(.scalar(let type), let isArray):
                    kind = type.rawValue + (isArray ? " array" : "")
                case .attribute(.enumeration(_, let rawType), _):
                    kind = "raw " + rawType.rawValue
                case .relationship(let r):
                    kind = "-> \(r.target) many=\(r.isToMany) rule=\(r.deleteRule.rawValue) inverse=\(r.inverse ?? "-") min=\(r.minCount ?? 0) max=\(r.maxCount ?? 0)"
                }
                let flags = property.flags.isEmpty ? "" : property.flags.map(\.rawValue).sorted().joined(separator: ",")
                lines.append(
                    "  \(property.name) optional=\(property.isOptional) unique=\(property.isUnique) flags=\(flags) transformer=\(property.transformer ?? "-") original=\(property.originalName ?? "-") \(kind)")
            }
        }
        self.lines = lines
        var hasher = Hasher()
        lines.forEach { hasher.combine($0) }
        digest = hasher.finalize()
    }
}
