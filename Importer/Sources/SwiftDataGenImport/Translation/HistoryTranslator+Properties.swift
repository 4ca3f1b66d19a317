import SwiftDataGenCore
import SwiftDataGenDSL

/// A stored property in DSL words: its type, each key it carries, its initial value and where its
/// data was first stored (`renamedFrom`).
extension HistoryTranslator {
    static func propertyText(
        _ property: ImportedProperty, in model: ImportedModel, before: ImportedModel?, isFirst: Bool,
        enums: Set<String>, structs: Set<String>,
        models: Set<String>, version: ImportedVersion, access: String, notes: inout [ImportNote]
    ) -> String? {
        // A property without a readable type was noted when it was read.
        guard !property.typeName.isEmpty else { return nil }
        // What the DSL takes of dictionaries: [String: Struct], which SwiftData stores as one Binary
        // attribute; others are said below.
        let dictionary = property.dictionaryKey.map { (key: $0, value: property.typeName) }
        if let dictionary, dictionary.key != "String" || !structs.contains(dictionary.value) || property.isArray {
            notes.append(
                .init(
                    position: property.location,
                    message:
                        "\(model.name).\(property.name) is a [\(dictionary.key): \(dictionary.value)]; the DSL "
                        + "stores a "
                        + "dictionary only as [String: <Codable struct it can state>] (how SwiftData stores others is "
                        + "not pinned yet); it is not carried, so the generated \(version.typeName ?? "schema") would "
                        + "not store it"))
            return nil
        }
        let isModel = dictionary == nil && models.contains(property.typeName)
        let isEnum = dictionary == nil && enums.contains(property.typeName)
        guard
            isModel || isEnum || structs.contains(property.typeName)
                || ModelExtractor.valueTypes.contains(property.typeName)
        else {
            if let field = inexpressibleField(of: property.typeName, in: version) {
                notes.append(
                    .init(
                        position: property.location,
                        message:
                            "\(model.name).\(property.name) is a \(property.typeName), a Codable struct the DSL "
                            + "cannot state whole (\(field)); it is not carried, so the generated "
                            + "\(version.typeName ?? "schema") would not store it: see README, Known limits"
                    ))
                return nil
            }
            if version.enums.contains(where: { $0.name == property.typeName }) {
                notes.append(
                    .init(
                        position: property.location,
                        message:
                            "\(model.name).\(property.name) is a \(property.typeName), an enum without cases, "
                            + "which has no value to store; it is not carried"
                    ))
                return nil
            }
            notes.append(
                .init(
                    position: property.location,
                    message:
                        "\(model.name).\(property.name) is a \(property.typeName), which the DSL cannot store "
                        + "(not a value type, enum, Codable struct or model of the files read); it is not carried, "
                        + "so the generated \(version.typeName ?? "schema") would not store it: see README, Known "
                        + "limits"
                ))
            return nil
        }
        var type =
            dictionary.map { "[\($0.key): \($0.value)]" }
            ?? (property.isArray ? "[\(property.typeName)]" : property.typeName)
        if property.isOptional { type += "?" }
        let initial = initialValue(
            property, in: model, isModel: isModel, isEnum: isEnum, version: version, notes: &notes)
        var entries: [String] = []
        // Each key the DSL declares says here what the Swift gives it: a key added to the DSL does
        // not compile until the importer has decided.
        for key in PropertyKey.allCases {
            let value: String?
            switch key {
            case .type: value = YAMLText.scalar(type)
            case .default, .expression: value = initial?.key == key ? initial?.text : nil
            case .renamedFrom:
                value = writableName(
                    renamedFrom(property, in: model, before: before, isFirst: isFirst, notes: &notes),
                    of: key, property, in: model, notes: &notes)
            case .transient: value = property.isTransient ? "true" : nil
            case .unique: value = property.isUnique ? "true" : nil
            case .externalStorage, .spotlight, .preserveValueOnDeletion, .allowsCloudEncryption, .ephemeral, .codable:
                value = property.flags.contains(key.rawValue) ? "true" : nil
            case .transformable: value = writableName(property.transformer, of: key, property, in: model, notes: &notes)
            case .deleteRule:
                value = isModel ? property.deleteRule.flatMap { $0 == "nullify" ? nil : YAMLText.scalar($0) } : nil
            case .inverse: value = isModel ? property.inverse.map(YAMLText.scalar) : nil
            case .minCount: value = isModel ? property.minimumCount.map(String.init) : nil
            case .maxCount: value = isModel ? property.maximumCount.map(String.init) : nil
            case .hashModifier: value = property.hashModifier.map(YAMLText.scalar)
            case .enumStorage: value = isEnum && !property.isArray ? "value" : nil
            case .access:
                let written = accessWord(property.access)
                value = written == access ? nil : written
            case .doc: value = property.doc.map(YAMLText.scalar)
            // How a store changes between versions, which one version's Swift does not say.
            case .from, .storedName: value = nil
            }
            if let value { entries.append("\(key.rawValue): \(value)") }
        }
        if entries.count == 1 && !type.contains("[") { return type }
        return "{ " + entries.joined(separator: ", ") + " }"
    }

    /// A name the DSL takes as an identifier (`renamedFrom`, a transformer's), written through the
    /// YAML writer; a name the DSL could not read back is an error at the Swift line, not YAML
    /// that means something else.
    static func writableName(
        _ name: String?, of key: PropertyKey, _ property: ImportedProperty, in model: ImportedModel,
        notes: inout [ImportNote]
    ) -> String? {
        guard let name else { return nil }
        guard Identifier.isValid(name) else {
            notes.append(
                .init(
                    position: property.location,
                    message:
                        "\(model.name).\(property.name) names \(key.rawValue) \(YAMLText.quoted(name)), which the "
                        + "schema files cannot hold (letters, digits and '_', not starting with a digit); rename it "
                        + "in the app's source or leave the property out",
                    isError: true))
            return nil
        }
        return YAMLText.scalar(name)
    }

    /// The initial value as `default:` (a literal or enum case) or `expression:` (any other Swift).
    static func initialValue(
        _ property: ImportedProperty, in model: ImportedModel, isModel: Bool, isEnum: Bool, version: ImportedVersion,
        notes: inout [ImportNote]
    ) -> (key: PropertyKey, text: String)? {
        switch property.defaultValue {
        case .null? where isModel && property.isArray && property.isOptional:
            // An optional to-many the app starts nil, which the generator otherwise starts `[]`.
            return (.default, "null")
        case nil, .null?:
            return nil
        case .list(let items)? where isModel && items.isEmpty:
            return nil
        case .enumCase(let name)? where isEnum:
            return (.default, YAMLText.scalar(name))
        case .expression(let text)? where isEnum && caseName(text, of: property.typeName, in: version) != nil:
            return (.default, YAMLText.scalar(caseName(text, of: property.typeName, in: version) ?? ""))
        case .expression(let text)?:
            return (.expression, YAMLText.scalar(text))
        case .enumCase(let name)?:
            return (.expression, YAMLText.scalar("\(property.typeName).\(name)"))
        case let value?:
            guard !isModel else {
                notes.append(
                    .init(
                        position: property.location,
                        message: "the initial value of relationship \(model.name).\(property.name) is not carried"))
                return nil
            }
            return (.default, YAMLText.value(value))
        }
    }

    /// `renamedFrom` from `originalName`: the previous version's property whose data this one
    /// reads. A property continued under its own name needs none (the generator carries the
    /// identifier forward).
    static func renamedFrom(
        _ property: ImportedProperty, in model: ImportedModel, before: ImportedModel?, isFirst: Bool,
        notes: inout [ImportNote]
    ) -> String? {
        guard let original = property.originalName, original != property.name else {
            if let old = before?.properties.first(where: { $0.name == property.name }), let carried = old.originalName,
                property.originalName == nil
            {
                notes.append(
                    .init(
                        position: property.location,
                        message:
                            "\(model.name).\(property.name) no longer says originalName: \"\(carried)\", so the "
                            + "app's own step into this version re-created \(property.name) empty (no column of that "
                            + "name in the older store); the generated step keeps reading it as \"\(carried)\", so "
                            + "its values are kept", severity: .warning))
            }
            return nil
        }
        guard let before else {
            if isFirst { return original }
            notes.append(
                .init(
                    position: property.location,
                    message:
                        "originalName \"\(original)\" of \(model.name).\(property.name): \(model.name) is new in "
                        + "this version, so there is nothing to rename from; not carried"
                ))
            return nil
        }
        guard let source = before.properties.first(where: { ($0.originalName ?? $0.name) == original }) else {
            notes.append(
                .init(
                    position: property.location,
                    message:
                        "originalName \"\(original)\" of \(model.name).\(property.name) matches no property of "
                        + "the previous version; not carried"
                ))
            return nil
        }
        return source.name == property.name ? nil : source.name
    }
}
