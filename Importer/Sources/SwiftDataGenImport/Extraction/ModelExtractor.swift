import SwiftDataGenDSL
import SwiftParser
import SwiftSyntax

/// Reads SwiftData declarations from parsed Swift: `VersionedSchema` enums (with their members,
/// also those added in extensions), the `@Model` classes and raw-value enums they hold, plain
/// `@Model` classes of an app that never versioned, and the migration plan. Everything else a
/// model declares becomes a note.
public enum ModelExtractor {
    public static func extract(_ sources: [SwiftSource]) -> ImportedProject {
        var scan = Scan()
        for source in sources {
            // The parser bounds nesting in brackets but not in generic arguments, and recurses
            // once per level: a file nested far deeper than any model needs is not parsed.
            if let line = deepGenericNesting(in: source.text) {
                scan.notes.append(
                    .init(
                        position: SourcePosition(file: source.path, line: line, column: 1),
                        message:
                            "generic types are nested more than \(maximumGenericNesting) levels deep here, which "
                            + "no model needs; the file is not read"
                    ))
                continue
            }
            let tree = Parser.parse(source: source.text)
            let converter = SourceLocationConverter(fileName: source.path, tree: tree)
            scan.collect(tree.statements.map(\.item), converter: converter)
        }
        return scan.project()
    }

    static let maximumGenericNesting = 256

    /// The line where `<` opened right after a name (`Array<`) nests beyond the maximum, or nil.
    /// A `<` after a space or an operator is a comparison, and every line starts afresh, so
    /// ordinary code never comes near the bound.
    static func deepGenericNesting(in text: String) -> Int? {
        var depth = 0
        var line = 1
        var previous: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\n"):
                depth = 0
                line += 1
            case UInt8(ascii: "<"):
                let afterName =
                    previous == UInt8(ascii: "_")
                    || (previous | 0x20) >= UInt8(ascii: "a") && (previous | 0x20) <= UInt8(ascii: "z")
                    || previous >= UInt8(ascii: "0") && previous <= UInt8(ascii: "9")
                if afterName {
                    depth += 1
                    if depth > maximumGenericNesting { return line }
                }
            case UInt8(ascii: ">"):
                depth = max(0, depth - 1)
            default:
                break
            }
            previous = byte
        }
        return nil
    }

    /// Attributes a model class may carry that add no stored member.
    static let attributesWithoutMembers: Set<String> = [
        "Model", "available", "MainActor", "preconcurrency", "objc", "frozen", "usableFromInline",
    ]

    /// Types the DSL stores as themselves; an alias of one is stored as it.
    static let valueTypes: Set<String> = [
        "String", "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Decimal", "Date", "Data", "UUID", "URL", "TimeInterval", "CGFloat",
    ]
}

/// A declaration with the file it came from, so positions can be reported.
private struct Located<Node: SyntaxProtocol> {
    var node: Node
    var converter: SourceLocationConverter

    func position(_ syntax: some SyntaxProtocol) -> SourcePosition {
        let location = syntax.startLocation(converter: converter)
        return SourcePosition(file: location.file, line: location.line, column: location.column)
    }
}

private struct Scan {
    /// `VersionedSchema` types: enums mostly, structs in some apps; only their members matter.
    var schemas: [(name: String, decl: Located<MemberBlockSyntax>, nameToken: TokenSyntax)] = []
    /// Members added to a type in extensions, by the extended type's name.
    var extensions: [String: [Located<MemberBlockItemSyntax>]] = [:]
    var topLevelModels: [Located<ClassDeclSyntax>] = []
    var topLevelEnums: [Located<EnumDeclSyntax>] = []
    var topLevelStructs: [Located<StructDeclSyntax>] = []
    var plans: [Located<EnumDeclSyntax>] = []
    /// Module-scope `typealias Name = Target`, as written: how apps name the current version's
    /// models (`Trip = SchemaV3.Trip`) and give value types their own names (`Code = String`).
    var aliases: [String: String] = [:]
    var notes: [ImportNote] = []

    mutating func collect(_ items: [CodeBlockItemSyntax.Item], converter: SourceLocationConverter) {
        for item in items {
            guard case .decl(let decl) = item else { continue }
            if let conditional = decl.as(IfConfigDeclSyntax.self) {
                // The first branch is taken to hold; the others are said, never silently lost.
                guard let first = conditional.clauses.first, case .statements(let inner)? = first.elements else {
                    continue
                }
                let start = conditional.startLocation(converter: converter)
                notes.append(
                    .init(
                        position: SourcePosition(file: start.file, line: start.line, column: start.column),
                        message:
                            "declarations inside \(first.poundKeyword.text) "
                            + "\(first.condition?.trimmedDescription ?? "") are imported as if it "
                            + "holds\(conditional.clauses.count > 1 ? "; its other branches are not imported" : "")"
                    ))
                collect(inner.map(\.item), converter: converter)
                continue
            }
            if let enumDecl = decl.as(EnumDeclSyntax.self) {
                let inherited = Self.inheritedNames(enumDecl.inheritanceClause)
                if inherited.contains("VersionedSchema") {
                    schemas.append(
                        (enumDecl.name.text, Located(node: enumDecl.memberBlock, converter: converter), enumDecl.name))
                } else if inherited.contains("SchemaMigrationPlan") {
                    plans.append(Located(node: enumDecl, converter: converter))
                } else {
                    topLevelEnums.append(Located(node: enumDecl, converter: converter))
                }
            } else if let classDecl = decl.as(ClassDeclSyntax.self), Self.hasAttribute(classDecl.attributes, "Model") {
                topLevelModels.append(Located(node: classDecl, converter: converter))
            } else if let structDecl = decl.as(StructDeclSyntax.self),
                Self.inheritedNames(structDecl.inheritanceClause).contains("VersionedSchema")
            {
                schemas.append(
                    (structDecl.name.text, Located(node: structDecl.memberBlock, converter: converter), structDecl.name)
                )
            } else if let structDecl = decl.as(StructDeclSyntax.self),
                Self.inheritedNames(structDecl.inheritanceClause).contains("Codable")
            {
                topLevelStructs.append(Located(node: structDecl, converter: converter))
            } else if let extensionDecl = decl.as(ExtensionDeclSyntax.self) {
                // Keyed as written: `SchemaV1` or `SchemaV1.Trip`.
                let name = extensionDecl.extendedType.trimmedDescription
                extensions[name, default: []] += extensionDecl.memberBlock.members.map {
                    Located(node: $0, converter: converter)
                }
                collectNamespaced(extensionDecl.memberBlock, converter: converter)
            } else if let alias = decl.as(TypeAliasDeclSyntax.self) {
                aliases[alias.name.text] = alias.initializer.value.trimmedDescription
            }
            if let namespace = decl.as(EnumDeclSyntax.self),
                !Self.inheritedNames(namespace.inheritanceClause).contains("VersionedSchema")
            {
                collectNamespaced(namespace.memberBlock, converter: converter)
            } else if let namespace = decl.as(StructDeclSyntax.self),
                !Self.inheritedNames(namespace.inheritanceClause).contains("VersionedSchema")
            {
                collectNamespaced(namespace.memberBlock, converter: converter)
            }
        }
    }

    /// `@Model` classes an app keeps in a namespace of their own (`enum TripV1 { @Model class
    /// Trip }`, listed as `TripV1.Trip.self`): shared models, found by their own name.
    private mutating func collectNamespaced(_ block: MemberBlockSyntax, converter: SourceLocationConverter) {
        for member in block.members {
            if let classDecl = member.decl.as(ClassDeclSyntax.self), Self.hasAttribute(classDecl.attributes, "Model") {
                topLevelModels.append(Located(node: classDecl, converter: converter))
            } else if let nested = member.decl.as(EnumDeclSyntax.self),
                !Self.inheritedNames(nested.inheritanceClause).contains("VersionedSchema")
            {
                collectNamespaced(nested.memberBlock, converter: converter)
            } else if let nested = member.decl.as(StructDeclSyntax.self) {
                collectNamespaced(nested.memberBlock, converter: converter)
            }
        }
    }

    /// One model per name, the first met: SwiftData names an entity after its class, so a second
    /// class of one name (a stale copy in another file) is said, not imported.
    mutating func firstOfEachName(_ models: [ImportedModel]) -> [ImportedModel] {
        var seen: [String: SourcePosition] = [:]
        return models.filter { model in
            if let first = seen[model.name] {
                notes.append(
                    .init(
                        position: model.location,
                        message:
                            "\(model.name) is declared again here; only the one at \(first) is imported (two "
                            + "classes cannot share an entity name)"
                    ))
                return false
            }
            seen[model.name] = model.location
            return true
        }
    }

    /// Members with each `#if` replaced by its first branch's members, said in a note.
    mutating func flattened(_ members: [Located<MemberBlockItemSyntax>]) -> [Located<MemberBlockItemSyntax>] {
        members.flatMap { member -> [Located<MemberBlockItemSyntax>] in
            guard let conditional = member.node.decl.as(IfConfigDeclSyntax.self) else { return [member] }
            guard let first = conditional.clauses.first, case .decls(let inner)? = first.elements else { return [] }
            notes.append(
                .init(
                    position: member.position(conditional),
                    message:
                        "members inside \(first.poundKeyword.text) \(first.condition?.trimmedDescription ?? "") "
                        + "are imported as if it "
                        + "holds\(conditional.clauses.count > 1 ? "; its other branches are not imported" : "")"
                ))
            return flattened(inner.map { Located(node: $0, converter: member.converter) })
        }
    }

    mutating func project() -> ImportedProject {
        var versions: [ImportedVersion] = []
        let sharedEnums = topLevelEnums.compactMap { enumeration($0) }
        let sharedStructs = topLevelStructs.map { structure($0) }
        for (name, located, nameToken) in schemas {
            let members = flattened(
                located.node.members.map { Located(node: $0, converter: located.converter) } + (extensions[name] ?? []))
            var imported = version(
                named: name, members: members, at: located.position(nameToken), sharedEnums: sharedEnums)
            for shared in sharedStructs where !imported.structs.contains(where: { $0.name == shared.name }) {
                imported.structs.append(shared)
            }
            versions.append(imported)
        }
        var unversioned: ImportedVersion?
        let modelsInSchemas = Set(versions.flatMap { $0.models.map(\.name) })
        let looseModels = topLevelModels.filter { !modelsInSchemas.contains($0.node.name.text) }
        if !looseModels.isEmpty, let first = looseModels.first {
            var enums = sharedEnums
            var structs = sharedStructs
            var models: [ImportedModel] = []
            for located in looseModels {
                let members =
                    located.node.memberBlock.members.map { Located(node: $0, converter: located.converter) }
                    + (extensions[located.node.name.text] ?? [])
                models.append(model(located, members: members, hoisting: &enums, structs: &structs))
            }
            unversioned = ImportedVersion(
                typeName: nil, version: nil, enums: enums, structs: structs, models: firstOfEachName(models),
                location: first.position(first.node.name))
        }
        var planName: String?
        for plan in plans {
            planName = planName ?? plan.node.name.text
            noteStages(of: plan)
        }
        return ImportedProject(versions: versions, migrationPlan: planName, unversioned: unversioned, notes: notes)
    }

    private mutating func version(
        named name: String, members: [Located<MemberBlockItemSyntax>], at position: SourcePosition,
        sharedEnums: [ImportedEnum]
    ) -> ImportedVersion {
        var number: (Int, Int, Int)?
        var listed: [String] = []
        var enums: [ImportedEnum] = []
        var structs: [ImportedStruct] = []
        var models: [ImportedModel] = []
        for member in members {
            let decl = member.node.decl
            if let variable = decl.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
                let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            {
                if identifier == "versionIdentifier" {
                    number = Self.versionNumber(in: Syntax(binding))
                    if number == nil {
                        notes.append(
                            .init(
                                position: member.position(binding),
                                message:
                                    "\(name).versionIdentifier is not Schema.Version(major, minor, patch) with "
                                    + "number literals; the version number is taken from the file order instead"
                            ))
                    }
                } else if identifier == "models" {
                    listed = Self.typeReferences(in: Syntax(binding))
                }
            } else if let classDecl = decl.as(ClassDeclSyntax.self), Self.hasAttribute(classDecl.attributes, "Model") {
                let located = Located(node: classDecl, converter: member.converter)
                let nested = extensions["\(name).\(classDecl.name.text)"] ?? []
                models.append(
                    model(
                        located,
                        members: classDecl.memberBlock.members.map { Located(node: $0, converter: member.converter) }
                            + nested, hoisting: &enums, structs: &structs))
            } else if let enumDecl = decl.as(EnumDeclSyntax.self) {
                if let imported = enumeration(Located(node: enumDecl, converter: member.converter)) {
                    enums.append(imported)
                }
            } else if let structDecl = decl.as(StructDeclSyntax.self),
                Self.inheritedNames(structDecl.inheritanceClause).contains("Codable")
            {
                structs.append(structure(Located(node: structDecl, converter: member.converter)))
            } else {
                noteMember(member, of: name)
            }
        }
        // A model the schema lists but declares elsewhere (shared by versions): each version gets its own copy.
        for modelName in listed where !models.contains(where: { $0.name == modelName }) {
            guard
                let shared = topLevelModels.first(where: { $0.node.name.text == modelName })
                    ?? modelOfAnotherSchema(aliasedAs: modelName)
            else {
                notes.append(
                    .init(
                        position: position,
                        message:
                            "\(name).models lists \(modelName), whose @Model class was not found in the files "
                            + "read; add its file"
                    ))
                continue
            }
            notes.append(
                .init(
                    position: shared.position(shared.node.name),
                    message:
                        "\(modelName) is declared outside \(name); the YAML gives every version its own copy, as "
                        + "SwiftData needs"
                ))
            for other in topLevelModels.filter({ $0.node.name.text == modelName }).dropFirst() {
                notes.append(
                    .init(
                        position: other.position(other.node.name),
                        message:
                            "\(modelName) is declared again here; only the one at "
                            + "\(shared.position(shared.node.name)) is imported (two classes cannot share an entity "
                            + "name)"
                    ))
            }
            let members =
                shared.node.memberBlock.members.map { Located(node: $0, converter: shared.converter) }
                + (extensions[modelName] ?? [])
            models.append(model(shared, members: members, hoisting: &enums, structs: &structs))
        }
        if !listed.isEmpty {
            for model in models where !listed.contains(model.name) {
                notes.append(
                    .init(
                        position: model.location,
                        message:
                            "\(model.name) is declared in \(name) but not listed in its models; it is imported, "
                            + "and the generated schema lists it"
                    ))
            }
        }
        for shared in sharedEnums where !enums.contains(where: { $0.name == shared.name }) { enums.append(shared) }
        return ImportedVersion(
            typeName: name, version: number, enums: enums, structs: structs, models: firstOfEachName(models),
            location: position)
    }

    /// A type named through module-scope aliases, as stored: `Code = String` is a String,
    /// `Subject = SubjectV2` the model, `Tags = [Tag]` an array of Tag. An alias of anything else
    /// (a dictionary, a generic) stays as written, and the translator says it cannot be stored.
    func resolvingAliases(_ name: String, isArray: Bool, note: (String) -> Void) -> (String, Bool) {
        var name = name
        var isArray = isArray
        var seen: Set<String> = []
        while let target = aliases[name], seen.insert(name).inserted {
            var inner = Substring(target)
            var wraps = false
            if inner.hasPrefix("["), inner.hasSuffix("]"), !isArray, !inner.contains(":") {
                inner = inner.dropFirst().dropLast()
                wraps = true
            }
            let parts = inner.split(separator: ".")
            guard !parts.isEmpty, parts.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }),
                let last = parts.last
            else { break }
            name = String(last)
            isArray = isArray || wraps
            if ModelExtractor.valueTypes.contains(name) || wraps { note(target) }
        }
        return (name, isArray)
    }

    /// Inside a `VersionedSchema`, a name the schema does not declare is found at module scope:
    /// `typealias Trip = SchemaV1.Trip` makes a later schema list version 1's class.
    private func modelOfAnotherSchema(aliasedAs name: String) -> Located<ClassDeclSyntax>? {
        guard let target = aliases[name] else { return nil }
        let parts = target.split(separator: ".").map(String.init)
        guard parts.count == 2, let schema = schemas.first(where: { $0.name == parts[0] }) else { return nil }
        for member in schema.decl.node.members {
            if let classDecl = member.decl.as(ClassDeclSyntax.self), classDecl.name.text == parts[1] {
                return Located(node: classDecl, converter: schema.decl.converter)
            }
        }
        for member in extensions[parts[0]] ?? [] {
            if let classDecl = member.node.decl.as(ClassDeclSyntax.self), classDecl.name.text == parts[1] {
                return Located(node: classDecl, converter: member.converter)
            }
        }
        return nil
    }

    private mutating func model(
        _ located: Located<ClassDeclSyntax>, members: [Located<MemberBlockItemSyntax>],
        hoisting enums: inout [ImportedEnum], structs: inout [ImportedStruct]
    ) -> ImportedModel {
        let decl = located.node
        let name = decl.name.text
        var result = ImportedModel(
            name: name, superclass: decl.inheritanceClause?.inheritedTypes.first.map { Self.lastComponent($0.type) },
            properties: [],
            uniqueGroups: [], indexGroups: [], doc: Self.doc(decl.leadingTrivia), location: located.position(decl.name))
        // A macro attached to the class may add stored members no source shows.
        for element in decl.attributes {
            guard case .attribute(let attribute) = element else { continue }
            let attributeName = Self.lastComponent(attribute.attributeName)
            guard !ModelExtractor.attributesWithoutMembers.contains(attributeName) else { continue }
            notes.append(
                .init(
                    position: located.position(attribute),
                    message:
                        "@\(attributeName) on \(name) may add stored members the importer cannot see; compare the "
                        + "generated schema with the app's before relying on it"
                ))
        }
        for member in flattened(members) {
            let item = member.node.decl
            if let variable = item.as(VariableDeclSyntax.self) {
                result.properties += properties(Located(node: variable, converter: member.converter), in: name)
            } else if let macro = item.as(MacroExpansionDeclSyntax.self),
                ["Unique", "Index"].contains(macro.macroName.text)
            {
                let groups = macro.arguments.map { Self.keyPaths(in: Syntax($0.expression)) }.filter { !$0.isEmpty }
                if macro.macroName.text == "Unique" {
                    result.uniqueGroups += groups
                } else {
                    result.indexGroups += groups
                }
            } else if let structDecl = item.as(StructDeclSyntax.self),
                Self.inheritedNames(structDecl.inheritanceClause).contains("Codable")
            {
                let imported = structure(Located(node: structDecl, converter: member.converter))
                if structs.contains(where: { $0.name == imported.name }) { continue }
                notes.append(
                    .init(
                        position: imported.location,
                        message:
                            "struct \(imported.name), nested in \(name), becomes a type of the schema version "
                            + "(\(name).\(imported.name) in app code becomes \(imported.name))"
                    ))
                structs.append(imported)
            } else if let enumDecl = item.as(EnumDeclSyntax.self) {
                guard let imported = enumeration(Located(node: enumDecl, converter: member.converter)) else { continue }
                if enums.contains(where: { $0.name == imported.name }) { continue }
                notes.append(
                    .init(
                        position: imported.location,
                        message:
                            "enum \(imported.name), nested in \(name), becomes a type of the schema version "
                            + "(\(name).\(imported.name) in app code becomes \(imported.name))"
                    ))
                enums.append(imported)
            } else {
                noteMember(member, of: name)
            }
        }
        return result
    }

    private mutating func properties(_ located: Located<VariableDeclSyntax>, in model: String) -> [ImportedProperty] {
        let variable = located.node
        let modifiers = variable.modifiers.map(\.name.text)
        if modifiers.contains("static") || modifiers.contains("class") {
            notes.append(
                .init(
                    position: located.position(variable),
                    message:
                        "static property of \(model) is not stored and is not carried; keep it in an extension of "
                        + "the current type"
                ))
            return []
        }
        var access = modifiers.first { ["private", "fileprivate", "internal", "package", "public"].contains($0) }
        if variable.modifiers.contains(where: { $0.detail != nil }) {
            notes.append(
                .init(
                    position: located.position(variable),
                    message:
                        "a setter access such as private(set) on \(model) is not carried; the generated property "
                        + "has one access level"
                ))
            access =
                variable.modifiers.first {
                    $0.detail == nil
                        && ["private", "fileprivate", "internal", "package", "public"].contains($0.name.text)
                }?.name.text
        }
        var result: [ImportedProperty] = []
        for binding in variable.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self).map({ Self.unescaped($0.identifier) })
            else {
                notes.append(
                    .init(
                        position: located.position(binding),
                        message: "a destructured property of \(model) is not carried; declare one property per line"))
                continue
            }
            if binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.hasPrefix("`") == true,
                binding.accessorBlock == nil
            {
                notes.append(
                    .init(
                        position: located.position(binding),
                        message:
                            "\(model).\(name) is named with a Swift keyword in backticks, which the DSL cannot "
                            + "give a stored property (README, Known limits); it is not carried, so the generated "
                            + "schema would not store it"
                    ))
                continue
            }
            if let accessors = binding.accessorBlock {
                let observers: Set<String> = ["willSet", "didSet"]
                var isComputed = true
                if case .accessors(let list) = accessors.accessors {
                    isComputed = !list.allSatisfy { observers.contains($0.accessorSpecifier.text) }
                }
                if isComputed {
                    notes.append(
                        .init(
                            position: located.position(binding),
                            message:
                                "computed property \(model).\(name) is not stored and is not carried; keep it in "
                                + "an extension of the current type"
                        ))
                    continue
                }
                notes.append(
                    .init(
                        position: located.position(binding),
                        message: "the willSet/didSet of \(model).\(name) are not carried"))
            }
            let type = binding.typeAnnotation.map(\.type) ?? Self.inferredType(of: binding.initializer?.value)
            guard let type, let spelled = Self.spelling(type) else {
                notes.append(
                    .init(
                        position: located.position(binding),
                        message:
                            "\(model).\(name) has no type the importer can read (write a type annotation such as "
                            + "String or [Stop]?); it is not carried"
                    ))
                continue
            }
            let (typeName, isArray) = resolvingAliases(
                spelled.name, isArray: spelled.isArray,
                note: { target in
                    notes.append(
                        .init(
                            position: located.position(binding),
                            message:
                                "\(model).\(name) is a \(spelled.name), an alias of \(target); the YAML says "
                                + "\(target), which stores the same"
                        ))
                })
            var property = ImportedProperty(
                name: name, typeName: typeName, isOptional: spelled.isOptional, isArray: isArray,
                defaultValue: binding.initializer.map { Self.defaultValue($0.value) }, access: access,
                doc: Self.doc(variable.leadingTrivia),
                location: located.position(binding))
            if variable.bindingSpecifier.tokenKind == .keyword(.let) {
                notes.append(
                    .init(
                        position: located.position(variable),
                        message:
                            "\(model).\(name) is a let; SwiftData stores it as any other property, and the "
                            + "generated one is a var"
                    ))
            }
            applyAttributes(variable.attributes, to: &property, located: located, model: model)
            result.append(property)
        }
        return result
    }

    private mutating func applyAttributes(
        _ attributes: AttributeListSyntax, to property: inout ImportedProperty, located: Located<VariableDeclSyntax>,
        model: String
    ) {
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            let name = Self.lastComponent(attribute.attributeName)
            let arguments: [LabeledExprSyntax] =
                if case .argumentList(let list) = attribute.arguments { Array(list) } else { [] }
            switch name {
            case "Transient":
                property.isTransient = true
            case "Attribute", "Relationship":
                for argument in arguments {
                    let label = argument.label?.text
                    let expression = argument.expression
                    switch label {
                    case "originalName": property.originalName = Self.stringLiteral(expression)
                    case "hashModifier": property.hashModifier = Self.stringLiteral(expression)
                    case "deleteRule":
                        property.deleteRule = expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                    case "minimumModelCount": property.minimumCount = Int(expression.trimmedDescription)
                    case "maximumModelCount": property.maximumCount = Int(expression.trimmedDescription)
                    case "inverse": property.inverse = Self.keyPaths(in: Syntax(expression)).first
                    case nil: applyOption(expression, to: &property, located: located, model: model)
                    default:
                        notes.append(
                            .init(
                                position: located.position(argument),
                                message:
                                    "argument \(label ?? "") of @\(name) on \(model).\(property.name) is not carried"))
                    }
                }
            default:
                notes.append(
                    .init(
                        position: located.position(attribute),
                        message: "attribute @\(name) on \(model).\(property.name) is not carried"))
            }
        }
    }

    private mutating func applyOption(
        _ expression: ExprSyntax, to property: inout ImportedProperty, located: Located<VariableDeclSyntax>,
        model: String
    ) {
        if let call = expression.as(FunctionCallExprSyntax.self),
            call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "transformable"
        {
            let argument = call.arguments.first?.expression
            property.transformer =
                argument.flatMap(Self.stringLiteral)
                ?? argument.flatMap { $0.as(MemberAccessExprSyntax.self)?.base.map(\.trimmedDescription) }
            return
        }
        guard let option = expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text else {
            notes.append(
                .init(
                    position: located.position(expression),
                    message: "option \(expression.trimmedDescription) on \(model).\(property.name) is not carried"))
            return
        }
        switch PropertyKey.allCases.first(where: { $0.attributeOption == option }) {
        case .unique?: property.isUnique = true
        case .some: property.flags.append(option)
        case nil:
            notes.append(
                .init(
                    position: located.position(expression),
                    message: "option .\(option) on \(model).\(property.name) is not carried"))
        }
    }

    /// A `Codable` struct's stored fields; anything else it declares is noted.
    private mutating func structure(_ located: Located<StructDeclSyntax>) -> ImportedStruct {
        let decl = located.node
        var fields: [ImportedStruct.Field] = []
        for member in decl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { $0.name.text == "static" })
            else {
                if !member.decl.is(InitializerDeclSyntax.self) {
                    noteMember(Located(node: member, converter: located.converter), of: decl.name.text)
                }
                continue
            }
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self).map({ Self.unescaped($0.identifier) })
                else { continue }
                if binding.accessorBlock != nil { continue }
                guard let type = binding.typeAnnotation?.type ?? Self.inferredType(of: binding.initializer?.value),
                    let spelled = Self.spelling(type)
                else {
                    notes.append(
                        .init(
                            position: located.position(binding),
                            message:
                                "field \(decl.name.text).\(name) has no type the importer can read; it is not carried"))
                    continue
                }
                fields.append(
                    .init(name: name, typeName: spelled.name, isOptional: spelled.isOptional, isArray: spelled.isArray))
            }
        }
        return ImportedStruct(name: decl.name.text, fields: fields, location: located.position(decl.name))
    }

    private mutating func enumeration(_ located: Located<EnumDeclSyntax>) -> ImportedEnum? {
        let decl = located.node
        let inherited = Self.inheritedNames(decl.inheritanceClause)
        guard let rawType = inherited.first(where: { ["String", "Int"].contains($0) }) else {
            if inherited.contains("Codable") {
                notes.append(
                    .init(
                        position: located.position(decl.name),
                        message:
                            "enum \(decl.name.text) has no String or Int raw type; the DSL cannot store it yet "
                            + "(give it raw values, or store its cases as text)"
                    ))
            }
            return nil
        }
        var cases: [(name: String, rawValue: String?)] = []
        for member in decl.memberBlock.members {
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                if element.parameterClause != nil {
                    notes.append(
                        .init(
                            position: located.position(element),
                            message:
                                "case \(decl.name.text).\(element.name.text) has associated values; it is not carried"))
                    continue
                }
                let raw = element.rawValue.map { Self.stringLiteral($0.value) ?? $0.value.trimmedDescription }
                cases.append((element.name.text, raw))
            }
        }
        return ImportedEnum(name: decl.name.text, rawType: rawType, cases: cases, location: located.position(decl.name))
    }

    private mutating func noteMember(_ member: Located<MemberBlockItemSyntax>, of owner: String) {
        let decl = member.node.decl
        let what: String
        if let function = decl.as(FunctionDeclSyntax.self) {
            what = "method \(function.name.text)(…)"
        } else if decl.is(InitializerDeclSyntax.self) {
            what = "init (the generated one takes every stored property without a default)"
        } else if let type = decl.asProtocol(NamedDeclSyntax.self) {
            what = "type \(type.name.text)"
        } else if decl.is(SubscriptDeclSyntax.self) {
            what = "subscript"
        } else if decl.is(DeinitializerDeclSyntax.self) {
            what = "deinit"
        } else {
            what = "declaration '\(decl.trimmedDescription.prefix(40))'"
        }
        notes.append(
            .init(
                position: member.position(decl),
                message: "\(what) of \(owner) is not carried; keep it in an extension of the current type"))
    }

    private mutating func noteStages(of plan: Located<EnumDeclSyntax>) {
        for member in plan.node.memberBlock.members {
            for call in member.decl.tokens(viewMode: .sourceAccurate)
            where call.text == "custom" && call.previousToken(viewMode: .sourceAccurate)?.text == "." {
                notes.append(
                    .init(
                        position: plan.position(call),
                        message:
                            "hand-written custom stage in \(plan.node.name.text): the generator plans stages from "
                            + "the YAML; run `swiftdata-gen plan`, and move its willMigrate/didMigrate code into "
                            + "hooks (customMigration: true on the version it leads to)"
                    ))
            }
        }
    }

    // MARK: syntax helpers

    /// A name as the store knows it: `` `private` `` is `private`.
    static func unescaped(_ token: TokenSyntax) -> String {
        let text = token.text
        return text.hasPrefix("`") && text.hasSuffix("`") && text.count > 2 ? String(text.dropFirst().dropLast()) : text
    }

    static func inheritedNames(_ clause: InheritanceClauseSyntax?) -> [String] {
        clause?.inheritedTypes.map { lastComponent($0.type) } ?? []
    }

    static func hasAttribute(_ attributes: AttributeListSyntax, _ name: String) -> Bool {
        attributes.contains { element in
            if case .attribute(let attribute) = element { return lastComponent(attribute.attributeName) == name }
            return false
        }
    }

    static func lastComponent(_ type: TypeSyntax) -> String {
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        return type.trimmedDescription
    }

    /// `Trip`, `Trip?`, `[Stop]`, `[Stop]?`, `Optional<Trip>`, `Array<Stop>`, `SchemaV1.Trip`.
    static func spelling(_ type: TypeSyntax) -> (name: String, isOptional: Bool, isArray: Bool)? {
        var type = type
        var isOptional = false
        var isArray = false
        if let optional = type.as(OptionalTypeSyntax.self) {
            type = optional.wrappedType
            isOptional = true
        } else if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            type = unwrapped.wrappedType
            isOptional = true
        } else if let generic = type.as(IdentifierTypeSyntax.self), generic.name.text == "Optional",
            let argument = genericArgument(generic)
        {
            type = argument
            isOptional = true
        }
        if let array = type.as(ArrayTypeSyntax.self) {
            type = array.element
            isArray = true
        } else if let generic = type.as(IdentifierTypeSyntax.self), generic.name.text == "Array",
            let argument = genericArgument(generic)
        {
            type = argument
            isArray = true
        }
        guard type.is(IdentifierTypeSyntax.self) || type.is(MemberTypeSyntax.self) else { return nil }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause != nil { return nil }
        return (lastComponent(type), isOptional, isArray)
    }

    private static func genericArgument(_ type: IdentifierTypeSyntax) -> TypeSyntax? {
        guard let argument = type.genericArgumentClause?.arguments.first?.argument, case .type(let wrapped) = argument
        else { return nil }
        return wrapped
    }

    /// The type Swift infers for a literal initial value, where there is no annotation.
    static func inferredType(of expression: ExprSyntax?) -> TypeSyntax? {
        guard let expression else { return nil }
        let name: String
        if expression.is(StringLiteralExprSyntax.self) {
            name = "String"
        } else if expression.is(IntegerLiteralExprSyntax.self) {
            name = "Int"
        } else if expression.is(FloatLiteralExprSyntax.self) {
            name = "Double"
        } else if expression.is(BooleanLiteralExprSyntax.self) {
            name = "Bool"
        } else {
            return nil
        }
        return TypeSyntax(IdentifierTypeSyntax(name: .identifier(name)))
    }

    static func defaultValue(_ expression: ExprSyntax) -> ImportedProperty.DefaultValue {
        if let text = stringLiteral(expression) { return .string(text) }
        if let integer = expression.as(IntegerLiteralExprSyntax.self) {
            // `0xFF`, `0o17`, `0b101` as the decimal digits the YAML takes.
            let digits = integer.literal.text.replacingOccurrences(of: "_", with: "")
            let radix = digits.hasPrefix("0x") ? 16 : digits.hasPrefix("0o") ? 8 : digits.hasPrefix("0b") ? 2 : 10
            guard radix != 10 else { return .number(digits) }
            guard let value = Int(digits.dropFirst(2), radix: radix) else { return .expression(integer.literal.text) }
            return .number(String(value))
        }
        if let float = expression.as(FloatLiteralExprSyntax.self) {
            return .number(float.literal.text.replacingOccurrences(of: "_", with: ""))
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
            case .number(let digits) = defaultValue(prefix.expression)
        {
            return .number("-" + digits)
        }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) {
            return .bool(boolean.literal.tokenKind == .keyword(.true))
        }
        if expression.is(NilLiteralExprSyntax.self) { return .null }
        if let member = expression.as(MemberAccessExprSyntax.self), member.base == nil {
            return .enumCase(member.declName.baseName.text)
        }
        // `Array<Stop>()` and `[Stop]()` are the empty list, as `[]` is.
        if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
            call.calledExpression.is(ArrayExprSyntax.self)
                || call.calledExpression.as(GenericSpecializationExprSyntax.self)?.expression.trimmedDescription
                    == "Array"
        {
            return .list([])
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            let items = array.elements.map { defaultValue($0.expression) }
            if !items.contains(where: { if case .expression = $0 { return true } else { return false } }) {
                return .list(items)
            }
        }
        return .expression(expression.trimmedDescription)
    }

    /// The text of a string literal without interpolation, escapes resolved; nil otherwise.
    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self), literal.openingPounds == nil else {
            return nil
        }
        var text = ""
        for segment in literal.segments {
            guard let piece = segment.as(StringSegmentSyntax.self) else { return nil }
            guard let unescaped = unescape(piece.content.text) else { return nil }
            text += unescaped
        }
        return text
    }

    private static func unescape(_ raw: String) -> String? {
        var result = ""
        var iterator = raw.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "0": result.append("\0")
            case "\\": result.append("\\")
            case "\"": result.append("\"")
            case "'": result.append("'")
            default: return nil
            }
        }
        return result
    }

    /// Property names of `\.a` or `\Model.a` key paths below `syntax`, in order.
    static func keyPaths(in syntax: Syntax) -> [String] {
        if let keyPath = syntax.as(KeyPathExprSyntax.self) {
            guard keyPath.components.count == 1, case .property(let component) = keyPath.components.first?.component
            else { return [] }
            return [component.declName.baseName.text]
        }
        return syntax.children(viewMode: .sourceAccurate).flatMap { keyPaths(in: $0) }
    }

    /// `Schema.Version(1, 2, 0)` below `syntax`.
    static func versionNumber(in syntax: Syntax) -> (Int, Int, Int)? {
        if let call = syntax.as(FunctionCallExprSyntax.self),
            ["Version", ".init"].contains(where: { call.calledExpression.trimmedDescription.hasSuffix($0) })
        {
            let numbers = call.arguments.compactMap { Int($0.expression.trimmedDescription) }
            guard numbers.count == 3, call.arguments.count == 3 else { return nil }
            return (numbers[0], numbers[1], numbers[2])
        }
        for child in syntax.children(viewMode: .sourceAccurate) {
            if let found = versionNumber(in: child) { return found }
        }
        return nil
    }

    /// `Trip.self` references below `syntax`: a schema's `models` list.
    static func typeReferences(in syntax: Syntax) -> [String] {
        if let member = syntax.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
            let base = member.base
        {
            return [base.trimmedDescription.split(separator: ".").last.map(String.init) ?? base.trimmedDescription]
        }
        return syntax.children(viewMode: .sourceAccurate).flatMap { typeReferences(in: $0) }
    }

    /// `///` lines before a declaration, without the slashes.
    static func doc(_ trivia: Trivia) -> String? {
        var lines: [String] = []
        for piece in trivia {
            if case .docLineComment(let text) = piece {
                var line = text.dropFirst(3)
                if line.first == " " { line = line.dropFirst() }
                lines.append(String(line))
            }
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
}
