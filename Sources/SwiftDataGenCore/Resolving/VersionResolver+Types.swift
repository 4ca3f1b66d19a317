import SwiftDataGenDSL

/// The types a version declares beside its models: Codable structs, enums, and the names they take.
extension VersionResolver {
    /// A struct's fields: scalars and enums of the version, optional or arrays.
    /// A struct that holds itself other than through an array has no finite size: Swift refuses
    /// it ("value type has infinite size").
    mutating func checkStructsDoNotHoldThemselves(_ decls: [StructDecl]) {
        for decl in decls {
            var reached: Set<String> = []
            var pending = [decl.name]
            while let name = pending.popLast() {
                for field in structs[name]?.fields ?? [] where !field.isArray {
                    guard case .composite(let held) = field.type, reached.insert(held).inserted else { continue }
                    pending.append(held)
                }
            }
            if reached.contains(decl.name) {
                diagnostics.append(
                    .error(
                        .invalidTypeSpelling,
                        "struct \(decl.name) holds itself through its fields, which no value type can; hold it in "
                            + "an array ([\(decl.name)]) or make it a model",
                        at: decl.location))
            }
        }
    }

    mutating func resolveStruct(_ ast: StructAST, structNames: Set<String>) -> StructDecl {
        var fields: [StructDecl.Field] = []
        var seen: Set<String> = []
        for field in ast.fields {
            let spelling = field.type.value
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
            if spelling.dictionaryKey != nil {
                diagnostics.append(
                    .error(
                        .invalidTypeSpelling,
                        "field '\(field.name.value)' of struct \(ast.name.value) is a dictionary; a struct's fields "
                            + "are value types, enums or structs of this version, optional or arrays",
                        at: field.type.location))
            } else if let scalar = ScalarType(rawValue: spelling.name) ?? ScalarType.spellings[spelling.name] {
                let written = ScalarType(rawValue: spelling.name) == nil ? spelling.name : nil
                fields.append(
                    .init(
                        name: field.name.value, type: .scalar(scalar), isOptional: spelling.isOptional,
                        isArray: spelling.isArray, spelling: written))
            } else if let decl = enums[spelling.name] {
                fields.append(
                    .init(
                        name: field.name.value,
                        type: .enumeration(name: decl.name, rawType: decl.rawType, storage: .value),
                        isOptional: spelling.isOptional,
                        isArray: spelling.isArray, spelling: nil))
            } else if structNames.contains(spelling.name) {
                fields.append(
                    .init(
                        name: field.name.value, type: .composite(name: spelling.name), isOptional: spelling.isOptional,
                        isArray: spelling.isArray, spelling: nil))
            } else {
                diagnostics.append(
                    .error(
                        .unknownType,
                        "field '\(field.name.value)' of struct \(ast.name.value) has type '\(spelling.name)'; a "
                            + "struct's fields are value types, enums or structs of this version",
                        at: field.type.location))
            }
        }
        return StructDecl(name: ast.name.value, fields: fields, location: ast.name.location)
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
}
