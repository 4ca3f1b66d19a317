import SwiftDataGenDSL
import SwiftSyntax

/// The arguments of `@Attribute`, `@Relationship`, `#Unique` and `#Index`: each carried into the
/// model, or said in a note at its position. Key paths are read in every spelling Swift takes:
/// `\.x`, `\Type.x`, `\Schema.Type.x`, `\Module.Schema.Type.x`.
extension SwiftReading {
    /// A key path naming one property: the type it is rooted at (nil for `\.x`) and the property.
    struct KeyPath {
        var root: TypeLookup.Resolved?
        var rootWritten: [String]
        var property: String
    }

    /// Reads `\A.B.c` from `scope`: the longest leading path that names a type is the root, and
    /// one property name must follow it. Nil for a path through several properties or anything
    /// else.
    mutating func keyPath(_ expression: ExprSyntax, from scope: Int) -> KeyPath? {
        guard let keyPath = expression.as(KeyPathExprSyntax.self) else { return nil }
        var names: [String] = []
        if let root = keyPath.root {
            guard root.is(IdentifierTypeSyntax.self) || root.is(MemberTypeSyntax.self) else { return nil }
            names = DeclarationTree.typePath(root)
        }
        for component in keyPath.components {
            guard case .property(let property) = component.component, property.genericArgumentClause == nil else {
                return nil
            }
            names.append(property.declName.baseName.text)
        }
        guard let property = names.last else { return nil }
        let prefix = Array(names.dropLast())
        if keyPath.root == nil {
            return prefix.isEmpty ? KeyPath(root: nil, rootWritten: [], property: property) : nil
        }
        return KeyPath(root: lookup.resolve(path: prefix, from: scope), rootWritten: prefix, property: property)
    }

    /// `#Unique<T>([\.a, \.b], …)` or `#Index<T>([\.a], …)`, `.binary([…])`: one group per argument.
    mutating func constraintGroups(
        _ macro: MacroExpansionDeclSyntax, of model: Int, located: Located<MacroExpansionDeclSyntax>
    ) -> [[String]] {
        let name = tree.types[model].name
        var groups: [[String]] = []
        if let generic = macro.genericArgumentClause?.arguments.first, case .type(let type) = generic.argument,
            lookup.resolve(path: DeclarationTree.typePath(type), from: model) != .declared(model)
        {
            note(
                located.position(generic),
                "#\(macro.macroName.text)<\(type.trimmedDescription)> inside \(name) names another type; read as "
                    + "\(name)'s")
        }
        for argument in macro.arguments {
            var list = argument.expression
            if let call = list.as(FunctionCallExprSyntax.self),
                let kind = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            {
                guard kind == "binary", let inner = call.arguments.first?.expression else {
                    note(
                        located.position(argument),
                        "\(argument.trimmedDescription) of #\(macro.macroName.text) on \(name) is not carried (the DSL "
                            + "writes binary indexes only)")
                    continue
                }
                list = inner
            }
            guard let array = list.as(ArrayExprSyntax.self), argument.label == nil else {
                note(
                    located.position(argument),
                    "argument \(argument.trimmedDescription) of #\(macro.macroName.text) on \(name) is not a list of "
                        + "key paths; not carried")
                continue
            }
            var group: [String] = []
            var understood = true
            for element in array.elements {
                guard let path = keyPath(element.expression, from: model),
                    path.root == nil || path.root == .declared(model)
                else {
                    note(
                        located.position(element),
                        "\(element.expression.trimmedDescription) in #\(macro.macroName.text) on \(name) does not "
                            + "name one property of \(name); the group is not carried")
                    understood = false
                    continue
                }
                group.append(path.property)
            }
            guard understood, !group.isEmpty else { continue }
            carried.append(located.position(argument))
            groups.append(group)
        }
        return groups
    }

    mutating func applyAttributes(
        _ attributes: AttributeListSyntax, to property: inout ImportedProperty, destination: Int?, model: Int,
        located: Located<VariableDeclSyntax>
    ) {
        let modelName = tree.types[model].name
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            let name = SyntaxReading.lastComponent(attribute.attributeName)
            let arguments: [LabeledExprSyntax] =
                if case .argumentList(let list) = attribute.arguments { Array(list) } else { [] }
            switch name {
            case "Transient":
                property.isTransient = true
                for argument in arguments {
                    note(
                        located.position(argument),
                        "argument \(argument.trimmedDescription) of @Transient on \(modelName).\(property.name) is "
                            + "not carried")
                }
            case "Attribute", "Relationship":
                if name == "Relationship" { property.isAnnotatedRelationship = true }
                for argument in arguments {
                    if apply(
                        argument, of: name, to: &property, destination: destination, model: model, located: located)
                    {
                        carried.append(located.position(argument))
                    }
                }
            default:
                note(
                    located.position(attribute),
                    "attribute @\(name) on \(modelName).\(property.name) is not carried")
            }
        }
    }

    /// One argument of `@Attribute` or `@Relationship`; false when it was said in a note instead.
    private mutating func apply(
        _ argument: LabeledExprSyntax, of attribute: String, to property: inout ImportedProperty, destination: Int?,
        model: Int, located: Located<VariableDeclSyntax>
    ) -> Bool {
        let owner = "\(tree.types[model].name).\(property.name)"
        let expression = argument.expression
        func notCarried(_ why: String) -> Bool {
            note(
                located.position(argument),
                "argument \(argument.trimmedDescription) of @\(attribute) on \(owner) is not carried: \(why)")
            return false
        }
        switch argument.label?.text {
        case "originalName":
            guard let text = SyntaxReading.stringLiteral(expression) else { return notCarried("not a string literal") }
            property.originalName = text
        case "hashModifier":
            guard let text = SyntaxReading.stringLiteral(expression) else { return notCarried("not a string literal") }
            property.hashModifier = text
        case "deleteRule":
            guard let rule = expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
                ["nullify", "cascade", "deny", "noAction"].contains(rule)
            else { return notCarried("not one of .nullify, .cascade, .deny, .noAction") }
            property.deleteRule = rule
        case "minimumModelCount":
            guard let count = Int(expression.trimmedDescription) else { return notCarried("not a number literal") }
            property.minimumCount = count
        case "maximumModelCount":
            guard let count = Int(expression.trimmedDescription) else { return notCarried("not a number literal") }
            property.maximumCount = count
        case "inverse":
            guard let path = keyPath(expression, from: model) else {
                return notCarried("not a key path to one property")
            }
            if let root = path.root, root != destination.map({ .declared($0) }) {
                let rootName: String
                if case .declared(let index) = root {
                    rootName = tree.types[index].qualifiedName
                } else {
                    rootName = path.rootWritten.joined(separator: ".")
                }
                return notCarried(
                    "it is rooted at \(rootName), which is not the type \(property.name) relates to "
                        + "(\(destination.map { tree.types[$0].qualifiedName } ?? property.typeName))")
            }
            property.inverse = path.property
        case nil:
            return applyOption(expression, to: &property, owner: owner, argument: argument, located: located)
        default:
            return notCarried("the DSL has no key for it")
        }
        return true
    }

    private mutating func applyOption(
        _ expression: ExprSyntax, to property: inout ImportedProperty, owner: String, argument: LabeledExprSyntax,
        located: Located<VariableDeclSyntax>
    ) -> Bool {
        if let call = expression.as(FunctionCallExprSyntax.self),
            call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "transformable"
        {
            let value = call.arguments.first?.expression
            guard
                let transformer = value.flatMap(SyntaxReading.stringLiteral)
                    ?? value.flatMap({ $0.as(MemberAccessExprSyntax.self)?.base.map(\.trimmedDescription) })
            else {
                note(located.position(argument), "option \(expression.trimmedDescription) on \(owner) is not carried")
                return false
            }
            property.transformer = transformer
            return true
        }
        guard let option = expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text else {
            note(located.position(argument), "option \(expression.trimmedDescription) on \(owner) is not carried")
            return false
        }
        switch PropertyKey.allCases.first(where: { $0.attributeOption == option }) {
        case .unique?: property.isUnique = true
        case .some: property.flags.append(option)
        case nil:
            note(located.position(argument), "option .\(option) on \(owner) is not carried")
            return false
        }
        return true
    }
}
