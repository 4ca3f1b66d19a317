import SwiftDataGenDSL

/// An attribute's storage, expressions and options, checked against what SwiftData accepts.
extension VersionResolver {
    /// A stored property's column name must be one Core Data accepts.
    mutating func checkStoredName(of property: Property, _ ast: PropertyAST) {
        let name = ast.name
        let stored = config.naming.storedName(property)
        // `isDeleted: Bool` under its own name, which `acceptsName` let through with a warning.
        let meetsRequirement = meetsModelRequirement(ast) && stored == name.value
        if property.isStored, !meetsRequirement, let refusal = NamePosition.storedName.refusal(of: stored) {
            let fix =
                stored == name.value
                ? "keep the Swift name and store it under another with storedName:, or rename the property"
                : "choose another storedName"
            diagnostics.append(
                .error(
                    .reservedName, "'\(name.value)' would be stored as '\(stored)': \(refusal.reason); \(fix)",
                    at: ast.storedName?.location ?? name.location))
        }
    }

    /// `expression:` and `from.convert:` are raw Swift, each exactly one expression; an
    /// expression is the initial value, and a literal `default:` beside it is a conflict.
    mutating func resolveExpressions(_ ast: PropertyAST, into property: inout Property) {
        let name = ast.name
        // Most properties write neither: no list of the two is built for each of them.
        let expression = ast.expression
        let convert = ast.from?.convert
        if expression != nil || convert != nil {
            for (key, written) in [("expression", expression), ("from.convert", convert)] {
                guard let written, let problem = SwiftExpression.problem(in: written.value) else { continue }
                diagnostics.append(
                    .error(
                        .invalidSwiftExpression,
                        "\(key) of '\(name.value)' must be exactly one Swift expression, but \(problem)",
                        at: written.location))
            }
        }

        if let expression {
            property.defaultValue = .expression(expression.value)
            if let literal = ast.defaultValue {
                diagnostics.append(
                    .error(
                        .conflictingDefaults, "property '\(name.value)' has both default and expression; keep one",
                        at: literal.location, notes: [.init("expression is here", at: expression.location)]))
            }
        }
    }

    /// An attribute's literal default, checked against its type, and what `from:` and
    /// `transient:` require of it.
    mutating func resolveAttribute(
        _ ast: PropertyAST, valueType: ValueType, isArray: Bool, into property: inout Property
    ) {
        let name = ast.name
        if let match = ast.from?.match {
            diagnostics.append(
                .error(
                    .invalidValue, "from.match applies to relationships; '\(name.value)' is an attribute",
                    at: match.location))
        }
        if property.defaultValue == nil, let node = ast.defaultValue {
            switch DefaultValueResolver.resolve(
                node, type: valueType, isArray: isArray, isOptional: property.isOptional, enums: enums)
            {
            case .success(let value): property.defaultValue = .literal(value)
            case .failure(let diagnostic): diagnostics.append(diagnostic)
            }
        }
        if property.isTransient && property.defaultValue == nil && !property.isOptional {
            diagnostics.append(
                .error(
                    .transientNeedsDefault,
                    "@Transient property '\(name.value)' needs a default: it is not stored, so nothing else "
                        + "can give it a value",
                    at: ast.transient?.location ?? name.location))
        }
    }

    mutating func checkAttributeOptions(_ ast: PropertyAST, valueType: ValueType, isArray: Bool) {
        let name = ast.name.value
        for (key, location) in ast.writtenKeys(for: .relationship) {
            diagnostics.append(
                .error(
                    .relationshipOptionOnAttribute,
                    "'\(key.rawValue)' applies to relationships, but '\(name)' is an attribute of type "
                        + "\(ast.type.value); remove it or make the type a model",
                    at: location))
        }
        if let flag = ast.option(.externalStorage), valueType != .scalar(.data) || isArray {
            diagnostics.append(
                .error(
                    .externalStorageNeedsData,
                    "externalStorage applies only to Data properties; '\(name)' is \(ast.type.value)", at: flag.location
                ))
        }
        if let flag = ast.option(.codable) {
            switch valueType {
            case .composite, .dictionary: break
            case .scalar, .enumeration:
                diagnostics.append(
                    .error(
                        .codableNeedsStruct,
                        "codable applies to structs, arrays and dictionaries of structs; '\(name)' is "
                            + "\(ast.type.value), already stored as a column: remove it",
                        at: flag.location))
            }
            if !config.supportsCodable {
                diagnostics.append(
                    .error(
                        .codableNeedsNewerPlatform,
                        "@Attribute(.codable) needs \(config.describe(GeneratorConfig.codableReleases)); raise the "
                            + "platforms in the config or remove codable from '\(name)' to store it as a composite",
                        at: flag.location))
            }
        }
        if ast.transient?.value == true {
            var stored: [(String, SourceLocation)] = ast.flags.map { ($0.value.rawValue, $0.location) }
            if let u = ast.unique, u.value { stored.append(("unique", u.location)) }
            if let r = ast.renamedFrom { stored.append(("renamedFrom", r.location)) }
            if let t = ast.transformer { stored.append(("transformable", t.location)) }
            for (key, location) in stored {
                diagnostics.append(
                    .error(
                        .transientOption,
                        "'\(key)' describes stored data, but '\(name)' is transient and never stored; remove one "
                            + "of them",
                        at: location))
            }
        }
    }
}
