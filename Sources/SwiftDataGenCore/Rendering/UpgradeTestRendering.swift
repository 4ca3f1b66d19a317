extension SchemaRenderer {
    /// One Swift Testing file per older version: it seeds every stored attribute of that version
    /// with a value no default (and no lost mapping) would leave, upgrades to the latest version
    /// and checks every value that survives the chain — renamed, converted (through the plan's own
    /// conversion), linked. Runs on Apple platforms and in the stand-in's simulator alike.
    func upgradeTests(testableImport module: String?, _ emit: (GeneratedFile) -> Void) throws(Diagnostic) {
        let versions = plan.versions
        guard versions.count > 1 else { return }
        for index in versions.indices.dropLast() {
            let old = versions[index]
            let suite = "\(names.schema)UpgradeFrom\(names.versionSuffix(old.version))Tests"
            let deduplications =
                plan.steps.first { $0.from == old.version }?.stages.flatMap(\.actions).compactMap {
                    action -> MigrationPlan.Deduplication? in
                    if case .deduplicate(let dedupe) = action { return dedupe }
                    return nil
                } ?? []
            let sample = SampleRows(
                version: old, next: versions[index + 1], latest: versions.last, deduplications: deduplications,
                schemaName: names.versionedSchema(old.version), names: names)
            var chain = UpgradeChain(renderer: self, versions: versions, from: index, sample: sample)
            let expectations = chain.expectations()
            let view: MustacheValue = [
                "header": header(history.versions.map(\.file)).mustacheValue,
                "testableImport": module.map(MustacheValue.string) ?? .null,
                "suiteName": .string(suite), "oldVersion": .string("\(old.version)"),
                "oldSchema": .string(names.versionedSchema(old.version)),
                "currentSchema": .string(names.currentSchema), "planName": .string(names.migrationPlan),
                "seeds": sample.seeds.mustacheValue, "inserts": sample.statements.mustacheValue,
                "expectations": expectations.mustacheValue,
                "checksValues": .bool(!expectations.isEmpty),
                "helpers": chain.helpers.mustacheValue,
                "checksKeptValues": .bool(chain.checksKeptValues),
            ]
            emit(
                GeneratedFile(
                    name: suite + ".swift", contents: try render("upgrade-test", RawView(value: view)),
                    role: .upgradeTest(schema: history.name)))
        }
    }
}

/// Follows each seeded value of one older version through every later step to the latest
/// version, as the plan moves it, and says what the latest store must hold.
struct UpgradeChain {
    let renderer: SchemaRenderer
    let versions: [SchemaVersion]
    let start: Int
    let sample: SampleRows
    /// Extensions of bridge schemas that convert a stored value as the plan does.
    var helpers: [String] = []
    /// Some expectation calls `expectKept`, so the file declares it.
    private(set) var checksKeptValues = false

    init(renderer: SchemaRenderer, versions: [SchemaVersion], from start: Int, sample: SampleRows) {
        self.renderer = renderer
        self.versions = versions
        self.start = start
        self.sample = sample
    }

    /// A value on its way: the property that holds it now and the Swift expression of what it
    /// must be, in stored form (an enum's raw value).
    private struct Tracked {
        var property: String
        var expected: String
        /// The expression is an Optional (it went through a conversion).
        var isOptional: Bool
        /// For a link: the related model's key that must hold the text.
        var matchKey: String?
        /// A relationship the sample set: it must still point somewhere.
        var isRelationship = false
        /// The struct `expected` builds: a conversion writes it in the bridge's types.
        var structLiteral: StructLiteral?
        /// A struct the plan converted: `expected` is the bridge's type, so the two are compared by
        /// their encodings.
        var comparesEncoding = false
    }

    private var naming: NamingConfig { renderer.naming }

    mutating func expectations() -> [String] {
        let old = versions[start]
        guard let latest = versions.last else { return [] }
        var lines: [String] = []
        for model in old.models where sample.variables[model.name] != nil {
            guard let name = latestName(of: model.name), let current = latest.model(named: name),
                current.superclass == nil
            else { continue }
            lines.append(
                "#expect(try context.fetchCount(FetchDescriptor<\(current.name)>()) == "
                    + "\(sample.counts[model.name] ?? 1))"
            )
        }
        for model in old.models where sample.variables[model.name] != nil {
            var tracked = model.properties.compactMap { property -> Tracked? in
                if sample.relationships.contains("\(model.name).\(property.name)") {
                    return Tracked(property: property.name, expected: "", isOptional: false, isRelationship: true)
                }
                let key = "\(model.name).\(property.name)"
                guard let value = sample.storedValues[key] else { return nil }
                return Tracked(
                    property: property.name, expected: value, isOptional: false,
                    structLiteral: sample.storedStructs[key])
            }
            var modelName = model.name
            var survives = true
            for step in (start + 1)..<versions.count {
                let before = versions[step - 1]
                let after = versions[step]
                guard let previous = before.model(named: modelName),
                    let next = after.models.first(where: {
                        SchemaDiff.counterpart(of: $0, in: before)?.name == modelName
                    })
                else {
                    survives = false
                    break
                }
                tracked = follow(tracked, from: previous, to: next, between: before, and: after)
                modelName = next.name
            }
            guard survives, let current = latest.model(named: modelName), current.superclass == nil, !tracked.isEmpty
            else { continue }
            let object = SwiftLiteral.lowerFirst(current.name) + "After"
            lines.append("let \(object) = try #require(try context.fetch(FetchDescriptor<\(current.name)>()).first)")
            for value in tracked {
                guard let property = current.property(named: value.property) else { continue }
                let what = SwiftLiteral.string(
                    "\(current.name).\(property.name) after the upgrade from \(versions[start].version)")
                if value.isRelationship, let r = property.relationship {
                    if r.isToMany {
                        lines.append(
                            expectKept(
                                "\(object).\(property.name)\(property.isOptional ? "?" : "").isEmpty", "false", what))
                    } else if property.isOptional {
                        lines.append("#expect(\(object).\(property.name) != nil, \(what))")
                    }
                } else if let key = value.matchKey {
                    lines.append(expectKept("\(object).\(property.name)?.\(key)", value.expected, what))
                } else {
                    guard let read = property.upgradeTestRead(of: object, naming: naming) else { continue }
                    if value.comparesEncoding {
                        lines.append(expectKept("\(encoding)(\(read))", "\(encoding)(\(value.expected))", what))
                        declareEncoding()
                    } else {
                        lines.append(expectKept(read, value.expected, what))
                    }
                }
            }
        }
        return lines
    }

    /// The model's name in the latest version, through every rename; nil once it is removed.
    private func latestName(of model: String) -> String? {
        var name = model
        for step in (start + 1)..<versions.count {
            guard
                let next = versions[step].models.first(where: {
                    SchemaDiff.counterpart(of: $0, in: versions[step - 1])?.name == name
                })
            else { return nil }
            name = next.name
        }
        return name
    }

    private let encoding = "upgradeTestEncoding"

    /// Declares, once, the function that compares a struct converted into the bridge's type with
    /// the latest version's by their encodings (sorted keys, so equal values encode alike).
    private mutating func declareEncoding() {
        let declaration = """
            /// A struct converted by the plan has the bridge's type and the one kept the latest version's:
            /// they are compared by their encodings.
            private func \(encoding)<Value: Encodable>(_ value: Value) -> Data? {
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                return try? encoder.encode(value)
            }
            """
        if !helpers.contains(declaration) { helpers.append(declaration) }
    }

    /// A check that the upgrade kept a value, through the file's generic `expectKept` function:
    /// with an `#expect` macro per value, each of KMReader's tests took 1.7 s to type-check, 0.2 s with this.
    private mutating func expectKept(_ actual: String, _ expected: String, _ what: String) -> String {
        checksKeptValues = true
        return "expectKept(\(actual), \(expected), \(what))"
    }

    /// The values one step carries: kept through a rename or by name, converted by the plan's
    /// conversion, or linked; a value whose property is removed is gone.
    private mutating func follow(
        _ tracked: [Tracked], from previous: ModelDecl, to next: ModelDecl, between before: SchemaVersion,
        and version: SchemaVersion
    ) -> [Tracked] {
        var result: [Tracked] = []
        for property in next.properties where property.isStored {
            if let conversion = property.conversion {
                guard
                    let source = tracked.first(where: { $0.property == conversion.sourceProperty && $0.matchKey == nil }
                    ),
                    let sourceProperty = previous.property(named: conversion.sourceProperty)
                else { continue }
                if let key = conversion.matchKey {
                    result.append(
                        Tracked(
                            property: property.name, expected: source.expected, isOptional: source.isOptional,
                            matchKey: key))
                    continue
                }
                guard property.relationship == nil else { continue }
                let bridge = renderer.names.bridge(into: version.version)
                let call = helper(
                    converting: sourceProperty, into: property, of: next, conversion: conversion, bridge: bridge)
                let argument = source.structLiteral?.written(in: bridge) ?? source.expected
                let expected = source.isOptional ? "(\(argument)).flatMap { \(call)($0) }" : "\(call)(\(argument))"
                var converted = Tracked(property: property.name, expected: expected, isOptional: true)
                if case .attribute(.composite, _) = property.kind { converted.comparesEncoding = true }
                if case .attribute(.dictionary, _) = property.kind { converted.comparesEncoding = true }
                result.append(converted)
            } else if let old = SchemaDiff.counterpart(of: property, in: previous, within: next, naming: naming),
                var value = tracked.first(where: { $0.property == old.name })
            {
                // A link's relationship is checked only while it stays the same relationship (or
                // follows its destination's rename, the key under its name there); a sampled
                // relationship while it stays one.
                if let key = value.matchKey, old.kind != property.kind {
                    guard let moved = keyFollowingRename(key, of: old, to: property, between: before, and: version)
                    else { continue }
                    value.matchKey = moved
                }
                if value.isRelationship && property.relationship == nil { continue }
                // A property of another type under the same name is re-created empty: nothing to expect.
                if !SchemaDiff.sameStoredType(old, property, old: before, new: version) { continue }
                value.property = property.name
                result.append(value)
            }
        }
        return result
    }

    /// The match key's name on a link's destination renamed in this step, when the relationship
    /// follows the rename and nothing else about it changes; nil otherwise.
    private func keyFollowingRename(
        _ key: String, of old: Property, to property: Property, between before: SchemaVersion,
        and version: SchemaVersion
    ) -> String? {
        guard let was = old.relationship, let now = property.relationship, was.isToMany == now.isToMany,
            version.renamedModels[now.target] == was.target, let target = version.model(named: now.target),
            let oldTarget = before.model(named: was.target)
        else { return nil }
        return target.properties.first {
            SchemaDiff.counterpart(of: $0, in: oldTarget, within: target, naming: naming)?.name == key
        }?.name
    }

    /// Declares, in an extension of the bridge, the plan's conversion from stored value to stored
    /// value, so its expression names the bridge's types exactly as the plan's does.
    /// The name of the conversion helper for `target` of `model`, declared on `bridge`.
    static func helperName(model: String, target: String, bridge: String) -> String {
        "\(bridge).upgradeTest\(model)\(SwiftLiteral.upperFirst(target))"
    }

    private mutating func helper(
        converting source: Property, into target: Property, of model: ModelDecl, conversion: Conversion, bridge: String
    ) -> String {
        let name = "upgradeTest\(model.name)\(SwiftLiteral.upperFirst(target.name))"
        let storedSource = storedType(source)
        let storedTarget = storedType(target)
        var body: [String] = []
        body.append(
            "let convert: (\(SchemaDiff.typeDescription(source))) -> \(SchemaDiff.typeDescription(target)) = { "
                + "\(conversion.expression ?? "$0") }"
        )
        var input = "value"
        if case .attribute(.enumeration(let enumName, _, _), _) = source.kind {
            if source.isOptional {
                body.append("let input = value.flatMap { \(enumName)(rawValue: $0) }")
            } else {
                body.append("guard let input = \(enumName)(rawValue: value) else { return nil }")
            }
            input = "input"
        }
        if target.kind.isEnumeration {
            body.append("return convert(\(input))\(target.isOptional ? "?" : "").rawValue")
        } else {
            body.append("return convert(\(input))")
        }
        helpers.append(
            """
            extension \(bridge) {
                /// \(model.name).\(target.name) as the plan converts it, from stored value to stored value.
                fileprivate static func \(name)(_ value: \(storedSource)) -> \(storedTarget)? {
                    \(body.joined(separator: "\n        "))
                }
            }
            """)
        return Self.helperName(model: model.name, target: target.name, bridge: bridge)
    }

    /// The Swift type a property is stored as: an enum's raw type (an enum without one is never
    /// converted: the planner refuses it).
    private func storedType(_ property: Property) -> String {
        guard case .attribute(.enumeration(_, let rawType?, _), let isArray) = property.kind else {
            return SchemaDiff.typeDescription(property)
        }
        return (isArray ? "[\(rawType.rawValue)]" : rawType.rawValue) + (property.isOptional ? "?" : "")
    }
}
