/// One object per model of a version, made with values that no default would leave: what its
/// initializer needs, then every other stored attribute set explicitly. A text that the next step
/// converts into a number, a Bool or an enum holds one that converts (so the check means something).
struct SampleRows {
    /// Sample values chosen when the test runs, declared before the old store is written, so
    /// the expectations after the upgrade can name them.
    var seeds: [String] = []
    var statements: [String] = []
    /// Objects inserted per model.
    var counts: [String: Int] = [:]
    /// The variable holding each model's object.
    var variables: [String: String] = [:]
    /// `Model.property` → the value the store holds, as a Swift literal of the stored type.
    var storedValues: [String: String] = [:]
    /// `Model.property` → the struct its stored value builds, for values that build one.
    var storedStructs: [String: StructLiteral] = [:]
    /// `Model.property` of the relationships the samples set to each other (optional to-ones and
    /// to-manys), and of their inverses, which SwiftData sets with them.
    var relationships: Set<String> = []

    /// `deduplications` are those of the step right after `version`: each model they name gets a
    /// second object equal to the first but for the order key, placed so the first must survive.
    init(
        version: SchemaVersion, next: SchemaVersion?, latest: SchemaVersion?,
        deduplications: [MigrationPlan.Deduplication], schemaName: String,
        names: GeneratedNames
    ) {
        var remaining = version.models.filter { model in
            !version.models.contains { $0.superclass == model.name } && model.superclass == nil
        }
        var position = 0
        // Models whose required to-one relationships point at models already made go first.
        while !remaining.isEmpty {
            guard
                let index = remaining.firstIndex(where: { model in
                    model.properties.allSatisfy { property in
                        guard let r = property.relationship, !r.isToMany, !property.isOptional else { return true }
                        return variables[r.target] != nil
                    }
                })
            else { break }
            let model = remaining.remove(at: index)
            let variable = SwiftLiteral.lowerFirst(model.name) + "Sample"
            let nextModel = next?.models.first { SchemaDiff.counterpart(of: $0, in: version)?.name == model.name }
            var arguments: [String] = []
            var assignments: [String] = []
            for property in model.properties where property.isStored {
                if let r = property.relationship {
                    if !r.isToMany && property.defaultValue == nil {
                        arguments.append(
                            "\(property.name): \(property.isOptional ? "nil" : variables[r.target] ?? "nil")")
                    }
                    continue
                }
                position += 1
                let target = nextModel?.properties.first { $0.conversion?.sourceProperty == property.name }
                var seed = Seed(
                    property, model: model.name, position: position, in: version, schemaName: schemaName,
                    convertedInto: target, next: next, latest: latest)
                if let target, let nextModel, let next,
                    let chosen = Self.seedTellingTheConversion(
                        property, model: model.name, seed: seed, into: target, of: nextModel,
                        bridge: names.bridge(into: next.version), next: next)
                {
                    seeds += chosen.statements
                    seed.typed = chosen.name
                    seed.stored = chosen.name
                }
                if property.defaultValue == nil {
                    arguments.append("\(property.name): \(seed.typed)")
                } else if let write = property.upgradeTestWrite(seed, naming: names.naming) {
                    assignments.append("\(variable).\(write)")
                } else {
                    continue
                }
                if seed.isFollowed {
                    storedValues["\(model.name).\(property.name)"] = seed.stored
                    storedStructs["\(model.name).\(property.name)"] = seed.structLiteral
                }
            }
            statements.append("let \(variable) = \(schemaName).\(model.name)(\(arguments.joined(separator: ", ")))")
            statements += assignments
            statements.append("context.insert(\(variable))")
            variables[model.name] = variable
            counts[model.name] = 1
            if let dedupe = deduplications.first(where: { $0.model == model.name }),
                let orderBy = model.property(named: dedupe.orderBy),
                case .attribute(.scalar(let scalar), false) = orderBy.kind,
                let twins = Self.twinsForKeysAlreadyUnique(
                    model, in: version, nextModel: nextModel, next: next, names: names)
            {
                // The duplicate repeats every value, so it repeats every key; only its order differs.
                // A key the old version already holds unique can repeat only once converted: the
                // duplicate holds another text that converts to the same value, if one is found.
                let duplicate = SwiftLiteral.lowerFirst(model.name) + "Duplicate"
                let beyond = Seed.ordered(scalar, before: dedupe.keepLast)
                seeds += twins.compactMap(\.declaration)
                statements.append(
                    "let \(duplicate) = \(schemaName).\(model.name)(\(arguments.joined(separator: ", ")))")
                statements += assignments.map {
                    $0.hasPrefix(variable + ".") ? duplicate + $0.dropFirst(variable.count) : $0
                }
                statements += twins.map { "\(duplicate).\($0.property) = \($0.name)" }
                statements.append("\(duplicate).\(orderBy.name) = \(beyond)")
                // Where no second text converts alike, the duplicate stays out of the old store.
                let found = twins.compactMap { twin in twin.seed.map { "\(twin.name) != \($0)" } }.joined(
                    separator: " && ")
                statements.append(
                    found.isEmpty ? "context.insert(\(duplicate))" : "if \(found) { context.insert(\(duplicate)) }")
            }
        }
        // Optional to-one and to-many relationships point at the other samples, so the test can
        // check that they survive at both ends; a pair is set from one side: the to-one of a
        // one-to-many, else the side that declares the inverse.
        for model in version.models {
            guard let source = variables[model.name] else { continue }
            for property in model.properties where property.isStored {
                guard let r = property.relationship, r.isToMany || property.isOptional,
                    let target = variables[r.target]
                else { continue }
                let inverse = r.inverse.flatMap { version.model(named: r.target)?.property(named: $0)?.relationship }
                if let inverse {
                    if r.isToMany && !inverse.isToMany { continue }
                    if r.isToMany == inverse.isToMany && !r.declaresInverse { continue }
                }
                statements.append("\(source).\(property.name) = \(r.isToMany ? "[\(target)]" : target)")
                relationships.insert("\(model.name).\(property.name)")
                if let name = r.inverse, inverse != nil { relationships.insert("\(r.target).\(name)") }
            }
        }
    }
}

extension SampleRows {
    /// What the duplicate of a de-duplication sample changes so the old store accepts it: each
    /// key the old version already holds unique must differ there. One the next step converts
    /// from text gets a second text, chosen when the test runs, that converts to what the seed
    /// converts to (so the rows still collide once converted); any other gets another value. Nil
    /// where no such value can be written.
    static func twinsForKeysAlreadyUnique(
        _ model: ModelDecl, in version: SchemaVersion, nextModel: ModelDecl?, next: SchemaVersion?,
        names: GeneratedNames
    ) -> [(property: String, name: String, seed: String?, declaration: String?)]? {
        let diff = SchemaDiff(naming: names.naming)
        let uniqueStored = Set(diff.uniqueGroups(model).joined())
        var twins: [(property: String, name: String, seed: String?, declaration: String?)] = []
        for property in model.properties where property.isStored && uniqueStored.contains(diff.storedName(property)) {
            let target = nextModel?.properties.first { $0.conversion?.sourceProperty == property.name }
            switch (property.kind, target, nextModel, next) {
            case (.attribute(.scalar(.string), false), let target?, let nextModel?, let next?):
                let seed = SwiftLiteral.lowerFirst(model.name) + SwiftLiteral.upperFirst(property.name) + "Seed"
                let name = SwiftLiteral.lowerFirst(model.name) + SwiftLiteral.upperFirst(property.name) + "Twin"
                let helper = UpgradeChain.helperName(
                    model: nextModel.name, target: target.name, bridge: names.bridge(into: next.version))
                let candidates = [
                    "\(seed) + \" \"", "\" \" + \(seed)", "\"0\" + \(seed)", "\"+\" + \(seed)", "\(seed).uppercased()",
                    "\(seed).lowercased()",
                ]
                twins.append(
                    (
                        property.name, name, seed,
                        "let \(name): String = [\(candidates.joined(separator: ", "))].first { $0 != \(seed) && "
                            + "\(helper)($0) == \(helper)(\(seed)) } ?? \(seed)"
                    ))
            case (.attribute(.scalar(.string), false), nil, _, _):
                twins.append((property.name, SwiftLiteral.string("\(model.name).\(property.name) twin"), nil, nil))
            case (.attribute(.scalar(.uuid), false), nil, _, _):
                twins.append((property.name, "UUID()", nil, nil))
            case (.attribute(.scalar(let scalar), false), nil, _, _) where scalar.isInteger:
                twins.append((property.name, "99", nil, nil))
            default:
                return nil
            }
        }
        return twins
    }

    /// For a value the next step converts, a sample chosen when the test runs: the first of a
    /// few candidates that the plan's own conversion turns into something a lost conversion would
    /// not leave (the target's default, or nil), so that a plan without the conversion fails the
    /// test. Both values of a Bool are candidates; where none differs, the test says so and fails.
    static func seedTellingTheConversion(
        _ property: Property, model: String, seed: Seed, into target: Property, of nextModel: ModelDecl, bridge: String,
        next: SchemaVersion
    ) -> (name: String, statements: [String])? {
        guard target.conversion?.matchKey == nil, target.relationship == nil,
            case .attribute(.scalar(let scalar), false) = property.kind
        else { return nil }
        var candidates = [seed.typed]
        switch scalar {
        case .bool: candidates += ["true", "false"]
        case .string:
            // Text the conversion itself compares with (`$0 == "gold"`, `$0.hasPrefix("!")`),
            // alone and in front of the sample.
            for literal in Self.stringLiterals(in: target.conversion?.expression ?? "") {
                candidates += [literal, literal.dropLast() + "sample\""]
            }
            // Text often holds an enum's case names or raw values.
            if case .attribute(.enumeration(let name, let rawType, _), false) = target.kind {
                let cases = next.enumeration(named: name)?.cases ?? []
                candidates += cases.map { SwiftLiteral.string($0.name) }
                if rawType == .string {
                    candidates += cases.compactMap { $0.rawValue.map { SwiftLiteral.value($0, enumType: nil) } }
                }
            }
            candidates += ["\"1\"", "\"0\"", "\"true\"", "\"false\"", "\"yes\"", "\"no\"", "\"on\"", "\"off\"", "\"\""]
        case _ where scalar.isInteger: candidates += ["0", "1", "-1"]
        case .double, .float: candidates += ["0", "1", "-1"]
        default: return nil
        }
        var unique: [String] = []
        for candidate in candidates where !unique.contains(candidate) { unique.append(candidate) }
        let lost = Self.lostValue(of: target, in: next)
        let helper = UpgradeChain.helperName(model: nextModel.name, target: target.name, bridge: bridge)
        let name = SwiftLiteral.lowerFirst(model) + SwiftLiteral.upperFirst(property.name) + "Seed"
        let type = SchemaDiff.typeDescription(property)
        let what = SwiftLiteral.string(
            "every sample of \(model).\(property.name) converts to what a lost conversion into "
                + "\(nextModel.name).\(target.name) leaves, so this test could not tell; give the conversion another "
                + "case"
        )
        return (
            name,
            [
                "let \(name): \(type) = [\(unique.joined(separator: ", "))].first { (\(helper)($0) ?? nil) != "
                    + "\(lost) } ?? \(seed.typed)",
                "#expect((\(helper)(\(name)) ?? nil) != \(lost), \(what))",
            ]
        )
    }

    /// The string literals of a Swift expression, as written (quotes and escapes included).
    static func stringLiterals(in expression: String) -> [String] {
        expression.matches(of: /"(?:[^"\\\n]|\\.)*"/).map { String($0.output) }
    }

    /// What the converted property holds, in stored form, when the conversion does not run: its
    /// literal default (an enum's raw value), else nil.
    static func lostValue(of target: Property, in version: SchemaVersion) -> String {
        guard case .literal(let literal)? = target.defaultValue else { return "nil" }
        guard case .enumCase(let name) = literal else { return SwiftLiteral.value(literal, enumType: nil) }
        guard case .attribute(.enumeration(let type, _, _), false) = target.kind,
            let raw = version.enumeration(named: type)?.cases.first(where: { $0.name == name })?.rawValue
        else { return "nil" }
        return SwiftLiteral.value(raw, enumType: nil)
    }
}

/// A seeded struct value, written in the types of whichever schema names it: the old version's
/// for the initializer, the latest's (unqualified) for the check, a bridge's for a conversion.
struct StructLiteral {
    var name: String
    var arguments: String
    var isArray: Bool
    /// The key of a `[String: Struct]` dictionary holding the one value.
    var dictionaryKey: String?

    func written(in namespace: String?) -> String {
        let value = "\(namespace.map { "\($0)." } ?? "")\(name)(\(arguments))"
        if let dictionaryKey { return "[\"\(dictionaryKey)\": \(value)]" }
        return isArray ? "[\(value)]" : value
    }
}

/// A sample value for one stored attribute, as the initializer takes it and as the store holds it
/// (for an enum, its raw value, however the enum is stored).
struct Seed {
    var typed: String
    var stored: String
    /// False where the latest version cannot spell the stored value (a struct that changed).
    var isFollowed = true
    /// The struct `stored` builds, for a value that is one.
    var structLiteral: StructLiteral?

    init(
        _ property: Property, model: String, position: Int, in version: SchemaVersion, schemaName: String,
        convertedInto target: Property?,
        next: SchemaVersion?, latest: SchemaVersion?
    ) {
        guard case .attribute(let type, let isArray) = property.kind else {
            typed = "nil"
            stored = "nil"
            return
        }
        let defaultLiteral: LiteralValue? =
            if case .literal(let literal) = property.defaultValue { literal } else { nil }
        switch type {
        case .enumeration(let name, _, _):
            let cases = version.enumeration(named: name)?.cases ?? []
            let avoided: String? = if case .enumCase(let caseName)? = defaultLiteral { caseName } else { nil }
            // A case the latest version still has: a removed one is the team's hooks to map.
            // What is stored: the raw value, or for an enum without one its case name and values.
            func storedForm(_ item: EnumDecl.Case) -> LiteralValue { item.rawValue ?? .string(item.signature) }
            let kept = (latest?.enumeration(named: name)?.cases ?? cases).map(storedForm)
            let candidates = cases.filter { $0.name != avoided && kept.contains(storedForm($0)) }
            // A case with values, where there is one, so that the test follows them too.
            let chosen =
                candidates.first { !$0.values.isEmpty } ?? candidates.first ?? cases.first { $0.name != avoided }
                ?? cases.first
            var holding: Set<String> = []
            let literal = chosen.map {
                Self.caseLiteral(
                    $0, of: name, in: version, model: model, path: property.name, position: position,
                    holding: &holding)
            }
            let single = "\(schemaName).\(name)" + (literal ?? ".")
            typed = isArray ? "[\(single)]" : single
            // A value with associated values is compared by its description, as the test reads it.
            let raw =
                chosen.map {
                    $0.values.isEmpty
                        ? SwiftLiteral.value(storedForm($0), enumType: nil) : "\"\\(\(single))\""
                } ?? "0"
            stored = isArray ? "[\(raw)]" : raw
        case .composite(let name):
            // Every field seeded; followed to the latest version only while the struct is unchanged.
            var holding: Set<String> = []
            let arguments = Self.compositeArguments(
                name, in: version, model: model, path: property.name, position: position, holding: &holding)
            let literal = StructLiteral(name: name, arguments: arguments, isArray: isArray)
            (typed, stored, structLiteral) = (literal.written(in: schemaName), literal.written(in: nil), literal)
            isFollowed = latest?.compositeSignature(of: name) == version.compositeSignature(of: name)
        case .dictionary(_, let name):
            var holding: Set<String> = []
            let arguments = Self.compositeArguments(
                name, in: version, model: model, path: property.name, position: position, holding: &holding)
            let literal = StructLiteral(name: name, arguments: arguments, isArray: false, dictionaryKey: property.name)
            (typed, stored, structLiteral) = (literal.written(in: schemaName), literal.written(in: nil), literal)
            isFollowed = latest?.compositeSignature(of: name) == version.compositeSignature(of: name)
        case .scalar(let scalar):
            var single = Self.scalar(
                scalar, model: model, property: property.name, position: position, avoiding: defaultLiteral)
            if scalar == .string, !isArray, let target, let hint = Self.convertible(into: target, next: next) {
                single = hint
            }
            typed = isArray ? "[\(single)]" : single
            stored = typed
        }
    }

    /// The initializer arguments of a seeded struct: every field set, a struct inside as
    /// `.init(…)`, and an array of a struct already being built left empty (it holds itself).
    static func compositeArguments(
        _ name: String, in version: SchemaVersion, model: String, path: String, position: Int,
        holding: inout Set<String>
    ) -> String {
        holding.insert(name)
        defer { holding.remove(name) }
        let fields = version.structure(named: name)?.fields ?? []
        return fields.enumerated().map { index, field -> String in
            "\(Identifier.escaped(field.name)): "
                + heldValue(
                    field, in: version, model: model, path: path, position: position * 10 + index, holding: &holding)
        }.joined(separator: ", ")
    }

    /// A value for one field of a seeded struct or one associated value of a seeded enum case;
    /// a type already being built (it holds itself through an array) is left empty.
    static func heldValue(
        _ field: StructDecl.Field, in version: SchemaVersion, model: String, path: String, position: Int,
        holding: inout Set<String>
    ) -> String {
        let value: String
        switch field.type {
        case .scalar(let scalar):
            value = Self.scalar(
                scalar, model: model, property: "\(path).\(field.name)", position: position, avoiding: nil)
        case .dictionary:
            return "[:]"
        case .composite(let held) where holding.contains(held),
            .enumeration(let held, _, _) where holding.contains(held):
            return field.isArray ? "[]" : "nil"
        case .enumeration(let enumName, _, _):
            value =
                version.enumeration(named: enumName)?.cases.last.map {
                    caseLiteral(
                        $0, of: enumName, in: version, model: model, path: "\(path).\(field.name)", position: position,
                        holding: &holding)
                } ?? "."
        case .composite(let held):
            value =
                ".init("
                + compositeArguments(
                    held, in: version, model: model, path: "\(path).\(field.name)", position: position,
                    holding: &holding) + ")"
        }
        return field.isArray ? "[\(value)]" : value
    }

    /// `.every(days: 3)`: a case with every associated value seeded; `.never` for one without.
    static func caseLiteral(
        _ item: EnumDecl.Case, of enumName: String, in version: SchemaVersion, model: String, path: String,
        position: Int, holding: inout Set<String>
    ) -> String {
        guard !item.values.isEmpty else { return "." + item.name }
        holding.insert(enumName)
        defer { holding.remove(enumName) }
        let arguments = item.values.indices.map { index in
            let value = heldValue(
                item.values[index], in: version, model: model, path: "\(path).\(item.name)",
                position: position * 10 + index, holding: &holding)
            return item.isUnlabeled(index) ? value : "\(Identifier.escaped(item.values[index].name)): \(value)"
        }
        return ".\(item.name)(\(arguments.joined(separator: ", ")))"
    }

    /// A value of a sortable type that sorts before (or after) every seed.
    static func ordered(_ scalar: ScalarType, before: Bool) -> String {
        switch scalar {
        case .string: return before ? "\"0\"" : "\"~\""
        case .date: return "Date(timeIntervalSince1970: \(before ? -86_400 : 4_000_000_000))"
        case .uuid:
            return before
                ? "UUID(uuidString: \"00000000-0000-0000-0000-000000000000\")!"
                : "UUID(uuidString: \"FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF\")!"
        case .decimal: return before ? "Decimal(string: \"-1\")!" : "Decimal(string: \"99999\")!"
        case .double, .float: return before ? "-1.5" : "99999.5"
        case .uint, .uint8, .uint16, .uint32, .uint64: return before ? "0" : "250"
        default: return before ? "-1" : "120"
        }
    }

    /// Text the next step's conversion turns into something other than a fallback: a number, a
    /// Bool, or the raw value of an enum case other than the default.
    private static func convertible(into target: Property, next: SchemaVersion?) -> String? {
        switch target.kind {
        case .attribute(.scalar(let scalar), false) where scalar.isInteger: return "\"42\""
        case .attribute(.scalar(let scalar), false) where scalar.isFloatingPoint: return "\"42.5\""
        case .attribute(.scalar(.bool), false): return "\"true\""
        case .attribute(.enumeration(let name, .string, _), false):
            let avoided: String? =
                if case .literal(.enumCase(let caseName))? = target.defaultValue { caseName } else { nil }
            guard let chosen = next?.enumeration(named: name)?.cases.last(where: { $0.name != avoided }) else {
                return nil
            }
            return chosen.rawValue.map { SwiftLiteral.value($0, enumType: nil) }
        default: return nil
        }
    }

    private static func scalar(
        _ scalar: ScalarType, model: String, property: String, position: Int, avoiding literal: LiteralValue?
    ) -> String {
        switch scalar {
        case .string:
            return SwiftLiteral.string("\(model).\(property) sample")
        case .bool:
            return literal == .bool(true) ? "false" : "true"
        case .double, .float, .decimal:
            var number = 40 + position
            if case .float(let text)? = literal, Double(text) == Double(number) + 0.5 { number += 1 }
            if case .integer(let text)? = literal, Double(text) == Double(number) + 0.5 { number += 1 }
            return scalar == .decimal ? "Decimal(string: \"\(number).5\")!" : "\(number).5"
        case .date:
            return "Date(timeIntervalSince1970: \(86_400 * (position + 1)))"
        case .data:
            return "Data([\(position % 250 + 1), 7, 9])"
        case .uuid:
            let hex = String(position, radix: 16)
            return
                "UUID(uuidString: "
                + "\"00000000-0000-0000-0000-\(String(repeating: "0", count: max(0, 12 - hex.count)) + hex)\")!"
        case .url:
            return "URL(string: \"https://example.com/\(model)/\(property)\")!"
        default:
            var number = 40 + position
            if case .integer(let text)? = literal, Int(text) == number { number += 1 }
            return "\(number)"
        }
    }
}
