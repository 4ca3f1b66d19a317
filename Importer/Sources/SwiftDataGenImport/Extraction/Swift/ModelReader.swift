import SwiftSyntax

/// Models, and the enums and Codable structs they store, as one version holds them.
extension SwiftReading {
    mutating func model(_ index: Int, into contents: inout VersionContents) -> ImportedModel {
        let declared = tree.types[index]
        guard let decl = declared.decl.node.as(ClassDeclSyntax.self) else {
            return ImportedModel(
                name: declared.name, properties: [], uniqueGroups: [], indexGroups: [], location: declared.position)
        }
        let located = declared.decl
        var superclass: String?
        if let first = decl.inheritanceClause?.inheritedTypes.first {
            if case .declared(let parent)? = lookup.resolve(path: DeclarationTree.typePath(first.type), from: index),
                tree.types[parent].isModel
            {
                superclass = tree.types[parent].name
            } else {
                superclass = SyntaxReading.lastComponent(first.type)
            }
        }
        var result = ImportedModel(
            name: declared.name, superclass: superclass, properties: [], uniqueGroups: [], indexGroups: [],
            doc: SyntaxReading.doc(decl.leadingTrivia), location: declared.position)
        result.access = effectiveAccess(of: index)
        for element in decl.attributes {
            guard case .attribute(let attribute) = element else { continue }
            let attributeName = SyntaxReading.lastComponent(attribute.attributeName)
            if attributeName == "Model" {
                noteArguments(of: attribute, on: declared.name, located: located)
                continue
            }
            guard !ModelExtractor.attributesWithoutMembers.contains(attributeName) else { continue }
            // A macro attached to the class may add stored members no source shows.
            note(
                located.position(attribute),
                "@\(attributeName) on \(declared.name) may add stored members the importer cannot see; compare the "
                    + "generated schema with the app's before relying on it")
        }
        if let superclass, let parent = lookup.unqualified(superclass, from: index), case .declared(let p) = parent,
            tree.types[p].isModel
        {
            result.relatedDeclarations.append(p)
        }
        var initializers: [(InitializerDeclSyntax, Located<MemberBlockItemSyntax>)] = []
        for member in declared.members {
            let item = member.node.decl
            if let variable = item.as(VariableDeclSyntax.self) {
                let read = properties(Located(node: variable, converter: member.converter), of: index, into: &contents)
                result.properties += read.properties
                result.relatedDeclarations += read.related
            } else if let macro = item.as(MacroExpansionDeclSyntax.self),
                ["Unique", "Index"].contains(macro.macroName.text)
            {
                let groups = constraintGroups(
                    macro, of: index, located: Located(node: macro, converter: member.converter))
                if macro.macroName.text == "Unique" {
                    result.uniqueGroups += groups
                } else {
                    result.indexGroups += groups
                }
            } else if Self.declaresType(item) {
                continue
            } else if let initializer = item.as(InitializerDeclSyntax.self) {
                initializers.append((initializer, member))
            } else {
                noteMember(member, of: declared.name)
            }
        }
        // An empty `init()` is the one the generator writes when every stored property starts
        // with a value; any other init is said.
        let everyPropertyStarts = result.properties.allSatisfy {
            $0.isTransient || $0.defaultValue != nil || $0.isOptional
        }
        for (initializer, member) in initializers {
            let isEmpty =
                initializer.signature.parameterClause.parameters.isEmpty
                && (initializer.body?.statements.isEmpty ?? false)
            if !(isEmpty && everyPropertyStarts) { noteMember(member, of: declared.name) }
        }
        return result
    }

    static let accessWords: Set<String> = ["private", "fileprivate", "internal", "package", "public", "open"]

    /// Access levels from the most to the least restricted.
    static let accessOrder = ["private", "fileprivate", "internal", "package", "public", "open"]

    /// The access a type really has: its own, bounded by every enclosing type's (a `public` class
    /// in an internal enum is internal); nil where that is `internal`, as Swift leaves it unwritten.
    func effectiveAccess(of index: Int) -> String? {
        var rank = Self.accessOrder.count - 1
        for scope in tree.scopes(from: index) {
            let modifiers = tree.types[scope].decl.node.asProtocol(WithModifiersSyntax.self)?.modifiers
            let written = modifiers?.map(\.name.text).first { Self.accessWords.contains($0) } ?? "internal"
            rank = min(rank, Self.accessOrder.firstIndex(of: written) ?? 2)
        }
        let access = Self.accessOrder[rank]
        return access == "internal" ? nil : access
    }

    /// `@Model` takes no arguments SwiftData documents; any written is said.
    private mutating func noteArguments(of attribute: AttributeSyntax, on model: String, located: Located<DeclSyntax>) {
        guard case .argumentList(let list) = attribute.arguments else { return }
        for argument in list {
            note(
                located.position(argument),
                "argument \(argument.trimmedDescription) of @Model on \(model) is not carried")
        }
    }

    /// The name a declared enum or struct takes in the version, registered on first use; nil for
    /// one the DSL cannot store (an enum with neither a String or Int raw type nor `Codable`).
    mutating func take(_ index: Int, into contents: inout VersionContents) -> String? {
        let declared = tree.types[index]
        if let owner = contents.owners[declared.name] {
            guard owner != index else { return declared.name }
            // A Swift type's name is not stored, so the same stored shape under one name is one type.
            let same =
                declared.kind == .enumeration
                ? enumeration(index).map { mine in enumeration(owner).map { $0 == mine } ?? false } ?? false
                : declared.decl.node.as(StructDeclSyntax.self)?.memberBlock.trimmedDescription
                    == tree.types[owner].decl.node.as(StructDeclSyntax.self)?.memberBlock.trimmedDescription
            if same {
                note(
                    declared.position,
                    "\(declared.qualifiedName) is declared like \(tree.types[owner].qualifiedName), which this version "
                        + "stores already; the YAML writes them as one type")
            } else {
                error(
                    declared.position,
                    "\(declared.qualifiedName) and \(tree.types[owner].qualifiedName) are different types of one name, "
                        + "and a version of the YAML holds one type per name: rename one of them in the app (a Swift "
                        + "type's name is not stored, so every store still opens)")
            }
            return declared.name
        }
        switch declared.kind {
        case .enumeration:
            guard let imported = enumeration(index) else { return nil }
            contents.owners[declared.name] = index
            contents.enums.append(imported)
            let values = associatedValues(index, into: &contents)
            if let slot = contents.enums.firstIndex(where: { $0.name == declared.name }) {
                for (position, caseValues) in values.enumerated() where position < contents.enums[slot].cases.count {
                    contents.enums[slot].cases[position].values = caseValues
                }
            }
        case .structure:
            contents.owners[declared.name] = index
            contents.structs.append(ImportedStruct(name: declared.name, fields: [], location: declared.position))
            let fields = structFields(index, into: &contents)
            if let slot = contents.structs.firstIndex(where: { $0.name == declared.name }) {
                contents.structs[slot].fields = fields
            }
        case .classType, .other:
            return declared.name
        }
        if let parent = declared.parent, tree.types[parent].isModel {
            note(
                declared.position,
                "\(declared.kind == .enumeration ? "enum" : "struct") \(declared.name), nested in "
                    + "\(tree.types[parent].name), becomes a type of the schema version "
                    + "(\(tree.types[parent].name).\(declared.name) in app code becomes \(declared.name))")
        }
        return declared.name
    }

    /// A `Codable` struct's stored fields, their types resolved from inside it; anything else it
    /// declares is noted.
    private mutating func structFields(_ index: Int, into contents: inout VersionContents) -> [ImportedStruct.Field] {
        let declared = tree.types[index]
        var fields: [ImportedStruct.Field] = []
        for member in declared.members {
            guard let variable = member.node.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { $0.name.text == "static" })
            else {
                if !member.node.decl.is(InitializerDeclSyntax.self), !Self.declaresType(member.node.decl) {
                    noteMember(member, of: declared.name)
                }
                continue
            }
            for binding in variable.bindings {
                guard
                    let name = binding.pattern.as(IdentifierPatternSyntax.self).map({
                        SyntaxReading.unescaped($0.identifier)
                    })
                else { continue }
                if binding.accessorBlock != nil { continue }
                guard
                    let type = binding.typeAnnotation?.type
                        ?? SyntaxReading.inferredType(of: binding.initializer?.value),
                    let spelled = lookup.spelled(type, from: index)
                else {
                    note(
                        member.position(binding),
                        "field \(declared.name).\(name) has no type the importer can read; it is not carried")
                    continue
                }
                let typeName = typeName(of: spelled, into: &contents)
                fields.append(
                    .init(name: name, typeName: typeName, isOptional: spelled.isOptional, isArray: spelled.isArray))
            }
        }
        return fields
    }

    /// The name the YAML gives a resolved type, registering a declared enum or struct with the version.
    mutating func typeName(of spelled: TypeLookup.Spelled, into contents: inout VersionContents) -> String {
        typeName(of: spelled.base, into: &contents)
    }

    mutating func typeName(of base: TypeLookup.Spelled.Base, into contents: inout VersionContents) -> String {
        switch base {
        case .declared(let index):
            return take(index, into: &contents) ?? tree.types[index].name
        case .external(let name):
            return name
        case .dictionary(let key, let value):
            return "[\(typeName(of: key, into: &contents)): \(typeName(of: value, into: &contents))]"
        }
    }

    private mutating func enumeration(_ index: Int) -> ImportedEnum? {
        let declared = tree.types[index]
        let codable = declared.inherited.contains("Codable")
        guard
            let rawType = declared.inherited.first(where: { ["String", "Int"].contains($0) })
                ?? (codable ? "none" : nil)
        else { return nil }
        var cases: [(name: String, rawValue: String?, values: [ImportedStruct.Field])] = []
        for member in declared.members {
            guard let caseDecl = member.node.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                let raw = element.rawValue.map { SyntaxReading.stringLiteral($0.value) ?? $0.value.trimmedDescription }
                // Types as written here; `take` resolves them once the enum is registered.
                let values = (element.parameterClause?.parameters ?? []).enumerated().map { position, parameter in
                    ImportedStruct.Field(
                        name: Self.codingKey(of: parameter, at: position), typeName: parameter.type.trimmedDescription,
                        isOptional: false, isArray: false)
                }
                cases.append((element.name.text, raw, values))
            }
        }
        return ImportedEnum(name: declared.name, rawType: rawType, cases: cases, location: declared.position)
    }

    /// The key Swift's synthesized `Codable` stores an associated value under: its label, or `_0`,
    /// `_1`… by position for one without.
    static func codingKey(of parameter: EnumCaseParameterSyntax, at position: Int) -> String {
        guard let label = parameter.firstName, label.tokenKind != .wildcard else { return "_\(position)" }
        return SyntaxReading.unescaped(label)
    }

    /// An enum's associated values with their types resolved from inside it; a type the importer
    /// cannot read stops the import there (dropping the value would change what the store holds).
    private mutating func associatedValues(_ index: Int, into contents: inout VersionContents)
        -> [[ImportedStruct.Field]]
    {
        let declared = tree.types[index]
        var result: [[ImportedStruct.Field]] = []
        for member in declared.members {
            guard let caseDecl = member.node.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                var values: [ImportedStruct.Field] = []
                for (position, parameter) in (element.parameterClause?.parameters ?? []).enumerated() {
                    let name = Self.codingKey(of: parameter, at: position)
                    guard let spelled = lookup.spelled(parameter.type, from: index) else {
                        error(
                            member.position(parameter),
                            "the associated value \(name) of case \(declared.name).\(element.name.text) has a type "
                                + "the importer cannot read (\(parameter.type.trimmedDescription)); write it as a "
                                + "value type, an enum or a struct the version declares")
                        continue
                    }
                    if parameter.defaultValue != nil {
                        note(
                            member.position(parameter),
                            "the default of \(declared.name).\(element.name.text)'s value \(name) is not carried "
                                + "(it is not stored): code that leaves the value out must write it")
                    }
                    let typeName = typeName(of: spelled, into: &contents)
                    guard
                        ModelExtractor.valueTypes.contains(typeName)
                            || contents.enums.contains(where: { $0.name == typeName })
                            || contents.structs.contains(where: { $0.name == typeName })
                    else {
                        error(
                            member.position(parameter),
                            "the associated value \(name) of case \(declared.name).\(element.name.text) is a "
                                + "\(parameter.type.trimmedDescription), which the DSL cannot write inside an enum; "
                                + "a value is a value type, an enum or a Codable struct the version declares")
                        continue
                    }
                    values.append(
                        .init(name: name, typeName: typeName, isOptional: spelled.isOptional, isArray: spelled.isArray))
                }
                result.append(values)
            }
        }
        return result
    }

    mutating func noteMember(_ member: Located<MemberBlockItemSyntax>, of owner: String) {
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
        } else if let macro = decl.as(MacroExpansionDeclSyntax.self) {
            what = "#\(macro.macroName.text)"
        } else {
            what = "declaration '\(decl.trimmedDescription.prefix(40))'"
        }
        note(
            member.position(decl),
            "\(what) of \(owner) is not carried; keep it in an extension of the current type")
    }
}
