import SwiftDataGenDSL

/// The types a version declares beside its models: Codable structs, enums, and the names they take.
extension VersionResolver {
    /// A struct or an enum that holds itself other than through an array has no finite size:
    /// Swift refuses it ("value type has infinite size"; an enum would need `indirect`).
    mutating func checkValueTypesDoNotHoldThemselves(structs structDecls: [StructDecl], enums enumDecls: [EnumDecl]) {
        func held(by name: String) -> [String] {
            let fields = structs[name]?.fields ?? enums[name]?.cases.flatMap(\.values) ?? []
            return fields.filter { !$0.isArray }.compactMap { field in
                switch field.type {
                case .composite(let held), .enumeration(let held, nil, _): return held
                case .scalar, .enumeration, .dictionary: return nil
                }
            }
        }
        let declared =
            structDecls.map { ($0.name, $0.location, "struct") } + enumDecls.map { ($0.name, $0.location, "enum") }
        for (name, location, kind) in declared {
            var reached: Set<String> = []
            var pending = [name]
            while let next = pending.popLast() {
                for item in held(by: next) where reached.insert(item).inserted { pending.append(item) }
            }
            if reached.contains(name) {
                diagnostics.append(
                    .error(
                        .invalidTypeSpelling,
                        "\(kind) \(name) holds itself through its "
                            + (kind == "struct" ? "fields" : "associated values")
                            + ", which no value type can; hold it in an array ([\(name)]) or make it a model",
                        at: location))
            }
        }
    }

    mutating func resolveStruct(_ ast: StructAST, structNames: Set<String>) -> StructDecl {
        var fields: [StructDecl.Field] = []
        var seen: Set<String> = []
        for field in ast.fields {
            guard seen.insert(field.name.value).inserted else {
                diagnostics.append(
                    .error(
                        .duplicateName, "field '\(field.name.value)' is declared twice in struct \(ast.name.value)",
                        at: field.name.location))
                continue
            }
            if let refusal = NamePosition.structField.refusal(of: field.name.value) {
                diagnostics.append(
                    .error(
                        .reservedName,
                        "'\(field.name.value)' cannot name a field of struct \(ast.name.value): \(refusal.reason); "
                            + "rename it (for example \(field.name.value)Value)",
                        at: field.name.location))
                continue
            }
            if let resolved = valueField(
                field.name.value, field.type, structNames: structNames,
                what: "field '\(field.name.value)' of struct \(ast.name.value)", holder: "a struct's fields")
            {
                fields.append(resolved)
            }
        }
        return StructDecl(name: ast.name.value, fields: fields, location: ast.name.location)
    }

    /// A value held inside a composite (a struct's field, an enum case's associated value): a
    /// scalar, an enum or a struct of the version, optional or an array; never a dictionary.
    mutating func valueField(
        _ name: String, _ type: Located<TypeSpelling>, structNames: Set<String>, what: String, holder: String
    ) -> StructDecl.Field? {
        let spelling = type.value
        if spelling.dictionaryKey != nil {
            diagnostics.append(
                .error(
                    .invalidTypeSpelling,
                    "\(what) is a dictionary; \(holder) are value types, enums or structs of this version, optional "
                        + "or arrays",
                    at: type.location))
            return nil
        }
        let resolved: ValueType
        var written: String?
        let named = ScalarType.named(spelling.name)
        if let scalar = named ?? ScalarType.spelled(spelling.name) {
            resolved = .scalar(scalar)
            written = named == nil ? spelling.name : nil
        } else if let decl = enums[spelling.name] {
            resolved = .enumeration(name: decl.name, rawType: decl.rawType, storage: .value)
        } else if structNames.contains(spelling.name) {
            resolved = .composite(name: spelling.name)
        } else {
            diagnostics.append(
                .error(
                    .unknownType,
                    "\(what) has type '\(spelling.name)'; \(holder) are value types, enums or structs of this "
                        + "version",
                    at: type.location))
            return nil
        }
        return .init(
            name: name, type: resolved, isOptional: spelling.isOptional, isArray: spelling.isArray, spelling: written)
    }

    mutating func claimTypeName(_ name: Located<String>, in seen: inout [String: SourceLocation]) -> Bool {
        if let first = seen[name.value] {
            diagnostics.append(
                .error(
                    .duplicateName, "'\(name.value)' is declared twice in this version", at: name.location,
                    notes: [.init("first declared here", at: first)]))
            return false
        }
        if let refusal = NamePosition.type.refusal(of: name.value) {
            diagnostics.append(
                .error(
                    .reservedName,
                    "'\(name.value)' cannot name a model or enum: \(refusal.reason); rename it (for example "
                        + "\(file.schema.value)\(name.value))",
                    at: name.location))
            return false
        }
        if name.value.hasPrefix("_") {
            diagnostics.append(.error(.reservedName, "type names may not start with '_'", at: name.location))
            return false
        }
        seen[name.value] = name.location
        return true
    }

    mutating func resolveEnum(_ ast: EnumAST) -> EnumDecl? {
        // `none`: cases only, stored through the enum's Codable conformance by case name.
        let rawType = ScalarType(rawValue: ast.rawType.value)
        guard rawType != nil || ast.rawType.value == "none" else { return nil }
        var cases: [EnumDecl.Case] = []
        var names: [String: SourceLocation] = [:]
        var raws: [LiteralValue: SourceLocation] = [:]
        for item in ast.cases {
            if let refusal = NamePosition.enumCase.refusal(of: item.name.value) {
                diagnostics.append(
                    .error(
                        .reservedName,
                        "'\(item.name.value)' cannot name a case of \(ast.name.value): \(refusal.reason); choose "
                            + "another (the raw value may stay \"\(item.name.value)\")",
                        at: item.name.location))
                continue
            }
            if let first = names[item.name.value] {
                diagnostics.append(
                    .error(
                        .duplicateName, "case '\(item.name.value)' appears twice in enum \(ast.name.value)",
                        at: item.name.location, notes: [.init("first here", at: first)]))
                continue
            }
            names[item.name.value] = item.name.location
            if rawType != nil, let first = item.values.first {
                diagnostics.append(
                    .error(
                        .invalidValue,
                        "case '\(item.name.value)' of \(ast.name.value) has associated values, which an enum with a "
                            + "raw type cannot have; write rawType: none, or list the case without values",
                        at: first.label?.location ?? first.type.location))
                continue
            }
            guard let rawType else {
                if let written = item.rawValue {
                    diagnostics.append(
                        .error(
                            .invalidValue,
                            "\(ast.name.value) has no raw type (rawType: none), so its cases have no raw values; "
                                + "list the case names, or give the enum a raw type",
                            at: written.location))
                    continue
                }
                cases.append(.init(name: item.name.value, rawValue: nil))
                continue
            }
            let raw: LiteralValue
            if let written = item.rawValue {
                let scalar = YAMLScalar(value: written.value, style: rawType == .string ? .doubleQuoted : .plain)
                switch DefaultValueResolver.literal(written.value, scalar: scalar, as: rawType, at: written.location) {
                // Compared and written by value: `1` and `01` are one raw value.
                case .success(.integer(let text)): raw = .integer(Int(text).map(String.init) ?? text)
                case .success(let value): raw = value
                case .failure(let diagnostic):
                    diagnostics.append(diagnostic)
                    continue
                }
            } else if rawType == .string {
                raw = .string(item.name.value)
            } else {
                diagnostics.append(
                    .error(
                        .invalidValue,
                        "cases of an Int enum need raw values: write cases as a mapping, such as { "
                            + "\(item.name.value): 0 }",
                        at: item.name.location))
                continue
            }
            if let first = raws[raw] {
                diagnostics.append(
                    .error(
                        .duplicateName,
                        "case '\(item.name.value)' repeats a raw value of enum \(ast.name.value); raw values are "
                            + "what is stored, so they must differ",
                        at: item.name.location, notes: [.init("same raw value here", at: first)]))
                continue
            }
            raws[raw] = item.name.location
            cases.append(.init(name: item.name.value, rawValue: raw))
        }
        return EnumDecl(name: ast.name.value, rawType: rawType, cases: cases, location: ast.name.location)
    }

    /// Each case's associated values, read once the version's enums and structs are known.
    mutating func resolveAssociatedValues(of decl: inout EnumDecl, from ast: EnumAST, structNames: Set<String>) {
        guard decl.rawType == nil else { return }
        // A repeated case is resolved once, from its first spelling (`resolveEnum`).
        let written = Dictionary(ast.cases.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        for index in decl.cases.indices {
            guard let item = written[decl.cases[index].name] else { continue }
            var labels: [String: SourceLocation] = [:]
            var values: [StructDecl.Field] = []
            for (position, value) in item.values.enumerated() {
                let what = "value \(position + 1) of case '\(item.name.value)' of \(ast.name.value)"
                if let label = value.label {
                    // `_1` at position 1 is the key Codable gives an unlabeled value there: it would be
                    // written unlabeled, which stores the same but reads differently in Swift.
                    if label.value == "_\(position)" {
                        diagnostics.append(
                            .error(
                                .reservedName,
                                "the label '\(label.value)' is the key Swift's Codable gives the unlabeled value at "
                                    + "that position; leave the value unlabeled (it is stored the same)",
                                at: label.location))
                        continue
                    }
                    if let first = labels[label.value] {
                        diagnostics.append(
                            .error(
                                .duplicateName,
                                "the label '\(label.value)' appears twice in case '\(item.name.value)' of "
                                    + "\(ast.name.value)",
                                at: label.location, notes: [.init("first here", at: first)]))
                        continue
                    }
                    labels[label.value] = label.location
                }
                if let field = valueField(
                    value.label?.value ?? "_\(position)", value.type, structNames: structNames, what: what,
                    holder: "associated values")
                {
                    values.append(field)
                }
            }
            decl.cases[index].values = values
        }
    }
}
