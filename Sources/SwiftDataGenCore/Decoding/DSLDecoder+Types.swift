import SwiftDataGenDSL

/// The types a version declares beside its models: `structs:` and `enums:`, with their cases.
extension DSLDecoder {
    static func decodeStruct(_ pair: YAMLPair, _ reader: inout NodeReader) -> StructAST? {
        guard let name = reader.identifier(pair.key, what: "struct name") else { return nil }
        let pairs = reader.namedEntries(pair.value, what: "fields of struct '\(name.value)'")
        if pairs.isEmpty {
            reader.diagnostics.append(
                .error(
                    .invalidValue,
                    "struct '\(name.value)' has no fields; write them as a mapping, such as { width: Double, "
                        + "height: Double }",
                    at: pair.value.location))
            return nil
        }
        var fields: [StructAST.Field] = []
        for field in pairs {
            guard let fieldName = reader.identifier(field.key, what: "field name", keywordsAllowed: true),
                let type = typeSpelling(field.value, &reader)
            else { continue }
            fields.append(.init(name: fieldName, type: type))
        }
        return StructAST(name: name, fields: fields)
    }

    static func decodeEnum(_ pair: YAMLPair, _ reader: inout NodeReader) -> EnumAST? {
        guard let name = reader.identifier(pair.key, what: "enum name"),
            let entries = reader.mapping(pair.value, what: "enum '\(name.value)'", allowedKeys: Keys.enumeration)
        else { return nil }
        let rawType = reader.require(entries, EnumKey.rawType, in: "enum '\(name.value)'", at: pair.value.location)
            .flatMap { reader.string($0, what: "rawType") }
        if let rawType, !enumRawTypes.contains(rawType.value) {
            reader.diagnostics.append(
                .error(
                    .invalidValue, "enum raw type '\(rawType.value)' is not supported; use String, Int or none",
                    at: rawType.location))
            return nil
        }
        var cases: [EnumAST.Case] = []
        let problemsBefore = reader.diagnostics.count
        if let casesNode = reader.require(entries, EnumKey.cases, in: "enum '\(name.value)'", at: pair.value.location) {
            switch casesNode.content {
            case .sequence(let items)
            where !reader.withinLimit(
                items.count, Limits.enumCases, "cases in enum \(name.value)", at: casesNode.location):
                return nil
            case .mapping(let pairs)
            where !reader.withinLimit(
                pairs.count, Limits.enumCases, "cases in enum \(name.value)", at: casesNode.location):
                return nil
            case .sequence(let items):
                for item in items {
                    // `- every: { days: Int }`: a case with associated values, in a list of names.
                    if case .mapping(let pairs) = item.content, pairs.count == 1, let casePair = pairs.first {
                        if let decoded = decodeCase(casePair, &reader) { cases.append(decoded) }
                    } else if let caseName = reader.identifier(item, what: "enum case") {
                        cases.append(.init(name: caseName, rawValue: nil))
                    }
                }
            case .mapping(let pairs):
                for casePair in pairs {
                    if let decoded = decodeCase(casePair, &reader) { cases.append(decoded) }
                }
            case .scalar:
                reader.diagnostics.append(
                    .error(
                        .wrongNodeKind,
                        "cases must be a list of names or a mapping of names to raw values or associated values",
                        at: casesNode.location))
            }
            if cases.isEmpty && reader.diagnostics.count == problemsBefore {
                reader.diagnostics.append(
                    .error(.invalidValue, "enum '\(name.value)' needs at least one case", at: casesNode.location))
            }
        }
        guard let rawType else { return nil }
        return EnumAST(name: name, rawType: rawType, cases: cases)
    }

    /// `name: rawValue`, or `name: { label: Type, … }` / `name: [Type, { label: Type }]` for a case
    /// with associated values (`name: []` for one without).
    private static func decodeCase(_ pair: YAMLPair, _ reader: inout NodeReader) -> EnumAST.Case? {
        guard let caseName = reader.identifier(pair.key, what: "enum case") else { return nil }
        var values: [EnumAST.Value] = []
        switch pair.value.content {
        case .scalar:
            guard let raw = reader.string(pair.value, what: "raw value of case '\(caseName.value)'") else { return nil }
            return .init(name: caseName, rawValue: raw)
        case .mapping(let labeled):
            for value in labeled {
                guard let label = reader.identifier(value.key, what: "label of case '\(caseName.value)'"),
                    let type = typeSpelling(value.value, &reader)
                else { return nil }
                values.append(.init(label: label, type: type))
            }
        case .sequence(let items):
            for item in items {
                if case .mapping(let labeled) = item.content {
                    guard labeled.count == 1, let value = labeled.first else {
                        reader.diagnostics.append(
                            .error(
                                .wrongNodeKind,
                                "each associated value of case '\(caseName.value)' is a type or one `label: Type`",
                                at: item.location))
                        return nil
                    }
                    guard let label = reader.identifier(value.key, what: "label of case '\(caseName.value)'"),
                        let type = typeSpelling(value.value, &reader)
                    else { return nil }
                    values.append(.init(label: label, type: type))
                } else {
                    guard let type = typeSpelling(item, &reader) else { return nil }
                    values.append(.init(label: nil, type: type))
                }
            }
        }
        return .init(name: caseName, rawValue: nil, values: values)
    }
}
