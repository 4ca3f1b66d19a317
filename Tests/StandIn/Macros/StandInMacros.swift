import SwiftSyntax
import SwiftSyntaxMacros

/// `@Model`, as the real macro does it in outline: every stored property becomes a computed one
/// over the object's backing data (so the simulator can read and write any object by property
/// name), and the class describes its entity — stored properties with their types, defaults,
/// `@Attribute`/`@Relationship` arguments, and `#Unique`/`#Index` groups — for the checksum and
/// the migration simulator. Subclasses get the conformance from their root and describe their own
/// stored properties under their superclass, for the checksum; the simulator keeps no rows of them.
public struct ModelMacro: ExtensionMacro, MemberMacro, MemberAttributeMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard !protocols.isEmpty else { return [] }
        let list = protocols.map(\.trimmedDescription).joined(separator: ", ")
        return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: list) {}")]
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard isRoot(declaration), let variable = member.as(VariableDeclSyntax.self),
            let property = StoredProperty(variable)
        else { return [] }
        return property.isTransformable ? ["@_TransformablePersistedProperty"] : ["@_PersistedProperty"]
    }

    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else { return [] }
        // `` `Entry` `` is the class Entry, as the compiler names it.
        let name = classDecl.name.identifier?.name ?? classDecl.name.text
        let properties = declaration.memberBlock.members.compactMap {
            $0.decl.as(VariableDeclSyntax.self).flatMap(StoredProperty.init)
        }
        var unique: [String] = []
        var indexes: [String] = []
        for member in declaration.memberBlock.members {
            guard let expansion = member.decl.as(MacroExpansionDeclSyntax.self) else { continue }
            let groups = expansion.arguments.compactMap { argument -> String? in
                // `[\.a, \.b]`, or `.binary([\.a])`, an index of the default kind spelled out; an
                // R-tree index (`.rtree`) is not recorded.
                var expression = argument.expression
                if let call = expression.as(FunctionCallExprSyntax.self),
                    call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "binary",
                    let inner = call.arguments.first?.expression
                {
                    expression = inner
                }
                guard let array = expression.as(ArrayExprSyntax.self) else { return nil }
                let names = array.elements.compactMap {
                    $0.expression.as(KeyPathExprSyntax.self)?.components.last?.component.trimmedDescription
                }
                return "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            }
            if expansion.macroName.text == "Unique" { unique += groups }
            if expansion.macroName.text == "Index" { indexes += groups }
        }
        let metadata = properties.map { $0.metadata }.joined(separator: ",\n")
        let uniqueFlags = properties.filter(\.isUniqueAttribute).map { "[\"\($0.name)\"]" }
        // A subclass describes its own stored properties under its superclass, for the checksum;
        // the simulator keeps no rows of it.
        guard isRoot(declaration) else {
            let superclass = declaration.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription ?? "?"
            return [
                """
                override public class var _$entity: _StandInEntity {
                    _StandInEntity(
                        name: \(literal: name),
                        properties: [
                            \(raw: metadata)
                        ],
                        unique: [\(raw: (unique + uniqueFlags).joined(separator: ", "))],
                        indexes: [\(raw: indexes.joined(separator: ", "))],
                        isSubclass: true, superclass: \(literal: superclass))
                }
                """
            ]
        }
        let initialisers = properties.map { "_\($0.name) = _StandInNoValue()" }.joined(separator: "\n")
        // The storage each property's init accessor initializes, declared here in one expansion
        // rather than by a peer expansion per property, which made up a quarter of a large app's
        // type-check; the declarations are the ones Apple's peer expansion makes.
        let storage = properties.map { DeclSyntax("private var _\(raw: $0.name): _StandInNoValue") }
        return storage + [
            "public var _$backing: _StandInBacking = _StandInBacking()",
            """
            public init(backingData: _StandInBacking) {
                self._$backing = backingData
                \(raw: initialisers)
            }
            """,
            "public class func _$make(_ backing: _StandInBacking) -> AnyObject { \(raw: name)(backingData: backing) }",
            """
            public class var _$entity: _StandInEntity {
                _StandInEntity(
                    name: \(literal: name),
                    properties: [
                        \(raw: metadata)
                    ],
                    unique: [\(raw: (unique + uniqueFlags).joined(separator: ", "))],
                    indexes: [\(raw: indexes.joined(separator: ", "))],
                    isSubclass: false)
            }
            """,
        ]
    }

    /// A model with no inheritance clause; our generated subclasses name their superclass there.
    static func isRoot(_ declaration: some DeclGroupSyntax) -> Bool {
        declaration.inheritanceClause == nil
    }
}

/// One stored `var` of a model as written: not static, not `@Transient`, no accessors.
struct StoredProperty {
    var name: String
    var type: String
    var initializer: String?
    var attribute: AttributeSyntax?
    var relationship: AttributeSyntax?

    init?(_ variable: VariableDeclSyntax) {
        guard variable.bindingSpecifier.text == "var", variable.bindings.count == 1,
            let binding = variable.bindings.first,
            let pattern = binding.pattern.as(IdentifierPatternSyntax.self), let type = binding.typeAnnotation?.type,
            binding.accessorBlock == nil,
            !variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) })
        else { return nil }
        let attributes = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }
        func named(_ name: String) -> AttributeSyntax? {
            attributes.first { $0.attributeName.trimmedDescription == name }
        }
        guard named("Transient") == nil else { return nil }
        self.name = pattern.identifier.identifier?.name ?? pattern.identifier.text
        self.type = type.trimmedDescription
        initializer = binding.initializer?.value.trimmedDescription
        attribute = named("Attribute")
        relationship = named("Relationship")
    }

    private var arguments: LabeledExprListSyntax? {
        (attribute ?? relationship)?.arguments?.as(LabeledExprListSyntax.self)
    }

    private func argument(_ label: String) -> String? {
        arguments?.first { $0.label?.text == label }?.expression.trimmedDescription
    }

    /// `.unique`, `.externalStorage`, …: the unlabelled options, by name.
    private var options: [String] {
        (arguments ?? []).filter { $0.label == nil }.compactMap { argument -> String? in
            if let member = argument.expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
            if let call = argument.expression.as(FunctionCallExprSyntax.self),
                let member = call.calledExpression.as(MemberAccessExprSyntax.self)
            {
                return member.declName.baseName.text
            }
            return nil
        }
    }

    var isUniqueAttribute: Bool { attribute != nil && options.contains("unique") }

    /// Stored through a value transformer, as `@_TransformablePersistedProperty` stores it.
    var isTransformable: Bool { attribute != nil && options.contains("transformable") }

    var metadata: String {
        let defaultValue = initializer.map { "{ () -> (\(type)) in \($0) }" } ?? "nil"
        let options = self.options.filter { $0 != "unique" || relationship != nil }.map { "\"\($0)\"" }.joined(
            separator: ", ")
        var relationshipText = "nil"
        if relationship != nil {
            let inverse = argument("inverse").flatMap { $0.split(separator: ".").last.map(String.init) }
            // `.cascade` or `Schema.Relationship.DeleteRule.cascade`: the case's name.
            let rule = argument("deleteRule").map { $0.split(separator: ".").last.map(String.init) ?? $0 } ?? "nullify"
            relationshipText =
                "_StandInRelationship(deleteRule: \"\(rule)\", inverse: \(inverse.map { "\"\($0)\"" } ?? "nil"), minimumModelCount: \(argument("minimumModelCount") ?? "0"), maximumModelCount: \(argument("maximumModelCount") ?? "0"))"
        }
        return """
            _StandInProperty(name: "\(name)", type: (\(type)).self, defaultValue: \(defaultValue), options: [\(options)], originalName: \(argument("originalName") ?? "nil"), hashModifier: \(argument("hashModifier") ?? "nil"), relationship: \(relationshipText))
            """
    }
}

/// What `@Model` puts on each stored property: get and set through the backing data, whose
/// overloads take only what SwiftData's do, and an init accessor so the class's own initializers
/// (and initial values) still work. The storage it initializes is declared by `@Model`.
public struct PersistedPropertyMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        accessors(of: declaration, get: "get", set: "set")
    }

    static func accessors(of declaration: some DeclSyntaxProtocol, get: String, set: String) -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), let property = StoredProperty(variable) else {
            return []
        }
        let name = property.name
        return [
            """
            @storageRestrictions(initializes: _\(raw: name), accesses: _$backing)
            init(initialValue) {
                _$backing.\(raw: set)(\(literal: name), initialValue)
                _\(raw: name) = _StandInNoValue()
            }
            """,
            "get { _$backing.\(raw: get)(\(literal: name)) }",
            "set { _$backing.\(raw: set)(\(literal: name), newValue) }",
        ]
    }
}

/// The same for a property stored through a value transformer, whose type need not be Codable.
public struct TransformablePersistedPropertyMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        PersistedPropertyMacro.accessors(of: declaration, get: "getTransformable", set: "setTransformable")
    }
}

/// `@Attribute`, `@Relationship`, `@Transient`: their arguments are type-checked, then read by
/// `@Model`; they expand to nothing themselves.
public struct NoOpPeerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

/// `#Unique`, `#Index`: the key paths are type-checked, then read by `@Model`.
public struct NoOpDeclarationMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
