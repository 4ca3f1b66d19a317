import SwiftSyntax

/// A piece of syntax with the file it came from, so positions can be reported.
struct Located<Node: SyntaxProtocol> {
    var node: Node
    var converter: SourceLocationConverter

    func position(_ syntax: some SyntaxProtocol) -> SourcePosition {
        let location = syntax.startLocation(converter: converter)
        return SourcePosition(file: location.file, line: location.line, column: location.column)
    }
}

/// One type the sources declare, with every member its declaration and its extensions add.
struct DeclaredType {
    enum Kind: Equatable {
        case enumeration, structure, classType, other
    }

    var name: String
    /// Enclosing types' names then its own: `Schemas.V1.Page` is `["Schemas", "V1", "Page"]`.
    var path: [String]
    /// The enclosing type; nil at module scope.
    var parent: Int?
    var kind: Kind
    /// Inherited types' last components, as written: `VersionedSchema`, `String`, `Codable`.
    var inherited: [String]
    var isModel: Bool
    var decl: Located<DeclSyntax>
    var nameToken: TokenSyntax
    /// Own members first, then each extension's, `#if` replaced by its first branch.
    var members: [Located<MemberBlockItemSyntax>] = []
    /// Nested types by name; more than one is a redeclaration.
    var children: [String: [Int]] = [:]
    var aliases: [String: Located<TypeAliasDeclSyntax>] = [:]

    var qualifiedName: String { path.joined(separator: ".") }
    var position: SourcePosition { decl.position(nameToken) }
}

/// Every type the sources declare, nested as Swift nests them, with extensions joined to the
/// type they extend: what `TypeLookup` resolves names against.
struct DeclarationTree {
    var types: [DeclaredType] = []
    var topLevel: [String: [Int]] = [:]
    var topLevelAliases: [String: Located<TypeAliasDeclSyntax>] = [:]
    /// Module-scope functions and variables by name: what a migration plan's stages may call.
    var topLevelValues: [String: [Located<DeclSyntax>]] = [:]
    /// Members of extensions of types declared in no file read, by the extended type's last name:
    /// `extension MigrationStage { static func … }`.
    var externalMembers: [String: [Located<MemberBlockItemSyntax>]] = [:]
    var notes: [ImportNote] = []

    /// Module-scope declarations of every file; extensions are joined once every type is known, as
    /// an extension may extend a type another extension declares.
    init(files: [(items: [CodeBlockItemSyntax.Item], converter: SourceLocationConverter)]) {
        var extensions: [Located<ExtensionDeclSyntax>] = []
        for file in files {
            for decl in topLevelDecls(file.items, converter: file.converter) {
                if let extensionDecl = decl.node.as(ExtensionDeclSyntax.self) {
                    extensions.append(Located(node: extensionDecl, converter: decl.converter))
                } else {
                    add(decl, parent: nil)
                }
            }
        }
        var pending = extensions
        var progressed = true
        while progressed && !pending.isEmpty {
            progressed = false
            pending = pending.filter { located in
                let path = Self.typePath(located.node.extendedType)
                guard let index = resolvePath(path, from: nil) else { return true }
                let members = flattened(
                    located.node.memberBlock.members.map { Located(node: $0, converter: located.converter) })
                for member in members { addMember(member, to: index) }
                progressed = true
                return false
            }
        }
        for located in pending {
            let name = DeclarationTree.typePath(located.node.extendedType).last ?? ""
            externalMembers[name, default: []] += flattened(
                located.node.memberBlock.members.map { Located(node: $0, converter: located.converter) })
        }
    }

    /// `A.B.C` as names; nil for a type that is not a plain name path.
    static func typePath(_ type: TypeSyntax) -> [String] {
        if let member = type.as(MemberTypeSyntax.self) {
            return typePath(member.baseType) + [SyntaxReading.unescaped(member.name)]
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return [SyntaxReading.unescaped(identifier.name)] }
        return [type.trimmedDescription]
    }

    /// A path from module scope to a declared type, through aliases: `Schemas.V1` or an alias of it.
    func resolvePath(_ path: [String], from scope: Int?) -> Int? {
        var lookup = TypeLookup(tree: self)
        guard case .declared(let index)? = lookup.resolve(path: path, from: scope) else { return nil }
        return index
    }

    /// Module-scope declarations with each `#if` replaced by its first branch, said in a note.
    private mutating func topLevelDecls(
        _ items: [CodeBlockItemSyntax.Item], converter: SourceLocationConverter
    ) -> [Located<DeclSyntax>] {
        var result: [Located<DeclSyntax>] = []
        for item in items {
            guard case .decl(let decl) = item else { continue }
            guard let conditional = decl.as(IfConfigDeclSyntax.self) else {
                result.append(Located(node: decl, converter: converter))
                continue
            }
            guard let first = conditional.clauses.first, case .statements(let inner)? = first.elements else { continue }
            noteBranch(first, of: conditional, converter: converter, what: "declarations")
            result += topLevelDecls(inner.map(\.item), converter: converter)
        }
        return result
    }

    /// Members with each `#if` replaced by its first branch's members, said in a note.
    mutating func flattened(_ members: [Located<MemberBlockItemSyntax>]) -> [Located<MemberBlockItemSyntax>] {
        members.flatMap { member -> [Located<MemberBlockItemSyntax>] in
            guard let conditional = member.node.decl.as(IfConfigDeclSyntax.self) else { return [member] }
            guard let first = conditional.clauses.first, case .decls(let inner)? = first.elements else { return [] }
            noteBranch(first, of: conditional, converter: member.converter, what: "members")
            return flattened(inner.map { Located(node: $0, converter: member.converter) })
        }
    }

    private mutating func noteBranch(
        _ first: IfConfigClauseSyntax, of conditional: IfConfigDeclSyntax, converter: SourceLocationConverter,
        what: String
    ) {
        let located = Located(node: conditional, converter: converter)
        notes.append(
            .init(
                position: located.position(conditional),
                message:
                    "\(what) inside \(first.poundKeyword.text) \(first.condition?.trimmedDescription ?? "") are "
                    + "imported as if it holds\(conditional.clauses.count > 1 ? "; its other branches are not imported" : "")"
            ))
    }

    private mutating func add(_ decl: Located<DeclSyntax>, parent: Int?) {
        if let alias = decl.node.as(TypeAliasDeclSyntax.self) {
            let located = Located(node: alias, converter: decl.converter)
            if let parent {
                types[parent].aliases[alias.name.text] = located
            } else {
                topLevelAliases[alias.name.text] = located
            }
            return
        }
        let kind: DeclaredType.Kind
        let block: MemberBlockSyntax
        let inheritance: InheritanceClauseSyntax?
        var isModel = false
        if parent == nil, let name = Self.valueName(decl.node) {
            topLevelValues[name, default: []].append(decl)
            return
        }
        guard let named = decl.node.asProtocol(NamedDeclSyntax.self) else { return }
        if let enumDecl = decl.node.as(EnumDeclSyntax.self) {
            (kind, block, inheritance) = (.enumeration, enumDecl.memberBlock, enumDecl.inheritanceClause)
        } else if let structDecl = decl.node.as(StructDeclSyntax.self) {
            (kind, block, inheritance) = (.structure, structDecl.memberBlock, structDecl.inheritanceClause)
        } else if let classDecl = decl.node.as(ClassDeclSyntax.self) {
            (kind, block, inheritance) = (.classType, classDecl.memberBlock, classDecl.inheritanceClause)
            isModel = SyntaxReading.hasAttribute(classDecl.attributes, "Model")
        } else if let actorDecl = decl.node.as(ActorDeclSyntax.self) {
            (kind, block, inheritance) = (.other, actorDecl.memberBlock, actorDecl.inheritanceClause)
        } else {
            return
        }
        let index = types.count
        // `` `Entry` `` declares Entry: the compiler's name, without the backticks.
        let name = SyntaxReading.unescaped(named.name)
        types.append(
            DeclaredType(
                name: name, path: (parent.map { types[$0].path } ?? []) + [name], parent: parent,
                kind: kind, inherited: SyntaxReading.inheritedNames(inheritance), isModel: isModel, decl: decl,
                nameToken: named.name))
        if let parent {
            types[parent].children[name, default: []].append(index)
        } else {
            topLevel[name, default: []].append(index)
        }
        for member in flattened(block.members.map { Located(node: $0, converter: decl.converter) }) {
            addMember(member, to: index)
        }
    }

    private mutating func addMember(_ member: Located<MemberBlockItemSyntax>, to index: Int) {
        types[index].members.append(member)
        let decl = member.node.decl
        if decl.is(EnumDeclSyntax.self) || decl.is(StructDeclSyntax.self) || decl.is(ClassDeclSyntax.self)
            || decl.is(ActorDeclSyntax.self) || decl.is(TypeAliasDeclSyntax.self)
        {
            add(Located(node: decl, converter: member.converter), parent: index)
        }
    }

    /// The name a function or a single-binding variable declares; nil for anything else.
    static func valueName(_ decl: DeclSyntax) -> String? {
        if let function = decl.as(FunctionDeclSyntax.self) { return SyntaxReading.unescaped(function.name) }
        if let variable = decl.as(VariableDeclSyntax.self), variable.bindings.count == 1,
            let pattern = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)
        {
            return SyntaxReading.unescaped(pattern.identifier)
        }
        return nil
    }

    /// Indices of the types enclosing `index`, innermost first, itself included.
    func scopes(from index: Int?) -> [Int] {
        var result: [Int] = []
        var current = index
        while let scope = current {
            result.append(scope)
            current = types[scope].parent
        }
        return result
    }
}
