import SwiftParser
import SwiftSyntax

/// What a declaration's syntax says on its own, without resolving any name: names, attributes,
/// inherited types, literals, doc comments.
enum SyntaxReading {
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
        } else if let call = expression.as(FunctionCallExprSyntax.self) {
            return constructedType(call)
        } else if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
            let type = typeName(base), member.declName.baseName.text.first?.isLowercase == true
        {
            // `Date.now`, `Date.distantPast`, `Status.active`: a static member or case of the type.
            return TypeSyntax(IdentifierTypeSyntax(name: .identifier(type)))
        } else {
            return nil
        }
        return TypeSyntax(IdentifierTypeSyntax(name: .identifier(name)))
    }

    /// Argument labels of initializers that may fail, so `T(label: …)` is `T?`, not `T`.
    static let failableLabels: Set<String> = ["string", "uuidString", "base64Encoded", "rawValue", "contentsOf"]

    /// The type a call builds, as Swift types it: `T()` and `T(label: …)` are `T`, `[T]()` is `[T]`,
    /// `[K: V]()` is `[K: V]`; nil where it could be another (a failable initializer, an unlabeled
    /// conversion such as `Int(text)`, a function).
    private static func constructedType(_ call: FunctionCallExprSyntax) -> TypeSyntax? {
        if let array = call.calledExpression.as(ArrayExprSyntax.self), call.arguments.isEmpty,
            array.elements.count == 1, let element = array.elements.first.flatMap({ typeName($0.expression) })
        {
            return TypeSyntax(ArrayTypeSyntax(element: IdentifierTypeSyntax(name: .identifier(element))))
        }
        if let dictionary = call.calledExpression.as(DictionaryExprSyntax.self), call.arguments.isEmpty,
            case .elements(let elements) = dictionary.content, elements.count == 1, let pair = elements.first,
            let key = typeName(pair.key), let value = typeName(pair.value)
        {
            return TypeSyntax(
                DictionaryTypeSyntax(
                    key: IdentifierTypeSyntax(name: .identifier(key)),
                    value: IdentifierTypeSyntax(name: .identifier(value))))
        }
        guard let type = typeName(call.calledExpression), call.trailingClosure == nil else { return nil }
        for argument in call.arguments {
            guard let label = argument.label?.text, !failableLabels.contains(label) else { return nil }
        }
        return TypeSyntax(IdentifierTypeSyntax(name: .identifier(type)))
    }

    /// A written type name (`Date`, `Foundation.Date`): a capitalized reference, as types are named.
    private static func typeName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil,
            reference.baseName.text.first?.isUppercase == true
        {
            return reference.baseName.text
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, typeName(base) != nil,
            member.declName.baseName.text.first?.isUppercase == true
        {
            return member.declName.baseName.text
        }
        return nil
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

    /// The value the compiler makes of a string literal: escapes (`\u{32}`), raw (`#"…"#`) and
    /// multi-line literals, indentation and all; nil where it interpolates or is no literal.
    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
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

    /// The `X.self` expressions below `syntax`, with the type path each names: a schema's
    /// `models` list.
    static func typeReferences(in syntax: Syntax) -> [(path: [String], node: Syntax)] {
        if let member = syntax.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
            let base = member.base
        {
            return [(expressionPath(base), Syntax(base))]
        }
        return syntax.children(viewMode: .sourceAccurate).flatMap { typeReferences(in: $0) }
    }

    /// `A.B.C` written as an expression, as names.
    static func expressionPath(_ expression: ExprSyntax) -> [String] {
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            return expressionPath(base) + [unescaped(member.declName.baseName)]
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return [unescaped(reference.baseName)] }
        if let type = expression.as(TypeExprSyntax.self) { return DeclarationTree.typePath(type.type) }
        return [expression.trimmedDescription]
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
}
