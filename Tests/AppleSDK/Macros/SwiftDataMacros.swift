import SwiftSyntax
import SwiftSyntaxMacros

// Expansions of SwiftData's macros for type-checking against Apple's own SwiftData interface on a
// machine without Xcode. Apple ships the macro implementations only inside Xcode; the SDK's
// interface declares each as `#externalMacro(module: "SwiftDataMacros", type: …)`, so this library
// carries that module name and those type names. It is built once per SDK generation
// (`scripts/apple-sdk-flags.sh` passes `-D XCODE_16`, `-D XCODE_26` or `-D XCODE_27`), because each Xcode expands
// `@Model` differently and an SDK's interface is only ever read with its own Xcode's macros.
// Where each shape comes from is in docs/apple-sdk-findings.md. Everything expanded calls only what
// Apple's interface declares; nothing here stands for SwiftData's behaviour at run time.

/// The Xcode whose expansion this build writes.
enum Generation: Int, Comparable {
    /// Xcode 15.3, the iOS 17.4 SDK.
    case xcode15 = 15
    /// Xcode 16, the iOS 18 SDKs: `access`/`withMutation` members, an unavailable `Sendable`
    /// conformance, `#Unique` and `#Index`.
    case xcode16 = 16
    /// Xcode 26, the iOS 26 SDKs: `class var schemaMetadata` and model subclasses.
    case xcode26 = 26
    /// Xcode 27, the iOS 27 SDK: its SwiftData declares every macro as 26's did, so it expands as 26.
    case xcode27 = 27

    #if XCODE_27
        static let current = Generation.xcode27
    #elseif XCODE_26
        static let current = Generation.xcode26
    #elseif XCODE_16
        static let current = Generation.xcode16
    #else
        static let current = Generation.xcode15
    #endif

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// `@Model`: the members, `@_PersistedProperty` on every stored property, and the conformances the
/// interface lists. A subclass of a model (Xcode 26) adds only what its own properties need and
/// reaches the superclass's storage through the backing data's subclass calls.
public struct PersistentModelMacro: ExtensionMacro, MemberMacro, MemberAttributeMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        let name = type.trimmedDescription
        return try protocols.map { conformance in
            let spelled = conformance.trimmedDescription
            guard spelled == "Sendable" || spelled == "Swift.Sendable" else {
                return try ExtensionDeclSyntax("extension \(raw: name): \(raw: spelled) {}")
            }
            // Xcode 16 and later declare the conformance to make it unavailable: a model is not Sendable.
            let message =
                "PersistentModels are not Sendable, consider utilizing a ModelActor or use \(name)'s persistentModelID instead"
            return try ExtensionDeclSyntax(
                """
                @available(swift, deprecated: 5.9, message: "\(raw: message)")
                @available(*, unavailable, message: "\(raw: message)")
                extension \(raw: name): Sendable {}
                """)
        }
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
        let shape = ModelShape(model)
        if let superclass = shape.superclass {
            guard Generation.current >= .xcode26 else {
                // Before Xcode 26 a subclass gets a root's members, which its superclass already has.
                return shape.rootMembers()
            }
            return shape.subclassMembers(of: superclass)
        }
        return shape.rootMembers()
    }
}

/// A model class as `@Model` reads it: its name, access, superclass, stored properties and the
/// `#Unique`/`#Index` declarations in its body.
struct ModelShape {
    var name: String
    /// The access a witness of a protocol requirement needs: as visible as the class.
    var access: String
    var isFinal: Bool
    /// The first inherited type when it is not a protocol SwiftData or Swift declares: the
    /// generator names a model's superclass there and nothing else.
    var superclass: String?
    var properties: [ModelProperty]
    /// `Schema.Unique`/`Schema.Index` built from each `#Unique`/`#Index` in the body.
    var constraints: [String]

    static let knownProtocols: Set<String> = [
        "Identifiable", "Hashable", "Equatable", "Codable", "Sendable", "CustomStringConvertible",
        "Comparable",
    ]

    init(_ model: ClassDeclSyntax) {
        name = model.name.text
        let modifiers = model.modifiers.map(\.name.text)
        access =
            modifiers.contains("public") || modifiers.contains("open")
            ? "public " : modifiers.contains("package") ? "package " : ""
        isFinal = modifiers.contains("final")
        let first = model.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription
        superclass = first.flatMap { Self.knownProtocols.contains($0) ? nil : $0 }
        properties = model.memberBlock.members.compactMap {
            $0.decl.as(VariableDeclSyntax.self).flatMap(ModelProperty.init)
        }
        let name = name
        constraints = model.memberBlock.members.compactMap { member in
            guard let macro = member.decl.as(MacroExpansionDeclSyntax.self) else { return nil }
            let kind: String
            switch macro.macroName.text {
            case "Unique": kind = "Unique"
            case "Index": kind = "Index"
            default: return nil
            }
            let arguments = macro.arguments.trimmedDescription
            return "SwiftData.Schema.PropertyMetadata(name: \"\(kind)\", keypath: \\\(name).self, "
                + "metadata: SwiftData.Schema.\(kind)<\(name)>(\(arguments)))"
        }
    }

    /// `schemaMetadata`: each stored property, then each constraint (Xcode 16 and later).
    var metadataList: String {
        let entries = properties.map { $0.metadata(in: name) } + (Generation.current >= .xcode16 ? constraints : [])
        return entries.joined(separator: ",\n")
    }

    var markers: String { properties.map { "_\($0.name) = _SwiftDataNoType()" }.joined(separator: "\n") }

    /// Xcode 26 makes `schemaMetadata` a class property, so that a subclass can give its own.
    var metadataKeyword: String { Generation.current >= .xcode26 ? "class" : "static" }

    func rootMembers() -> [DeclSyntax] {
        let required = isFinal ? "" : "required "
        var members: [DeclSyntax] = [
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
            \(raw: access)\(raw: metadataKeyword) var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                return [
                    \(raw: metadataList)
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
        ]
        members += observationMembers
        members.append("struct _SwiftDataNoType {}")
        return members
    }

    /// Xcode 16 and later: the registrar's `access` and `withMutation` for this class's key paths.
    var observationMembers: [DeclSyntax] {
        guard Generation.current >= .xcode16 else { return [] }
        return [
            """
            internal nonisolated func access<_M>(keyPath: KeyPath<\(raw: name), _M>) {
                _$observationRegistrar.access(self, keyPath: keyPath)
            }
            """,
            """
            internal nonisolated func withMutation<_M, _MR>(
                keyPath: KeyPath<\(raw: name), _M>, _ mutation: () throws -> _MR
            ) rethrows -> _MR {
                try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
            }
            """,
        ]
    }

    /// A subclass keeps the root's `persistentBackingData` (its type names the root) and keeps its
    /// own properties in a backing data of its own class: made from the one it is given with
    /// `_generateCurrentClassBackingData()`, and given back to the superclass's view with
    /// `_superClassBackingData(of:)`. Both are iOS 26 API, so a subclass below 26 is refused.
    func subclassMembers(of superclass: String) -> [DeclSyntax] {
        var members: [DeclSyntax] = [
            """
            @Transient
            private var _$backingData: any SwiftData.BackingData<\(raw: name)> = \(raw: name).createBackingData()
            """,
            """
            public override var persistentBackingData: any SwiftData.BackingData<\(raw: superclass).Root> {
                get { _$backingData._superClassBackingData(of: \(raw: name).self) }
                set {
                    _$backingData = newValue._generateCurrentClassBackingData()
                    super.persistentBackingData = newValue
                }
            }
            """,
            """
            \(raw: access)override class var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                return [
                    \(raw: metadataList)
                ]
            }
            """,
            """
            \(raw: access)required init(backingData: any SwiftData.BackingData<\(raw: superclass).Root>) {
                \(raw: markers)
                self._$backingData = backingData._generateCurrentClassBackingData()
                super.init(backingData: backingData)
            }
            """,
            "@Transient private let _$observationRegistrar = Observation.ObservationRegistrar()",
        ]
        members += observationMembers
        members.append("struct _SwiftDataNoType {}")
        return members
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

/// `#Unique` and `#Index` (Xcode 16 and later) add no declaration of their own: the interface gives
/// them no names to introduce, and `@Model` lists what they constrain in `schemaMetadata` as
/// `Schema.Unique`/`Schema.Index`, whose initialisers check every key path against the model.
public struct UniqueConstraintsMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

public struct IndexMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
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
