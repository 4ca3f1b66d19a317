import SwiftSyntax

/// Names resolved as Swift resolves them: an unqualified name in the innermost enclosing type
/// first (its own nested types and typealiases, those of its extensions included), then each
/// enclosing type outwards, then module scope; a qualified name `A.B` finds `A` so, then `B`
/// inside it. A name the sources do not declare belongs to another module (`String`,
/// `Foundation.Date`); a first component that names nothing here is taken as this module's name
/// (`\MyApp.Schemas.V1.Page.title`).
struct TypeLookup {
    enum Resolved: Equatable {
        case declared(Int)
        /// A type of another module, by its last name.
        case external(String)
    }

    /// A property's or field's type as stored: the base type, whether optional, whether an array.
    struct Spelled: Equatable {
        indirect enum Base: Equatable {
            case declared(Int)
            case external(String)
            /// `[Key: Value]`, each resolved.
            case dictionary(key: Base, value: Base)
        }

        var base: Base
        var isOptional: Bool
        var isArray: Bool
        /// Aliases followed on the way, as `Name = Target`.
        var aliasesFollowed: [String] = []
    }

    let tree: DeclarationTree
    /// Aliases being followed, so a cycle ends.
    private var following: Set<String> = []
    /// Aliases followed one through another are at most this many: no model needs more, and each
    /// is a level of recursion (8 000 overflowed the stack).
    static let maximumAliasChain = 64
    /// The alias where a chain went past the maximum, once one has; the reader reports it and
    /// clears it.
    var overlongAlias: String?

    init(tree: DeclarationTree) {
        self.tree = tree
    }

    mutating func resolve(path: [String], from scope: Int?) -> Resolved? {
        guard let first = path.first else { return nil }
        var current: Resolved
        if let found = unqualified(first, from: scope) {
            current = found
        } else if path.count > 1, let inModule = resolve(path: Array(path.dropFirst()), from: nil),
            case .declared = inModule
        {
            return inModule
        } else {
            current = .external(first)
        }
        for name in path.dropFirst() {
            guard case .declared(let index) = current else {
                current = .external(name)
                continue
            }
            guard let member = member(name, of: index) else { return nil }
            current = member
        }
        return current
    }

    /// `name` seen from `scope`: innermost enclosing type outwards, then module scope.
    mutating func unqualified(_ name: String, from scope: Int?) -> Resolved? {
        // `Self` is the innermost enclosing type (in a version's `models`: the version).
        if name == "Self", let scope { return .declared(scope) }
        for index in tree.scopes(from: scope) {
            if let found = member(name, of: index) { return found }
        }
        if let index = tree.topLevel[name]?.first { return .declared(index) }
        if let alias = tree.topLevelAliases[name] { return aliased(alias, from: nil) }
        return nil
    }

    private mutating func member(_ name: String, of index: Int) -> Resolved? {
        if let child = tree.types[index].children[name]?.first { return .declared(child) }
        if let alias = tree.types[index].aliases[name] { return aliased(alias, from: index) }
        return nil
    }

    /// An alias's target, resolved from where the alias is declared; only a plain name path is
    /// followed (`[Tag]` and generics are for `spelled`).
    private mutating func aliased(_ alias: Located<TypeAliasDeclSyntax>, from scope: Int?) -> Resolved? {
        let key = "\(scope ?? -1).\(alias.node.name.text)"
        guard following.count < Self.maximumAliasChain else {
            overlongAlias = overlongAlias ?? alias.node.name.text
            return nil
        }
        guard following.insert(key).inserted else { return nil }
        defer { following.remove(key) }
        let target = alias.node.initializer.value
        guard target.is(IdentifierTypeSyntax.self) || target.is(MemberTypeSyntax.self),
            !Self.hasGenericArguments(target)
        else { return .external(target.trimmedDescription) }
        return resolve(path: DeclarationTree.typePath(target), from: scope)
    }

    private static func hasGenericArguments(_ type: TypeSyntax) -> Bool {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.genericArgumentClause != nil }
        if let member = type.as(MemberTypeSyntax.self) {
            return member.genericArgumentClause != nil || hasGenericArguments(member.baseType)
        }
        return false
    }

    /// A stored type as SwiftData sees it: `Trip?`, `[Stop]`, `Optional<Trip>`, `Array<Stop>`,
    /// `SchemaV1.Trip`, `[String: Tag]?`, with aliases followed from `scope`. Nil for a form no
    /// model stores (tuples, functions, generics other than these).
    mutating func spelled(_ type: TypeSyntax, from scope: Int?) -> Spelled? {
        var type = type
        var isOptional = false
        var isArray = false
        if let optional = type.as(OptionalTypeSyntax.self) {
            type = optional.wrappedType
            isOptional = true
        } else if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            type = unwrapped.wrappedType
            isOptional = true
        } else if let argument = Self.genericArgument(type, of: "Optional") {
            type = argument
            isOptional = true
        }
        if let array = type.as(ArrayTypeSyntax.self) {
            type = array.element
            isArray = true
        } else if let argument = Self.genericArgument(type, of: "Array") {
            type = argument
            isArray = true
        }
        if let (key, value) = Self.dictionaryArguments(type) {
            guard let key = spelled(key, from: scope), !key.isOptional, !key.isArray,
                let value = spelled(value, from: scope), !value.isOptional, !value.isArray
            else { return nil }
            return Spelled(
                base: .dictionary(key: key.base, value: value.base), isOptional: isOptional, isArray: isArray)
        }
        guard type.is(IdentifierTypeSyntax.self) || type.is(MemberTypeSyntax.self), !Self.hasGenericArguments(type)
        else { return nil }
        let path = DeclarationTree.typePath(type)
        // An alias whose target is itself a wrapped form: `typealias Tags = [Tag]`.
        if let alias = aliasDeclaration(path, from: scope) {
            let key = "spelled.\(alias.scope ?? -1).\(alias.decl.node.name.text)"
            if following.count >= Self.maximumAliasChain {
                overlongAlias = overlongAlias ?? alias.decl.node.name.text
                return nil
            }
            if following.insert(key).inserted {
                defer { following.remove(key) }
                let target = alias.decl.node.initializer.value
                if var inner = spelled(target, from: alias.scope), !(inner.isArray && isArray) {
                    inner.isOptional = inner.isOptional || isOptional
                    inner.isArray = inner.isArray || isArray
                    inner.aliasesFollowed.insert(
                        "\(path.joined(separator: ".")) = \(target.trimmedDescription)", at: 0)
                    return inner
                }
            }
        }
        switch resolve(path: path, from: scope) {
        case .declared(let index)?:
            return Spelled(base: .declared(index), isOptional: isOptional, isArray: isArray)
        case .external(let name)?:
            return Spelled(base: .external(name), isOptional: isOptional, isArray: isArray)
        case nil:
            return Spelled(
                base: .external(path.last ?? type.trimmedDescription), isOptional: isOptional, isArray: isArray)
        }
    }

    /// The typealias a path names, and the scope it is declared in, when its last step is one.
    private mutating func aliasDeclaration(_ path: [String], from scope: Int?) -> (
        decl: Located<TypeAliasDeclSyntax>, scope: Int?
    )? {
        guard let last = path.last else { return nil }
        if path.count == 1 {
            for index in tree.scopes(from: scope) {
                if tree.types[index].children[last] != nil { return nil }
                if let alias = tree.types[index].aliases[last] { return (alias, index) }
            }
            if tree.topLevel[last] != nil { return nil }
            return tree.topLevelAliases[last].map { ($0, nil) }
        }
        guard case .declared(let owner)? = resolve(path: Array(path.dropLast()), from: scope),
            tree.types[owner].children[last] == nil
        else { return nil }
        return tree.types[owner].aliases[last].map { ($0, owner) }
    }

    /// The key and value types of `[K: V]` or `Dictionary<K, V>`.
    private static func dictionaryArguments(_ type: TypeSyntax) -> (TypeSyntax, TypeSyntax)? {
        if let dictionary = type.as(DictionaryTypeSyntax.self) { return (dictionary.key, dictionary.value) }
        guard let arguments = standardGeneric(type, named: "Dictionary"), arguments.count == 2,
            let first = arguments.first, let last = arguments.last,
            case .type(let key) = first.argument, case .type(let value) = last.argument
        else { return nil }
        return (key, value)
    }

    private static func genericArgument(_ type: TypeSyntax, of name: String) -> TypeSyntax? {
        guard let arguments = standardGeneric(type, named: name), arguments.count == 1,
            let argument = arguments.first?.argument, case .type(let wrapped) = argument
        else { return nil }
        return wrapped
    }

    /// The generic arguments of the standard library's `name<…>`, written `name<…>` or
    /// `Swift.name<…>`.
    private static func standardGeneric(_ type: TypeSyntax, named name: String) -> GenericArgumentListSyntax? {
        if let generic = type.as(IdentifierTypeSyntax.self), generic.name.text == name {
            return generic.genericArgumentClause?.arguments
        }
        if let member = type.as(MemberTypeSyntax.self), member.name.text == name,
            member.baseType.as(IdentifierTypeSyntax.self)?.name.text == "Swift"
        {
            return member.genericArgumentClause?.arguments
        }
        return nil
    }
}
