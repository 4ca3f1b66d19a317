/// Resolves decoded files into one `SchemaHistory` per schema name and enforces the rules that
/// span versions: unique, increasing versions; renames that name a real earlier property; and no
/// two adjacent versions with the same persisted shape.
public enum HistoryResolver {
    public static func resolve(config file: ConfigFile?, versions: [VersionFile]) -> (histories: [SchemaHistory], diagnostics: [Diagnostic]) {
        let config = GeneratorConfig(
            platforms: file.map { $0.platforms.mapValues(\.value) }.flatMap { $0.isEmpty ? nil : $0 } ?? GeneratorConfig.defaultPlatforms,
            cloudKit: file?.cloudKit ?? false, access: file?.access ?? .internal, naming: file?.naming ?? NamingConfig())
        var diagnostics: [Diagnostic] = []
        var histories: [SchemaHistory] = []
        let bySchema = Dictionary(grouping: versions, by: \.schema.value)
        for schema in bySchema.keys.sorted() {
            var files = (bySchema[schema] ?? []).sorted { ($0.version.value, $0.file) < ($1.version.value, $1.file) }
            var unique: [VersionFile] = []
            for versionFile in files {
                if let previous = unique.last, previous.version.value == versionFile.version.value {
                    diagnostics.append(.error(
                        .duplicateVersion, "version \(versionFile.version.value) of \(schema) is declared twice; every shipped version needs its own number",
                        at: versionFile.version.location, notes: [.init("also declared here", at: previous.version.location)]))
                    continue
                }
                unique.append(versionFile)
            }
            files = unique
            let names = GeneratedNames(schema: schema, naming: config.naming)
            let reserved = names.all(for: files.map(\.version.value))
            var resolved: [SchemaVersion] = []
            for versionFile in files {
                var resolver = VersionResolver(file: versionFile, config: config, generatedTypeNames: reserved)
                resolved.append(resolver.resolve())
                diagnostics += resolver.diagnostics
            }
            diagnostics += resolveRenames(&resolved)
            diagnostics += checkShapesDiffer(resolved)
            histories.append(SchemaHistory(name: schema, config: config, versions: resolved))
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
        zip(versions, versions.dropFirst()).compactMap { older, newer in
            guard PersistedShape(older) == PersistedShape(newer) else { return nil }
            return .error(
                .identicalVersions,
                "version \(newer.version) stores exactly what \(older.version) stores, so SwiftData would compute the same checksum for both and refuse to launch; change the stored shape or drop this version",
                at: newer.location, notes: [.init("version \(older.version) is declared here", at: older.location)])
        }
    }
}

/// What a version stores, in a canonical form: two versions with equal shapes get the same
/// checksum in SwiftData. Docs, defaults, transient properties and enum cases are not stored.
struct PersistedShape: Equatable {
    let lines: [String]

    init(_ version: SchemaVersion) {
        var lines: [String] = []
        for model in version.models.sorted(by: { $0.name < $1.name }) {
            func groups(_ list: [[String]]) -> String { list.map { "(" + $0.joined(separator: ",") + ")" }.joined() }
            lines.append("model \(model.name) : \(model.superclass ?? "-") unique \(groups(model.uniqueGroups)) index \(groups(model.indexGroups))")
            for property in model.properties.filter(\.isStored).sorted(by: { $0.name < $1.name }) {
                var line = "  \(property.name) optional=\(property.isOptional) unique=\(property.isUnique)"
                line += " flags=\(property.flags.map(\.rawValue).sorted().joined(separator: ",")) transformer=\(property.transformer ?? "-") original=\(property.originalName ?? "-")"
                switch property.kind {
                case .attribute(.scalar(let type), let isArray):
                    line += " \(type.rawValue) array=\(isArray)"
                case .attribute(.enumeration(_, let rawType), _):
                    line += " raw \(rawType.rawValue)"
                case .relationship(let r):
                    line += " -> \(r.target) many=\(r.isToMany) rule=\(r.deleteRule) inverse=\(r.inverse ?? "-") min=\(r.minCount ?? 0) max=\(r.maxCount ?? 0)"
                }
                lines.append(line)
            }
        }
        self.lines = lines
    }
}
