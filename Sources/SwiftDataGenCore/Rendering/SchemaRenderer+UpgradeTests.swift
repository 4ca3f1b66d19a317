extension SchemaRenderer {
    /// One Swift Testing file per older version: the upgrade test every migration guide asks for.
    func upgradeTests(testableImport module: String?) throws(Diagnostic) -> [GeneratedFile] {
        guard let latest = history.latest else { return [] }
        var files: [GeneratedFile] = []
        for (index, old) in history.versions.dropLast().enumerated() {
            let next = history.versions[index + 1]
            let suite = "\(names.schema)UpgradeFrom\(names.versionSuffix(old.version))Tests"
            let sample = SampleRows(version: old, schemaName: names.versionedSchema(old.version), names: names)
            var expectations: [String] = []
            for model in old.models where model.superclass == nil && !old.models.contains(where: { $0.superclass == model.name }) {
                guard let count = sample.counts[model.name], let current = latest.model(named: model.name), current.superclass == nil else { continue }
                expectations.append("#expect(try context.fetchCount(FetchDescriptor<\(current.name)>()) == \(count))")
            }
            expectations += convertedValueExpectations(from: old, next: next, latest: latest, sample: sample)
            let view: MustacheValue = [
                "header": header(history.versions.map(\.file)).mustacheValue, "testableImport": module.map(MustacheValue.string) ?? .null,
                "suiteName": .string(suite), "oldVersion": .string("\(old.version)"), "oldSchema": .string(names.versionedSchema(old.version)),
                "currentSchema": .string(names.currentSchema), "planName": .string(names.migrationPlan),
                "inserts": sample.statements.mustacheValue, "expectations": expectations.mustacheValue,
            ]
            files.append(GeneratedFile(name: suite + ".swift", contents: try render("upgrade-test", RawView(value: view)), role: .upgradeTest(schema: history.name)))
        }
        return files
    }

    /// Values the step right after `old` converts or links, checked where they survive unchanged
    /// to the latest version.
    private func convertedValueExpectations(from old: SchemaVersion, next: SchemaVersion, latest: SchemaVersion, sample: SampleRows) -> [String] {
        var lines: [String] = []
        for model in next.models {
            guard let before = SchemaDiff.counterpart(of: model, in: old), let objectName = sample.variables[before.name],
                let current = latest.model(named: model.name)
            else { continue }
            for property in model.properties {
                guard let conversion = property.conversion, let source = before.property(named: conversion.sourceProperty),
                    let survivor = current.property(named: property.name), survivor.kind == property.kind,
                    !history.versions.contains(where: { $0.version > next.version && $0.model(named: model.name)?.property(named: property.name)?.conversion != nil }),
                    let sampleValue = sample.values["\(before.name).\(source.name)"]
                else { continue }
                let fetched = "try context.fetch(FetchDescriptor<\(current.name)>()).first"
                if let key = conversion.matchKey {
                    lines.append("#expect(\(fetched)?.\(property.name)?.\(key) == \(sampleValue))")
                } else {
                    var sourceType = SchemaDiff.typeDescription(source)
                    if case .attribute(.enumeration(let name, _), _) = source.kind {
                        sourceType = sourceType.replacingOccurrences(of: name, with: "\(names.versionedSchema(old.version)).\(name)")
                    }
                    let convert = "convert\(SwiftLiteral.upperFirst(objectName))\(SwiftLiteral.upperFirst(property.name))"
                    lines.append("let \(convert): (\(sourceType)) -> \(SchemaDiff.typeDescription(property)) = { \(conversion.expression ?? "$0") }")
                    lines.append("#expect(\(fetched)?.\(property.name) == \(convert)(\(sampleValue)))")
                }
            }
        }
        return lines
    }
}

/// One object per model of a version, made from its initializer with sample values, then the
/// attributes a later conversion reads set explicitly so the test can check the result.
struct SampleRows {
    var statements: [String] = []
    /// Objects inserted per model.
    var counts: [String: Int] = [:]
    /// The variable holding each model's object.
    var variables: [String: String] = [:]
    /// `Model.property` → the Swift value the sample holds.
    var values: [String: String] = [:]

    init(version: SchemaVersion, schemaName: String, names: GeneratedNames) {
        var remaining = version.models.filter { model in !version.models.contains { $0.superclass == model.name } && model.superclass == nil }
        // Models whose required to-one relationships point at models already made go first.
        while !remaining.isEmpty {
            guard let index = remaining.firstIndex(where: { model in
                model.properties.allSatisfy { property in
                    guard let r = property.relationship, !r.isToMany, !property.isOptional else { return true }
                    return variables[r.target] != nil
                }
            }) else { break }
            let model = remaining.remove(at: index)
            let variable = SwiftLiteral.lowerFirst(model.name) + "Sample"
            var arguments: [String] = []
            for property in model.properties where property.isStored && property.defaultValue == nil {
                if let r = property.relationship {
                    if r.isToMany { continue }
                    arguments.append("\(property.name): \(property.isOptional ? "nil" : variables[r.target] ?? "nil")")
                    continue
                }
                let value = Self.sample(property, in: version, schemaName: schemaName)
                arguments.append("\(property.name): \(value)")
                values["\(model.name).\(property.name)"] = value
            }
            statements.append("let \(variable) = \(schemaName).\(model.name)(\(arguments.joined(separator: ", ")))")
            for property in model.properties where property.isStored && property.defaultValue != nil && property.relationship == nil {
                let value = Self.sample(property, in: version, schemaName: schemaName)
                statements.append("\(variable).\(property.name) = \(value)")
                values["\(model.name).\(property.name)"] = value
            }
            statements.append("context.insert(\(variable))")
            variables[model.name] = variable
            counts[model.name] = 1
        }
    }

    static func sample(_ property: Property, in version: SchemaVersion, schemaName: String) -> String {
        guard case .attribute(let type, let isArray) = property.kind else { return "nil" }
        let single: String
        switch type {
        case .enumeration(let name, _):
            single = "\(schemaName).\(name).\(version.enumeration(named: name)?.cases.first?.name ?? "init(rawValue: 0)!")"
        case .scalar(let scalar):
            switch scalar {
            case .string: single = "\"sample\""
            case .bool: single = "true"
            case .double, .float: single = "1.5"
            case .decimal: single = "Decimal(string: \"1.5\")!"
            case .date: single = "Date(timeIntervalSince1970: 86_400)"
            case .data: single = "Data([1, 2, 3])"
            case .uuid: single = "UUID(uuidString: \"00000000-0000-0000-0000-000000000001\")!"
            case .url: single = "URL(string: \"https://example.com/sample\")!"
            default: single = "1"
            }
        }
        return isArray ? "[\(single)]" : single
    }
}
