import SwiftDataGenCore
import SwiftDataGenDSL

/// The import checking itself: the history it wrote is validated and built in memory as the
/// generator builds it, and each version's store, as SwiftData would make it from the generated
/// classes, is compared with the store the app's own classes make, as read from its Swift. Entity
/// version hashes are compared (Apple's recipe, `StoreIdentity`), and so is what the hashes leave
/// out but a migration reads: delete rules, renaming identifiers, indexes. Every difference is an
/// error at the app's declaration.
public enum ImportProof {
    /// Errors, one per difference; empty when every version generates the store the app declares.
    public static func check(_ output: HistoryTranslator.Output) -> [ImportNote] {
        let (histories, diagnostics) = validated(output)
        let fallback = output.versions.first?.location ?? SourcePosition(file: "-", line: 1, column: 1)
        // What the generator says of a YAML line is said at the Swift declaration the line states:
        // the YAML is in memory, never written.
        func atSwift(_ diagnostic: Diagnostic, _ what: String) -> ImportNote {
            let draft = diagnostic.location.map { " (--draft writes it: \($0.file), line \($0.line))" } ?? ""
            return ImportNote(
                position: diagnostic.location.flatMap { output.origin(file: $0.file, line: $0.line) } ?? fallback,
                message: "\(what): \(diagnostic.message) [\(diagnostic.code.rawValue)]\(draft)", isError: true)
        }
        let refused = diagnostics.filter(\.isError)
        guard refused.isEmpty, let history = histories.first, history.versions.count == output.versions.count else {
            guard refused.isEmpty else {
                return refused.map { atSwift($0, "the history the import would write from this does not generate") }
            }
            return [
                ImportNote(
                    position: fallback,
                    message: "the history the import would write holds \(histories.first?.versions.count ?? 0) "
                        + "versions where \(output.versions.count) were read", isError: true)
            ]
        }
        let planned = MigrationPlanner.plan(history).diagnostics.filter(\.isError)
        guard planned.isEmpty else {
            return planned.map { atSwift($0, "the migration plan the import would write from this does not generate") }
        }
        var errors: [ImportNote] = []
        for (index, (read, generated)) in zip(output.versions, history.versions).enumerated() {
            errors += compare(
                read, generated, previous: index > 0 ? output.versions[index - 1] : nil, naming: history.config.naming)
        }
        return errors
    }

    /// The history the output's YAML files declare, validated as `swiftdata-gen validate` would.
    public static func validated(_ output: HistoryTranslator.Output) -> ([SchemaHistory], [Diagnostic]) {
        let yaml = output.files.filter { $0.name.hasSuffix(".yaml") }
        return Generator.validate(
            SchemaSources(
                config: yaml.first { $0.name == "swiftdata-gen.yaml" }.map(Self.source),
                versions: yaml.filter { $0.name != "swiftdata-gen.yaml" }.map(Self.source)))
    }

    public static func source(_ file: (name: String, text: String)) -> SourceFile {
        SourceFile(displayPath: file.name, relativePath: file.name, bytes: Array(file.text.utf8))
    }

    /// One version: the hashes first, each differing entity told property by property; then what
    /// the hashes do not read.
    static func compare(
        _ read: ImportedVersion, _ generated: SchemaVersion, previous: ImportedVersion?, naming: NamingConfig
    ) -> [ImportNote] {
        let app = StoreIdentity(entities: read.models.map { entity($0, in: read) })
        let built = StoreIdentity(generated, naming: naming)
        let label = read.qualifiedName ?? read.typeName ?? "the app's models"
        var errors: [ImportNote] = []
        for difference in built.differences(from: app) {
            let model = read.models.first { $0.name == difference.entity }
            let position =
                difference.property.flatMap { name in model?.properties.first { $0.name == name }?.location }
                ?? model?.location ?? read.location
            errors.append(
                ImportNote(
                    position: position,
                    message:
                        "\(label): the generated \(generated.version) does not store \(difference.entity)"
                        + "\(difference.property.map { "." + $0 } ?? "") as the app does (app → generated: "
                        + "\(difference.change)); a store of this version would not open",
                    isError: true))
        }
        for model in read.models {
            guard let other = generated.model(named: model.name) else { continue }
            func say(_ position: SourcePosition, _ what: String) {
                errors.append(
                    ImportNote(
                        position: position, message: "\(label): \(what) in the generated \(generated.version)",
                        isError: true))
            }
            if Set(model.indexGroups) != Set(other.indexGroups) {
                say(model.location, "\(model.name)'s indexes \(model.indexGroups) are \(other.indexGroups)")
            }
            for property in model.properties where !property.isTransient {
                guard let counterpart = other.property(named: property.name) else { continue }
                let identifier = renamingIdentifier(of: counterpart, naming: naming)
                // An originalName the app dropped: the generated version keeps it, so its step keeps
                // the values the app's step re-created empty (the translator says so); stores open
                // the same, as renaming identifiers are not hashed.
                let dropped =
                    property.originalName == nil
                    && previous?.models.first { $0.name == model.name }?.properties.first {
                        $0.name == property.name
                    }?.originalName == identifier
                if identifier != (property.originalName ?? property.name) && !dropped {
                    say(
                        property.location,
                        "\(model.name).\(property.name) is read from stores as "
                            + "\"\(property.originalName ?? property.name)\""
                            + " by the app, as \"\(identifier)\"")
                }
                let rule = counterpart.relationship?.deleteRule.rawValue
                if let rule, rule != (property.deleteRule ?? "nullify") {
                    say(
                        property.location,
                        "\(model.name).\(property.name) deletes with .\(property.deleteRule ?? "nullify") in the app, "
                            + "with .\(rule)")
                }
            }
        }
        return errors
    }

    /// What SwiftData builds from one of the app's `@Model` classes, as the importer read it.
    static func entity(_ model: ImportedModel, in version: ImportedVersion) -> CoreDataEntity {
        let models = Set(version.models.map(\.name))
        var unique = model.properties.filter { $0.isUnique && !$0.isTransient }.map { [$0.name] }
        unique += model.uniqueGroups
        return CoreDataEntity(
            name: model.name, parent: model.superclass.flatMap { models.contains($0) ? $0 : nil },
            properties: model.properties.filter { !$0.isTransient }.map { property($0, of: model, in: version) },
            uniquenessConstraints: unique)
    }

    static func property(_ property: ImportedProperty, of model: ImportedModel, in version: ImportedVersion)
        -> CoreDataProperty
    {
        let external = property.flags.contains("externalStorage")
        let preserved = property.flags.contains("preserveValueOnDeletion")
        func attribute(_ type: CoreDataAttributeType) -> CoreDataProperty.Kind {
            .attribute(type, externalStorage: external, preservedOnDeletion: preserved)
        }
        let kind: CoreDataProperty.Kind
        if property.flags.contains("codable") {
            // `@Attribute(.codable)`: read as the generator reads it (StorageRow.codableEncoding).
            kind = attribute(.binaryData)
        } else if property.dictionaryKey != nil {
            // Encoded whole into one Binary attribute (docs/version-hash-recipe.md: `[String:
            // Struct]?`).
            kind = attribute(.binaryData)
        } else if let destination = version.models.first(where: { $0.name == property.typeName }) {
            // An inverse declared on either side is both sides' (SwiftData pairs them).
            let inverse =
                property.inverse
                ?? destination.properties.first {
                    $0.inverse == property.name && $0.typeName == model.name
                }?.name
            kind = .relationship(
                CoreDataRelationship(
                    destination: destination.name,
                    inverse: destination.name == model.name && inverse == property.name ? nil : inverse,
                    minCount: property.minimumCount ?? 0,
                    maxCount: property.isArray ? property.maximumCount ?? 0 : 1,
                    isAnnotated: property.isAnnotatedRelationship, hasInitialValue: property.defaultValue != nil))
        } else if property.isArray || property.transformer != nil {
            kind = attribute(.transformable)
        } else if let type = CoreDataAttributeType(storing: property.typeName) {
            kind = attribute(type)
        } else if let enumeration = version.enums.first(where: { $0.name == property.typeName }) {
            // Without a raw type: its cases' values, a composite of a composite per case with
            // values (docs/version-hash-recipe.md, expected); with one, its raw value.
            var visiting: Set<String> = []
            kind = .composite(
                elements: enumeration.rawType == "none"
                    ? values(of: enumeration, in: version, visiting: &visiting)
                    : [leaf(property.name, rawType: enumeration.rawType)])
        } else if version.structs.contains(where: { $0.name == property.typeName }) {
            var visiting: Set<String> = []
            kind = .composite(elements: fields(of: property.typeName, in: version, visiting: &visiting))
        } else {
            kind = attribute(.undefined)
        }
        return CoreDataProperty(
            name: property.name, isOptional: property.isOptional, hashModifier: property.hashModifier, kind: kind)
    }

    /// An enum's raw value inside a composite: optional, under the name given.
    static func leaf(_ name: String, rawType: String) -> CoreDataProperty {
        CoreDataProperty(
            name: name, isOptional: true,
            kind: .attribute(
                CoreDataAttributeType(storing: rawType) ?? .undefined, externalStorage: false,
                preservedOnDeletion: false))
    }

    /// A Codable struct's fields as composite elements, every one optional.
    static func fields(of name: String, in version: ImportedVersion, visiting: inout Set<String>)
        -> [CoreDataProperty]
    {
        guard let decl = version.structs.first(where: { $0.name == name }), visiting.insert(name).inserted else {
            return []
        }
        defer { visiting.remove(name) }
        return decl.fields.map { element($0, in: version, visiting: &visiting) }
    }

    /// An enum without a raw type's associated values: a composite per case that has any.
    static func values(of enumeration: ImportedEnum, in version: ImportedVersion, visiting: inout Set<String>)
        -> [CoreDataProperty]
    {
        guard visiting.insert(enumeration.name).inserted else { return [] }
        defer { visiting.remove(enumeration.name) }
        return enumeration.cases.filter { !$0.values.isEmpty }.map { item in
            CoreDataProperty(
                name: item.name, isOptional: true,
                kind: .composite(elements: item.values.map { element($0, in: version, visiting: &visiting) }))
        }
    }

    /// One value inside a composite (a struct's field, an associated value), optional.
    static func element(_ field: ImportedStruct.Field, in version: ImportedVersion, visiting: inout Set<String>)
        -> CoreDataProperty
    {
        func plain(_ type: CoreDataAttributeType) -> CoreDataProperty {
            CoreDataProperty(
                name: field.name, isOptional: true,
                kind: .attribute(type, externalStorage: false, preservedOnDeletion: false))
        }
        if field.isArray { return plain(.binaryData) }
        if let type = CoreDataAttributeType(storing: field.typeName) { return plain(type) }
        if let enumeration = version.enums.first(where: { $0.name == field.typeName }) {
            guard enumeration.rawType != "none" else {
                return CoreDataProperty(
                    name: field.name, isOptional: true,
                    kind: .composite(elements: values(of: enumeration, in: version, visiting: &visiting)))
            }
            return leaf(field.name, rawType: enumeration.rawType)
        }
        if version.structs.contains(where: { $0.name == field.typeName }) {
            return CoreDataProperty(
                name: field.name, isOptional: true,
                kind: .composite(elements: fields(of: field.typeName, in: version, visiting: &visiting)))
        }
        return plain(.undefined)
    }
}
