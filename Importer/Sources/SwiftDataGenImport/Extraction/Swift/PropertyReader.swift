import SwiftDataGenCore
import SwiftSyntax

/// A model's stored properties: names, types resolved from inside the model, initial values,
/// attributes. What is not stored (static, computed) is said, and so is what is stored but cannot
/// be carried.
extension SwiftReading {
    mutating func properties(
        _ located: Located<VariableDeclSyntax>, of modelIndex: Int, into contents: inout VersionContents
    ) -> (properties: [ImportedProperty], related: [Int]) {
        let model = tree.types[modelIndex].name
        let variable = located.node
        let modifiers = variable.modifiers.map(\.name.text)
        if modifiers.contains("static") || modifiers.contains("class") {
            note(
                located.position(variable),
                "static property of \(model) is not stored and is not carried; keep it in an extension of the "
                    + "current type")
            return ([], [])
        }
        var access = modifiers.first { Self.accessWords.contains($0) }
        if variable.modifiers.contains(where: { $0.detail != nil }) {
            note(
                located.position(variable),
                "a setter access such as private(set) on \(model) is not carried; the generated property has one "
                    + "access level")
            access = variable.modifiers.first { $0.detail == nil && Self.accessWords.contains($0.name.text) }?.name.text
        }
        var result: [ImportedProperty] = []
        var related: [Int] = []
        for binding in variable.bindings {
            guard
                let name = binding.pattern.as(IdentifierPatternSyntax.self).map({
                    SyntaxReading.unescaped($0.identifier)
                })
            else {
                note(
                    located.position(binding),
                    "a destructured property of \(model) is not carried; declare one property per line")
                continue
            }
            // `` `title` `` is the property title; only a keyword needs its backticks in Swift.
            if Identifier.keywords.contains(name), binding.accessorBlock == nil {
                note(
                    located.position(binding),
                    "\(model).\(name) is named with a Swift keyword in backticks, which the DSL cannot give a stored "
                        + "property (README, Known limits); it is not carried, so the generated schema would not "
                        + "store it")
                continue
            }
            if let accessors = binding.accessorBlock {
                let observers: Set<String> = ["willSet", "didSet"]
                var isComputed = true
                if case .accessors(let list) = accessors.accessors {
                    isComputed = !list.allSatisfy { observers.contains($0.accessorSpecifier.text) }
                }
                if isComputed {
                    note(
                        located.position(binding),
                        "computed property \(model).\(name) is not stored and is not carried; keep it in an "
                            + "extension of the current type")
                    continue
                }
                note(located.position(binding), "the willSet/didSet of \(model).\(name) are not carried")
            }
            let type = binding.typeAnnotation.map(\.type) ?? SyntaxReading.inferredType(of: binding.initializer?.value)
            let spelled = type.flatMap { lookup.spelled($0, from: modelIndex) }
            if let alias = lookup.overlongAlias {
                lookup.overlongAlias = nil
                error(
                    located.position(binding),
                    "\(model).\(name)'s type goes through more than \(TypeLookup.maximumAliasChain) typealiases, one "
                        + "naming the next (from \(alias)), more than the importer follows; name the type more directly"
                )
                continue
            }
            guard let spelled else {
                note(
                    located.position(binding),
                    "\(model).\(name) has no type the importer can read (write a type annotation such as String or "
                        + "[Stop]?); it is not carried")
                // Kept with no type, so the proof finds the app storing what the history does not.
                result.append(
                    ImportedProperty(
                        name: name, typeName: "", isOptional: false, isArray: false, location: located.position(binding)
                    ))
                continue
            }
            if let alias = spelled.aliasesFollowed.first, case .external(let target) = spelled.base,
                ModelExtractor.valueTypes.contains(target) || spelled.isArray
            {
                let parts = alias.components(separatedBy: " = ")
                note(
                    located.position(binding),
                    "\(model).\(name) is a \(parts[0]), an alias of \(parts.dropFirst().joined(separator: " = ")); "
                        + "the YAML says \(spelled.isArray ? "[\(target)]" : target), which stores the same")
            }
            var base = spelled.base
            var dictionaryKey: String?
            if case .dictionary(let key, let value) = spelled.base, case .external(let keyName) = key {
                if case .dictionary = value {} else { (base, dictionaryKey) = (value, keyName) }
            }
            var property = ImportedProperty(
                name: name, typeName: typeName(of: base, into: &contents), isOptional: spelled.isOptional,
                isArray: spelled.isArray, dictionaryKey: dictionaryKey,
                // Swift starts an optional without an initial value nil.
                defaultValue: binding.initializer.map { initialValue($0.value, from: modelIndex) }
                    ?? (spelled.isOptional ? .null : nil),
                access: access, doc: SyntaxReading.doc(variable.leadingTrivia), location: located.position(binding))
            var destination: Int?
            if case .declared(let index) = spelled.base, tree.types[index].isModel {
                destination = index
                related.append(index)
            }
            if variable.bindingSpecifier.tokenKind == .keyword(.let) {
                note(
                    located.position(variable),
                    "\(model).\(name) is a let; SwiftData stores it as any other property, and the generated one is "
                        + "a var")
            }
            applyAttributes(
                variable.attributes, to: &property, destination: destination, model: modelIndex, located: located)
            result.append(property)
        }
        return (result, related)
    }

    /// An initial value as the generated code can say it: a type named through an alias or a
    /// namespace (`PetPersonality(…)`, `Shared.Kind.leisure`) by the name the version declares it
    /// under, as every type of a version is generated inside its schema.
    mutating func initialValue(_ expression: ExprSyntax, from scope: Int) -> ImportedProperty.DefaultValue {
        let value = SyntaxReading.defaultValue(expression)
        guard case .expression = value else { return value }
        var renamed: [(range: Range<AbsolutePosition>, name: String)] = []
        collectTypeNames(Syntax(expression), from: scope, into: &renamed)
        guard !renamed.isEmpty else { return value }
        let bytes = Array(expression.description.utf8)
        let base = expression.position.utf8Offset
        func slice(_ from: AbsolutePosition, _ to: AbsolutePosition) -> String {
            String(decoding: bytes[(from.utf8Offset - base)..<(to.utf8Offset - base)], as: UTF8.self)
        }
        var text = ""
        var cursor = expression.positionAfterSkippingLeadingTrivia
        for item in renamed.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            text += slice(cursor, item.range.lowerBound) + item.name
            cursor = item.range.upperBound
        }
        text += slice(cursor, expression.endPositionBeforeTrailingTrivia)
        return .expression(text)
    }

    /// The outermost references to a declared type written otherwise than by its own name.
    private mutating func collectTypeNames(
        _ syntax: Syntax, from scope: Int, into renamed: inout [(range: Range<AbsolutePosition>, name: String)]
    ) {
        if let expression = syntax.as(ExprSyntax.self),
            expression.is(DeclReferenceExprSyntax.self) || expression.is(MemberAccessExprSyntax.self)
        {
            let path = SyntaxReading.expressionPath(expression)
            if case .declared(let index)? = lookup.resolve(path: path, from: scope),
                path.count > 1 || path.last != tree.types[index].name
            {
                let range = expression.positionAfterSkippingLeadingTrivia..<expression.endPositionBeforeTrailingTrivia
                renamed.append((range, tree.types[index].name))
                return
            }
        }
        for child in syntax.children(viewMode: .sourceAccurate) {
            collectTypeNames(child, from: scope, into: &renamed)
        }
    }
}
