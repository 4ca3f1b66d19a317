import SwiftSyntax
import SwiftSyntaxMacros

// Expansions of SwiftData's macros for type-checking against Apple's own SwiftData interface on a
// machine without Xcode. Apple ships the macro implementations only inside Xcode; the SDK's
// interface declares each as `#externalMacro(module: "SwiftDataMacros", type: …)`, so this library
// carries that module name and those type names.
//
// The shape is the one Xcode 15.3 shows with "Expand Macro" (and `-Xfrontend
// -dump-macro-expansions`) for a model, as published in articles and in expansions committed to
// public repositories: a `_$backingData` of `any BackingData<Model>`, `persistentBackingData`,
// `schemaMetadata` of `Schema.PropertyMetadata` built with `Schema.Attribute` and
// `Schema.Relationship` from the property's own macro arguments, `init(backingData:)`, an
// `ObservationRegistrar`, and per stored property an init accessor over the backing data with get
// and set through `getValue(forKey:)`/`setValue(forKey:to:)`. Those overloads take only `Codable`
// values, models and collections of models, so a property SwiftData cannot store has no overload
// to call and fails here as it fails in Xcode. Everything expanded calls only what Apple's
// interface declares; nothing here stands for SwiftData's behaviour at run time.

/// `@Model`: the members above, `@_PersistedProperty` on every stored property, and the
/// `PersistentModel` and `Observable` conformances the interface lists.
public struct PersistentModelMacro: ExtensionMacro, MemberMacro, MemberAttributeMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try protocols.map { try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: $0.trimmedDescription) {}") }
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let variable = member.as(VariableDeclSyntax.self), let property = ModelProperty(variable) else {
            return []
        }
        return property.isTransformable ? ["@_TransformablePersistedProperty"] : ["@_PersistedProperty"]
    }

    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let model = declaration.as(ClassDeclSyntax.self) else {
            throw ExpansionError("@Model applies only to a class")
        }
        let name = model.name.text
        let modifiers = model.modifiers.map(\.name.text)
        // A witness of a public protocol's requirement is as visible as the class.
        let access = modifiers.contains("public") || modifiers.contains("open") ? "public " : ""
        let required = modifiers.contains("final") ? "" : "required "
        let properties = declaration.memberBlock.members.compactMap {
            $0.decl.as(VariableDeclSyntax.self).flatMap(ModelProperty.init)
        }
        let metadata = properties.map { $0.metadata(in: name) }.joined(separator: ",\n")
        let markers = properties.map { "_\($0.name) = _SwiftDataNoType()" }.joined(separator: "\n")
        return [
            """
            @Transient
            private var _$backingData: any SwiftData.BackingData<\(raw: name)> = \(raw: name).createBackingData()
            """,
            """
            public var persistentBackingData: any SwiftData.BackingData<\(raw: name)> {
                get { _$backingData }
                set { _$backingData = newValue }
            }
            """,
            """
            \(raw: access)static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                return [
                    \(raw: metadata)
                ]
            }
            """,
            """
            \(raw: access)\(raw: required)init(backingData: any SwiftData.BackingData<\(raw: name)>) {
                \(raw: markers)
                self.persistentBackingData = backingData
            }
            """,
            "@Transient private let _$observationRegistrar = Observation.ObservationRegistrar()",
            "struct _SwiftDataNoType {}",
        ]
    }
}

/// One stored `var` of a model as the macros read it: not static, not `@Transient`, no accessors.
struct ModelProperty {
    var name: String
    var type: TypeSyntax
    var initializer: ExprSyntax?
    var attribute: AttributeSyntax?
    var relationship: AttributeSyntax?

    init?(_ variable: VariableDeclSyntax) {
        guard variable.bindingSpecifier.tokenKind == .keyword(.var), variable.bindings.count == 1,
            let binding = variable.bindings.first,
            let pattern = binding.pattern.as(IdentifierPatternSyntax.self), let type = binding.typeAnnotation?.type,
            binding.accessorBlock == nil,
            !variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) })
        else { return nil }
        let attributes = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }
        func named(_ name: String) -> AttributeSyntax? {
            attributes.first {
                let written = $0.attributeName.trimmedDescription
                return written == name || written == "SwiftData." + name
            }
        }
        guard named("Transient") == nil else { return nil }
        self.name = pattern.identifier.text
        self.type = type.trimmed
        initializer = binding.initializer?.value.trimmed
        attribute = named("Attribute")
        relationship = named("Relationship")
    }

    /// `.transformable(by:)` among the attribute's options: stored through a value transformer.
    var isTransformable: Bool {
        guard let arguments = attribute?.arguments?.as(LabeledExprListSyntax.self) else { return false }
        return arguments.contains { argument in
            argument.label == nil
                && argument.expression.as(FunctionCallExprSyntax.self)?.calledExpression.as(
                    MemberAccessExprSyntax.self)?
                    .declName.baseName.text == "transformable"
        }
    }

    /// The property's entry in `schemaMetadata`: its own `@Attribute`/`@Relationship` arguments
    /// become `Schema.Attribute`/`Schema.Relationship`, so the real initialisers check them. The
    /// initial value is written `as` the declared type so an empty literal has a type.
    func metadata(in model: String) -> String {
        let defaultValue = initializer.map { "(\($0)) as \(type)" } ?? "nil"
        var described = "nil"
        if let attribute {
            described = "SwiftData.Schema.Attribute(\(attribute.arguments?.trimmedDescription ?? ""))"
        } else if let relationship {
            described = "SwiftData.Schema.Relationship(\(relationship.arguments?.trimmedDescription ?? ""))"
        }
        return "SwiftData.Schema.PropertyMetadata(name: \"\(name)\", keypath: \\\(model).\(name), "
            + "defaultValue: \(defaultValue), metadata: \(described))"
    }
}

/// The accessors `@Model` puts on a stored property, over the backing data.
public struct PersistedPropertyMacro: PersistedAccessorsMacro {
    static let getter = "getValue"
    static let setter = "setValue"
}

/// The same for a property stored through a value transformer, which need not be `Codable`.
public struct TransformablePersistedPropertyMacro: PersistedAccessorsMacro {
    static let getter = "getTransformableValue"
    static let setter = "setTransformableValue"
}

/// An init accessor, a getter and a setter through the named backing-data calls, and the peer
/// `_name` the init accessor initialises.
protocol PersistedAccessorsMacro: AccessorMacro, PeerMacro {
    static var getter: String { get }
    static var setter: String { get }
}

extension PersistedAccessorsMacro {
    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), let property = ModelProperty(variable) else {
            return []
        }
        let name = property.name
        return [
            """
            @storageRestrictions(accesses: _$backingData, initializes: _\(raw: name))
            init(initialValue) {
                _$backingData.\(raw: setter)(forKey: \\.\(raw: name), to: initialValue)
                _\(raw: name) = _SwiftDataNoType()
            }
            """,
            """
            get {
                _$observationRegistrar.access(self, keyPath: \\.\(raw: name))
                return self.\(raw: getter)(forKey: \\.\(raw: name))
            }
            """,
            """
            set {
                _$observationRegistrar.withMutation(of: self, keyPath: \\.\(raw: name)) {
                    self.\(raw: setter)(forKey: \\.\(raw: name), to: newValue)
                }
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), let property = ModelProperty(variable) else {
            return []
        }
        return ["@Transient private var _\(raw: property.name): _SwiftDataNoType"]
    }
}

/// `@Attribute`, `@Relationship`, `@Transient`: markers that `@Model` reads; their arguments are
/// type-checked against the macro's declaration and again in `schemaMetadata`.
public struct AttributePropertyMacro: MarkerMacro {}
public struct RelationshipPropertyMacro: MarkerMacro {}
public struct TransientPropertyMacro: MarkerMacro {}

/// A peer macro that adds nothing: what it marks is read by `@Model`.
protocol MarkerMacro: PeerMacro {}

extension MarkerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

/// A failed expansion is a compile error at the macro, as Xcode reports one.
struct ExpansionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
