/// The DSL's declarations (keys and their values) are the core's vocabulary: clients see them with it.
@_exported import SwiftDataGenDSL

/// The pipeline from read sources to generated files: parse → decode → resolve/validate → plan →
/// render. Pure: reading happens before (`SchemaLoader`), writing after (`OutputWriter`).
public enum Generator {
    public struct Options: Sendable {
        /// Also render one upgrade test per older version.
        public var upgradeTests = false
        /// The module the upgrade tests `@testable import`; nil when they compile with the sources.
        public var testableImport: String?

        public init(upgradeTests: Bool = false, testableImport: String? = nil) {
            self.upgradeTests = upgradeTests
            self.testableImport = testableImport
        }
    }

    public struct Output: Sendable {
        /// Empty whenever any diagnostic is an error: nothing half-right is ever written.
        public var files: [GeneratedFile]
        /// User-owned hook files to create when missing; never part of the generated output.
        public var hookScaffolds: [GeneratedFile] = []
        /// Upgrade tests, when the options ask for them; written to a folder of their own.
        public var upgradeTests: [GeneratedFile] = []
        public var diagnostics: [Diagnostic]
        public var histories: [SchemaHistory]
    }

    /// Every file in memory at once: for tests and tools that look at the whole output.
    public static func generate(
        _ sources: consuming SchemaSources, templates: TemplateSet, options: Options = Options(),
        limits: YAMLLimits = .standard
    ) -> Output {
        var files: [GeneratedFile] = []
        let (histories, diagnostics) = generate(sources, templates: templates, options: options, limits: limits) {
            files.append($0)
        }
        guard !diagnostics.hasErrors else { return Output(files: [], diagnostics: diagnostics, histories: histories) }
        var output = Output(files: [], diagnostics: diagnostics, histories: histories)
        for file in files {
            switch file.role {
            case .hooksScaffold: output.hookScaffolds.append(file)
            case .upgradeTest: output.upgradeTests.append(file)
            case .version, .bridge, .currentAliases, .migrationPlan: output.files.append(file)
            case .nextVersion: break  // drafted by nextVersion, never generated
            }
        }
        return output
    }

    /// The pipeline, handing each file to `emit` as soon as it is rendered (sources, hook
    /// scaffolds and upgrade tests alike, told apart by `role`), so that the caller can write it
    /// and let it go. Nothing is emitted unless every version validates and every plan is sound;
    /// when the returned diagnostics still hold an error (a template failed part way), the files
    /// emitted so far must be discarded.
    public static func generate(
        _ sources: consuming SchemaSources, templates: TemplateSet, options: Options = Options(),
        limits: YAMLLimits = .standard,
        emit: (GeneratedFile) -> Void
    ) -> (histories: [SchemaHistory], diagnostics: [Diagnostic]) {
        let configFile = sources.config?.relativePath
        let (histories, validation) = validate(sources, limits: limits)
        guard !validation.hasErrors else { return (histories, validation) }
        var diagnostics = validation
        let plans = histories.map { history in
            let (plan, planDiagnostics) = MigrationPlanner.plan(history)
            diagnostics += planDiagnostics
            return plan
        }
        guard !diagnostics.hasErrors else { return (histories, diagnostics) }
        for (history, plan) in zip(histories, plans) {
            let renderer = SchemaRenderer(history: history, plan: plan, templates: templates, configFile: configFile)
            do {
                try renderer.render(emit)
                if options.upgradeTests { try renderer.upgradeTests(testableImport: options.testableImport, emit) }
            } catch {
                return (histories, diagnostics + [error])
            }
        }
        return (histories, diagnostics)
    }

    /// Everything up to a validated history, for `validate` and for `generate`.
    /// The version files' bytes are released a batch at a time once parsed, when the caller
    /// hands `sources` over (`consume`), so the input and its IR are never both whole in memory.
    public static func validate(_ sources: consuming SchemaSources, limits: YAMLLimits = .standard) -> (
        histories: [SchemaHistory], diagnostics: [Diagnostic]
    ) {
        var diagnostics: [Diagnostic] = []
        var config: ConfigFile?
        if let file = sources.config {
            let (node, parseDiagnostics) = YAMLParser.parse(file.bytes, file: file.displayPath, limits: limits)
            // An empty config (or one with only comments) means every default.
            diagnostics += parseDiagnostics.filter { $0.code != .emptyDocument }
            if let node {
                let (decoded, decodeDiagnostics) = DSLDecoder.decodeConfig(node, file: file.relativePath)
                config = decoded
                diagnostics += decodeDiagnostics
            }
        }
        // Each file goes from bytes to IR on its own, so only one tree and AST per core are alive at once.
        let generatorConfig = HistoryResolver.generatorConfig(config)
        var resolved: [HistoryResolver.ResolvedFile] = []
        let noVersions = sources.versions.isEmpty
        var files = sources.versions
        sources.versions = []
        files.drainBatchesForCores { batch in
            for (version, fileDiagnostics) in batch.parallelMap({
                resolveFile($0, config: generatorConfig, limits: limits)
            }) {
                diagnostics += fileDiagnostics
                if let version { resolved.append(version) }
            }
            ReleasedMemory.returnToSystem()
        }
        if noVersions {
            diagnostics.append(
                .error(
                    .noVersions, "no schema version files found; add one .yaml file per shipped version (see README)",
                    at: nil))
        }
        var (histories, assembleDiagnostics) = HistoryResolver.assemble(consume resolved, config: generatorConfig)
        diagnostics += assembleDiagnostics
        diagnostics += checkNamesAcrossSchemas(histories)
        if let lock = sources.lock {
            let (shipped, lockDiagnostics) = ShippedVersions.parse(
                String(decoding: lock.bytes, as: UTF8.self), file: lock.displayPath)
            diagnostics += lockDiagnostics
            if !lockDiagnostics.hasErrors {
                for index in histories.indices {
                    histories[index].shippedModifiers = shipped.modifiers(of: histories[index].name)
                }
                diagnostics += shipped.check(histories, lockFile: lock.displayPath)
            }
        }
        return (histories, diagnostics)
    }

    /// The next version's file, drafted from the latest version of the schema (`NextVersionFile`),
    /// named by its path relative to the schema folder, or the diagnostics that refuse it. The
    /// history must validate, the version must come after the latest, and no version file may be
    /// in its place (the writer refuses any other file there).
    public static func nextVersion(
        _ sources: SchemaSources, version: SemanticVersion, schema: String?,
        renaming renames: [NextVersionFile.Rename] = []
    ) -> (
        file: GeneratedFile?, diagnostics: [Diagnostic]
    ) {
        let versionFiles = sources.versions
        let name = "\(version).yaml"
        if let taken = versionFiles.first(where: { $0.relativePath.split(separator: "/").last.map(String.init) == name }
        ) {
            return (
                nil,
                [
                    .error(
                        .newVersionFileExists,
                        "'\(taken.relativePath)' already exists; nothing was written (edit that file, or give another "
                            + "version)",
                        at: nil)
                ]
            )
        }
        let (histories, diagnostics) = validate(sources)
        guard !diagnostics.hasErrors else { return (nil, diagnostics) }
        let chosen = schema.map { name in histories.filter { $0.name == name } } ?? histories
        guard chosen.count == 1, let history = chosen.first, let latest = history.latest else {
            let names = histories.map(\.name).joined(separator: ", ")
            let problem =
                schema.map { "no schema is named '\($0)'; this folder holds \(names)" }
                ?? "this folder holds several schemas (\(names)); name one with --schema"
            return (nil, diagnostics + [.error(.newVersionNotAfterLatest, problem, at: nil)])
        }
        guard version > latest.version else {
            return (
                nil,
                diagnostics + [
                    .error(
                        .newVersionNotAfterLatest,
                        "\(version) is not after \(history.name)'s latest version \(latest.version); give a higher "
                            + "number",
                        at: latest.location)
                ]
            )
        }
        let folder = latest.file.split(separator: "/").dropLast().joined(separator: "/")
        let path = (folder.isEmpty ? "" : folder + "/") + name
        guard let source = versionFiles.first(where: { $0.relativePath == latest.file }) else {
            return (nil, diagnostics + [.error(.unreadableFile, "cannot read '\(latest.file)' again", at: nil)])
        }
        let unknown = renames.compactMap { rename -> Diagnostic? in
            guard let model = latest.model(named: rename.model) else {
                return .error(
                    .newVersionRenameInvalid,
                    "--rename \(rename.model).\(rename.from)=\(rename.to): \(latest.version) has no model "
                        + "\(rename.model)",
                    at: latest.location)
            }
            guard let property = model.property(named: rename.from), property.isStored else {
                return .error(
                    .newVersionRenameInvalid,
                    "--rename \(rename.model).\(rename.from)=\(rename.to): \(rename.model) stores no property "
                        + "\(rename.from) in \(latest.version)",
                    at: model.location)
            }
            guard model.property(named: rename.to) == nil else {
                return .error(
                    .newVersionRenameInvalid,
                    "--rename \(rename.model).\(rename.from)=\(rename.to): \(rename.model) already has \(rename.to)",
                    at: model.location)
            }
            return nil
        }
        guard unknown.isEmpty else { return (nil, diagnostics + unknown) }
        let (node, _) = YAMLParser.parse(source.bytes, file: source.displayPath)
        guard let node else { return (nil, diagnostics) }
        switch NextVersionFile.draft(
            String(decoding: source.bytes, as: UTF8.self), root: node, as: version, renaming: renames)
        {
        case .success(let text):
            return (GeneratedFile(name: path, contents: text, role: .nextVersion(schema: history.name)), diagnostics)
        case .failure(let refusal):
            return (
                nil, diagnostics + [.error(.newVersionLayoutNotEditable, refusal.reason, at: refusal.location)]
            )
        }
    }

    /// One version file from bytes to IR: parse, decode, resolve.
    static func resolveFile(_ file: SourceFile, config: GeneratorConfig, limits: YAMLLimits) -> (
        HistoryResolver.ResolvedFile?, [Diagnostic]
    ) {
        let (node, parseDiagnostics) = YAMLParser.parse(file.bytes, file: file.displayPath, limits: limits)
        guard let node else { return (nil, parseDiagnostics) }
        let (decoded, decodeDiagnostics) = DSLDecoder.decodeVersion(node, file: file.relativePath)
        guard let decoded else { return (nil, parseDiagnostics + decodeDiagnostics) }
        let (version, resolveDiagnostics) = HistoryResolver.resolve(decoded, config: config)
        return (version, parseDiagnostics + decodeDiagnostics + resolveDiagnostics)
    }

    /// Several schemas in one folder share a module: their current-version aliases must not clash.
    static func checkNamesAcrossSchemas(_ histories: [SchemaHistory]) -> [Diagnostic] {
        var owners: [String: (schema: String, location: SourceLocation)] = [:]
        var diagnostics: [Diagnostic] = []
        // A model or enum of one schema must not take a name another schema's generated code declares.
        let generated = histories.map { history in
            (history.name, GeneratedNames(history: history).all(for: history.versions.map(\.version)))
        }
        for history in histories {
            for version in history.versions {
                let declared =
                    version.models.map { ($0.name, $0.location) } + version.enums.map { ($0.name, $0.location) }
                for (name, location) in declared {
                    guard let other = generated.first(where: { $0.0 != history.name && $0.1.contains(name) }) else {
                        continue
                    }
                    diagnostics.append(
                        .error(
                            .reservedName,
                            "'\(name)' is a type the generated code of schema \(other.0) declares; rename it (for "
                                + "example \(history.name)\(name))",
                            at: location))
                }
            }
        }
        for history in histories {
            guard let latest = history.latest else { continue }
            let names = GeneratedNames(history: history)
            var declared =
                latest.models.map { ($0.name, $0.location) } + latest.enums.map { ($0.name, latest.location) }
            declared += [names.currentSchema, names.migrationPlan].map { ($0, latest.location) }
            for (name, location) in declared {
                if let owner = owners[name], owner.schema != history.name {
                    diagnostics.append(
                        .error(
                            .duplicateName,
                            "'\(name)' is declared by schemas \(owner.schema) and \(history.name); their aliases "
                                + "would clash, so rename one",
                            at: location, notes: [.init("\(owner.schema) declares it here", at: owner.location)]))
                } else {
                    owners[name] = (history.name, location)
                }
            }
        }
        return diagnostics
    }
}
