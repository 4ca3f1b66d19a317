/// Turns a resolved history and its plan into Swift files through the templates. All decisions
/// about what to emit live here; the templates only lay it out.
public struct SchemaRenderer: Sendable {
    let history: SchemaHistory
    let plan: MigrationPlan
    let templates: TemplateSet
    /// Config file name, relative to the schema folder, for headers; nil when there is none.
    let configFile: String?

    let names: GeneratedNames
    /// Read for every property: kept rather than copied out of `history` each time.
    let naming: NamingConfig
    let access: String

    public init(history: SchemaHistory, plan: MigrationPlan, templates: TemplateSet, configFile: String?) {
        self.history = history
        self.plan = plan
        self.templates = templates
        self.configFile = configFile
        self.names = GeneratedNames(history: history)
        naming = history.config.naming
        access = history.config.access == .internal ? "" : history.config.access.rawValue + " "
    }

    /// Hands each file to `emit` as soon as it is rendered, so the caller can write it and let it
    /// go: a history's output is several times its input. Versions render a batch at a time, one
    /// per core; within a batch, versions come before bridges, and each kind keeps history order.
    public func render(_ emit: (GeneratedFile) -> Void) throws(Diagnostic) {
        // Each version renders on its own core, together with the bridge that starts from it:
        // the bridge repeats most of that version's models, so their code is reused.
        let bridges = Dictionary(plan.bridges.map { ($0.into, $0) }, uniquingKeysWith: { first, _ in first })
        // The plan's versions carry the hash modifiers that keep their checksums apart.
        let versions = plan.versions
        let jobs = versions.indices.map { index in
            let next = versions.indices.contains(index + 1) ? versions[index + 1].version : nil
            return Job(version: versions[index], bridge: next.flatMap { bridges[$0] })
        }
        let renderer = self
        for batch in jobs.batchesForCores() {
            let rendered = batch.parallelMap { job in
                Result { () throws(Diagnostic) -> (version: GeneratedFile, bridge: GeneratedFile?) in
                    try renderer.render(job)
                }
            }
            var bridgeFiles: [GeneratedFile] = []
            for result in rendered {
                let files = try result.get()
                emit(files.version)
                if let bridge = files.bridge { bridgeFiles.append(bridge) }
            }
            bridgeFiles.forEach(emit)
        }
        guard let latest = history.latest else { return }
        emit(
            GeneratedFile(
                name: names.currentSchema + ".swift", contents: try render("current", currentView(latest)),
                role: .currentAliases(schema: history.name)))
        emit(
            GeneratedFile(
                name: names.migrationPlan + ".swift", contents: try render("plan", planView()),
                role: .migrationPlan(schema: history.name)))
        if let scaffold = try hooksScaffold() { emit(scaffold) }
    }

    private struct Job: Sendable {
        var version: SchemaVersion
        /// The bridge from this version into the next, when the step needs one.
        var bridge: MigrationPlan.Bridge?
    }

    private func render(_ job: Job) throws(Diagnostic) -> (version: GeneratedFile, bridge: GeneratedFile?) {
        let modelTemplate = try template("model")
        let name = names.versionedSchema(job.version.version)
        let blocks = try modelBlocks(job.version, template: modelTemplate, reusing: nil)
        let version = GeneratedFile(
            name: name + ".swift",
            contents: try render("version", versionView(job.version, named: name, models: blocks)),
            role: .version(input: job.version.file))
        guard let bridge = job.bridge else { return (version, nil) }
        let bridgeName = names.bridge(into: bridge.into)
        let bridgeBlocks = try modelBlocks(bridge.schema, template: modelTemplate, reusing: (job.version, blocks))
        let view = versionView(bridge.schema, named: bridgeName, models: bridgeBlocks, bridgeInto: bridge.into)
        return (
            version,
            GeneratedFile(
                name: bridgeName + ".swift", contents: try render("version", view), role: .bridge(schema: history.name))
        )
    }

    /// The code of each model, from the `model` template. A model that `previous` renders from
    /// the same declaration, with the same enums and no inheritance, takes its code from there.
    private func modelBlocks(
        _ version: SchemaVersion, template: MustacheTemplate,
        reusing previous: (version: SchemaVersion, blocks: [String])?
    ) throws(Diagnostic) -> [String] {
        let subclassed = Set(version.models.compactMap(\.superclass))
        let source = previous.flatMap { previous in
            previous.version.enums == version.enums && previous.version.models.allSatisfy({ $0.superclass == nil })
                ? previous : nil
        }
        var blocks: [String] = []
        blocks.reserveCapacity(version.models.count)
        for model in version.models {
            if let source, model.superclass == nil, !subclassed.contains(model.name),
                let index = source.version.modelIndex(named: model.name),
                source.version.models[index] == model
            {
                blocks.append(source.blocks[index])
                continue
            }
            var code = try render("model", modelView(model, in: version, subclassed: subclassed), with: template)
            if code.hasSuffix("\n") { code.removeLast() }
            blocks.append(code)
        }
        return blocks
    }

    func template(_ name: String) throws(Diagnostic) -> MustacheTemplate {
        guard let source = templates.sources[name] else {
            throw .error(
                .templateError,
                "template '\(name).\(TemplateSet.fileExtension)' is missing; restore it or remove the templates "
                    + "override",
                at: nil)
        }
        do {
            return try MustacheTemplate(source)
        } catch {
            throw .error(
                .templateError, "template '\(name).\(TemplateSet.fileExtension)' \(error.description)", at: nil)
        }
    }

    func render(_ name: String, _ view: some MustacheRepresentable) throws(Diagnostic) -> String {
        try render(name, view, with: template(name))
    }

    private func render(_ name: String, _ view: some MustacheRepresentable, with template: MustacheTemplate)
        throws(Diagnostic) -> String
    {
        do {
            return try template.render(
                view.mustacheValue, partials: templates.sources, escaping: .none, strict: templates.isBundled)
        } catch {
            throw .error(
                .templateError, "template '\(name).\(TemplateSet.fileExtension)' \(error.description)", at: nil)
        }
    }

    func header(_ inputs: [String]) -> FileHeaderView {
        FileHeaderView(inputs: inputs + (configFile.map { [$0] } ?? []))
    }

    func versionView(
        _ version: SchemaVersion, named schemaName: String, models: [String], bridgeInto target: SemanticVersion? = nil
    ) -> VersionedSchemaView {
        let v = version.version
        return VersionedSchemaView(
            header: header([version.file]), access: access, schemaName: schemaName,
            docLines: target.map {
                [
                    " The bridge into \($0): the schema before it plus the properties its conversions fill, side "
                        + "by side.",
                    " Generated for the migration plan only; app code never uses it.",
                ]
            } ?? [],
            versionArguments: "\(v.major), \(v.minor), \(v.patch)",
            modelList: version.models.map { "\($0.name).self" }.joined(separator: ", "),
            enums: version.enums.map(enumView), structs: version.structs.map(structView), models: models)
    }

    private func structView(_ decl: StructDecl) -> StructView {
        let fields = decl.fields.map { field in
            StructView.Field(
                name: Identifier.escaped(field.name),
                type: swiftType(field.type, isArray: field.isArray, typed: true, spelling: field.spelling)
                    + (field.isOptional ? "?" : ""))
        }
        let parameters = fields.map { field in
            "\(field.name): \(field.type)" + (field.type.hasSuffix("?") ? " = nil" : "")
        }
        return StructView(name: decl.name, fields: fields, initParameters: parameters.joined(separator: ", "))
    }

    private func enumView(_ decl: EnumDecl) -> EnumView {
        EnumView(
            name: decl.name,
            conformances: ((decl.rawType.map { [$0.rawValue] } ?? []) + ["Codable"]
                + (decl.hasAssociatedValues ? ["Hashable"] : ["CaseIterable"]) + ["Sendable"])
                .joined(separator: ", "),
            cases: decl.cases.map { item in
                let implicit = item.rawValue == nil || item.rawValue == .string(item.name)
                let values = item.values.indices.map { index in
                    let value = item.values[index]
                    let type =
                        swiftType(value.type, isArray: value.isArray, typed: true, spelling: value.spelling)
                        + (value.isOptional ? "?" : "")
                    return item.isUnlabeled(index) ? type : "\(value.name): \(type)"
                }
                return EnumView.Case(
                    name: item.name,
                    rawLiteral: implicit ? nil : item.rawValue.map { SwiftLiteral.value($0, enumType: nil) },
                    associatedValues: values.isEmpty ? nil : "(" + values.joined(separator: ", ") + ")")
            })
    }

    /// Lines to follow `///`: each non-empty one starts with a space, trailing blank lines dropped.
    private func docLines(_ doc: String?) -> [String] {
        guard let doc else { return [] }
        var lines = doc.split(separator: "\n", omittingEmptySubsequences: false).map {
            SwiftLiteral.commentText(String($0)).trimmingWhitespace()
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { $0.isEmpty ? "" : " " + $0 }
    }

    private func availability(for model: ModelDecl) -> String? {
        guard model.superclass != nil else { return nil }
        let platforms = Platform.allCases.map {
            "\($0.rawValue) \(GeneratorConfig.inheritanceReleases[$0, default: 26])"
        }
        return "@available(\(platforms.joined(separator: ", ")), *)"
    }

    private struct InitParameter: Equatable {
        var label: String
        var type: String
        var defaultValue: String?
        /// The statement that stores the argument in the new object.
        var assignment: String

        /// `label: Type = default`, added to `text`: a model's signature is built in one buffer.
        func spell(into text: inout RenderedBytes) {
            text.append(label)
            text.append(": ")
            text.append(type)
            if let defaultValue {
                text.append(" = ")
                text.append(defaultValue)
            }
        }
    }

    /// `subclassed` names the models that others inherit from: they cannot be `final`.
    private func modelView(_ model: ModelDecl, in version: SchemaVersion, subclassed: Set<String>) -> ModelView {
        let keyword = subclassed.contains(model.name) ? "class" : "final class"
        var macros: [String] = []
        if !model.uniqueGroups.isEmpty {
            macros.append("#Unique<\(model.name)>(\(keyPathGroups(model.uniqueGroups)))")
        }
        if !model.indexGroups.isEmpty {
            macros.append("#Index<\(model.name)>(\(keyPathGroups(model.indexGroups)))")
        }
        let parameters = initParameters(model)
        let inherited =
            model.superclass.flatMap { version.model(named: $0) }.map {
                initParameters(inheritedChainOf: $0, in: version)
            } ?? []
        let allParameters = parameters + inherited
        var text = RenderedBytes(capacity: 64 + allParameters.count * 32)
        text.append("init(")
        for index in allParameters.indices {
            if index > 0 { text.append(", ") }
            allParameters[index].spell(into: &text)
        }
        text.append(")")
        var signature = text.string()
        if model.superclass != nil, allParameters == inherited {
            signature = "override " + signature
        }
        return ModelView(
            access: access, docLines: docLines(model.doc), availability: availability(for: model),
            declaration: "\(keyword) \(model.name)" + (model.superclass.map { ": \($0)" } ?? ""),
            macros: macros, properties: model.properties.map { storedView($0, in: version) },
            accessors: model.properties.compactMap { accessorView($0, in: version) },
            initSignature: signature, initAssignments: parameters.map(\.assignment),
            superInit: model.superclass == nil
                ? nil : inherited.map { "\($0.label): \($0.label)" }.joined(separator: ", "))
    }

    private func keyPathGroups(_ groups: [[String]]) -> String {
        groups.map { "[" + $0.map { "\\.\($0)" }.joined(separator: ", ") + "]" }.joined(separator: ", ")
    }

    /// The parameters of a superclass's init, which a subclass init passes on.
    private func initParameters(inheritedChainOf model: ModelDecl, in version: SchemaVersion) -> [InitParameter] {
        let own = initParameters(model)
        guard let parent = model.superclass.flatMap({ version.model(named: $0) }) else { return own }
        return own + initParameters(inheritedChainOf: parent, in: version)
    }

    /// Stored properties with no default: the values a new object cannot do without.
    private func initParameters(_ model: ModelDecl) -> [InitParameter] {
        model.properties.compactMap { property in
            guard property.isStored, property.defaultValue == nil else { return nil }
            let defaultValue = property.isOptional ? "nil" : nil
            switch property.kind {
            case .relationship(let r):
                if r.isToMany { return nil }
                return InitParameter(
                    label: property.name, type: property.isOptional ? "\(r.target)?" : r.target,
                    defaultValue: defaultValue,
                    assignment: "self.\(property.name) = \(property.name)")
            case .attribute(let valueType, let isArray):
                let type =
                    swiftType(valueType, isArray: isArray, typed: true, spelling: property.scalarSpelling)
                    + (property.isOptional ? "?" : "")
                let stored = naming.storedName(property)
                var assignment = "self.\(stored) = \(property.name)"
                if property.kind.storesEnumRawValue {
                    assignment = "self.\(stored) = \(property.name)\(property.isOptional ? "?" : "").rawValue"
                }
                return InitParameter(
                    label: property.name, type: type, defaultValue: defaultValue, assignment: assignment)
            }
        }
    }

    private func swiftType(_ type: ValueType, isArray: Bool, typed: Bool, spelling: String?) -> String {
        let base: String
        switch type {
        case .scalar(let scalar): base = spelling ?? scalar.rawValue
        case .enumeration(let name, let rawType, let storage):
            base = rawType.map { typed || storage == .value ? name : $0.rawValue } ?? name
        case .composite(let name): base = name
        case .dictionary(let key, let value): base = "[\(key.rawValue): \(value)]"
        }
        return isArray ? "[\(base)]" : base
    }

    private func storedView(_ property: Property, in version: SchemaVersion) -> StoredPropertyView {
        var attributes: [String] = []
        let name = naming.storedName(property)
        var type: String
        var initialValue: String?
        switch property.kind {
        case .attribute(let valueType, let isArray):
            type =
                swiftType(valueType, isArray: isArray, typed: false, spelling: property.scalarSpelling)
                + (property.isOptional ? "?" : "")
            if case .enumeration(let enumName, _, .rawValue) = valueType {
                if case .literal(.enumCase(let caseName)) = property.defaultValue,
                    let raw = version.enums.first(where: { $0.name == enumName })?.cases.first(where: {
                        $0.name == caseName
                    })?.rawValue
                {
                    initialValue = SwiftLiteral.value(raw, enumType: nil)
                } else if case .expression(let expression) = property.defaultValue {
                    initialValue = "(\(expression)).rawValue"
                } else if case .literal(.null) = property.defaultValue {
                    initialValue = "nil"
                }
            } else {
                initialValue = defaultSpelling(property.defaultValue)
            }
            if property.isTransient {
                attributes.append("@Transient")
                if initialValue == nil && property.isOptional { initialValue = "nil" }
            } else {
                var arguments: [String] = []
                if property.isUnique { arguments.append(".unique") }
                arguments += property.flags.map { ".\($0.rawValue)" }
                if let transformer = property.transformer {
                    arguments.append(".transformable(by: \(SwiftLiteral.string(transformer)))")
                }
                if property.originalName != nil {
                    arguments.append(
                        "originalName: "
                            + "\(SwiftLiteral.string(renamingIdentifier(of: property, naming: naming)))"
                    )
                }
                if let modifier = property.hashModifier {
                    arguments.append("hashModifier: \(SwiftLiteral.string(modifier))")
                }
                if !arguments.isEmpty { attributes.append("@Attribute(\(arguments.joined(separator: ", ")))") }
            }
        case .relationship(let r):
            type = r.isToMany ? "[\(r.target)]" : r.target
            if property.isOptional { type += "?" }
            // `default: null` keeps an optional to-many nil until the app sets it.
            if property.relationshipHasInitialValue { initialValue = "[]" }
            var arguments: [String] = []
            if r.deleteRule != .nullify { arguments.append("deleteRule: .\(r.deleteRule.rawValue)") }
            if let min = r.minCount { arguments.append("minimumModelCount: \(min)") }
            if let max = r.maxCount { arguments.append("maximumModelCount: \(max)") }
            if let original = property.originalName {
                arguments.append("originalName: \(SwiftLiteral.string(original))")
            }
            if r.declaresInverse, let inverse = r.inverse { arguments.append("inverse: \\\(r.target).\(inverse)") }
            if let modifier = property.hashModifier {
                arguments.append("hashModifier: \(SwiftLiteral.string(modifier))")
            }
            // The store's identity reads this as `declaresRelationshipAttribute` (StoreIdentityTests
            // holds the two together on every golden).
            if !arguments.isEmpty { attributes.append("@Relationship(\(arguments.joined(separator: ", ")))") }
        }
        // The documentation goes on the accessor where there is one: it is what app code names.
        let docs = name != property.name ? [] : docLines(property.doc)
        let declaredAccess = property.access.map { $0 == .internal ? "" : $0.rawValue + " " } ?? access
        return StoredPropertyView(
            access: declaredAccess, docLines: docs, attributes: attributes, name: name, type: type,
            initialValue: initialValue)
    }

    private func defaultSpelling(_ value: DefaultValue?) -> String? {
        switch value {
        case .literal(let literal): return SwiftLiteral.value(literal, enumType: nil)
        case .expression(let expression): return expression
        case nil: return nil
        }
    }

    /// The typed property app code uses where the value is stored under another name: an enum
    /// over its raw value, or a plain pass-through for `storedName:`.
    private func accessorView(_ property: Property, in version: SchemaVersion) -> AccessorView? {
        // Most properties are stored under their own name: no accessor, and no name to build.
        guard property.storedName != nil || property.kind.storesEnumRawValue else { return nil }
        let raw = naming.storedName(property)
        guard raw != property.name, case .attribute(let valueType, let isArray) = property.kind else { return nil }
        guard case .enumeration(let enumName, _, .rawValue) = valueType else {
            let type =
                swiftType(valueType, isArray: isArray, typed: true, spelling: property.scalarSpelling)
                + (property.isOptional ? "?" : "")
            return AccessorView(
                docLines: docLines(property.doc), name: property.name, type: type, getter: raw,
                setter: "\(raw) = newValue")
        }
        if property.isOptional {
            return AccessorView(
                docLines: docLines(property.doc), name: property.name, type: enumName + "?",
                getter: "\(raw).flatMap { \(enumName)(rawValue: $0) }", setter: "\(raw) = newValue?.rawValue")
        }
        let fallback: String
        if case .literal(.enumCase(let caseName)) = property.defaultValue {
            fallback = ".\(caseName)"
        } else {
            let firstCase = version.enums.first { $0.name == enumName }?.cases.first?.name ?? ""
            fallback = ".\(firstCase)"
        }
        return AccessorView(
            docLines: docLines(property.doc), name: property.name, type: enumName,
            getter: "\(enumName)(rawValue: \(raw)) ?? \(fallback)", setter: "\(raw) = newValue.rawValue")
    }

    private func currentView(_ latest: SchemaVersion) -> CurrentAliasesView {
        let current = names.currentSchema
        var aliases = latest.models.map {
            CurrentAliasesView.Alias(
                name: $0.name, target: "\(current).\($0.name)", availability: availability(for: $0))
        }
        aliases += latest.enums.map {
            CurrentAliasesView.Alias(name: $0.name, target: "\(current).\($0.name)", availability: nil)
        }
        aliases += latest.structs.map {
            CurrentAliasesView.Alias(name: $0.name, target: "\(current).\($0.name)", availability: nil)
        }
        return CurrentAliasesView(
            header: header(history.versions.map(\.file)), access: access, currentSchema: current,
            latestSchema: names.versionedSchema(latest.version), aliases: aliases)
    }
}

extension PropertyKind {
    var isEnumeration: Bool {
        if case .attribute(.enumeration, _) = self { return true }
        return false
    }
}
