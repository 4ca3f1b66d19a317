/// The body of a closure in an expression (`$0.map { String($0) }`, `{ let d = Date(); return d }()`):
/// an optional signature before `in`, then statements, one a line or separated by `;`, each an
/// expression, `return` with an optional expression, or `let`/`var` with a name, an optional type
/// and a value. Anything else a closure may hold (loops, `if` statements, declarations) is refused:
/// an initial value or a conversion needs none of it, and this check stays one a generator without a
/// parser can make.
extension SwiftExpression {
    /// Nil when `body` (between the braces) is such a body; otherwise what is wrong, in words.
    static func closureBodyProblem(_ body: [Unicode.Scalar], allowsSignature: Bool = true) -> String? {
        var statements = Self.statements(of: body)
        if allowsSignature, let first = statements.first?.scalars, let signature = Self.signatureEnd(first) {
            // A signature names parameters and types; `for a in b` is a statement, not one.
            let words = String(String.UnicodeScalarView(first[..<signature])).split { !($0 == "_" || $0.isLetter) }
            if let word = words.dropLast().first(where: {
                statementWords.contains(String($0)) || Self.statementStarts.contains(String($0))
            }) {
                return
                    "in a closure: '\(word)' starts a statement a closure here does not take; use expressions, 'let' "
                    + "and 'return'"
            }
            if let problem = Self.signatureProblem(Array(first[..<(signature - 2)])) {
                return "in a closure's signature: \(problem)"
            }
            if signature < first.count, "/=-+!*%<>&|^~?.".unicodeScalars.contains(first[signature]) {
                return "in a closure: write a space after 'in'"
            }
            statements[0].scalars = Array(first[signature...])
        }
        for statement in statements {
            let text = trimmed(String(String.UnicodeScalarView(statement.scalars)))
            guard !text.isEmpty else {
                // `;` ends a statement: one with nothing before it is not Swift.
                if statement.endsWithSemicolon { return "in a closure: ';' follows no statement" }
                continue
            }
            if let problem = Self.statementProblem(text) { return "in a closure: \(problem)" }
        }
        return nil
    }

    /// A closure's signature before `in`: a capture list, then parameters, as names separated by
    /// commas or in parentheses (then `async`, `throws`, `-> Type`); nothing at all is not one.
    private static func signatureProblem(_ signature: [Unicode.Scalar]) -> String? {
        let rest = trimmed(String(String.UnicodeScalarView(signature)))
        if rest.hasPrefix("[") { return "a capture list is not needed in a value; leave it out" }
        if rest.isEmpty { return "write the parameters' names before 'in', or leave 'in' out" }
        if rest.hasPrefix("(") {
            // `(a: Int, b)`, then `async`, `throws` and `-> Type`: the types are the compiler's.
            var depth = 0
            guard
                let close = rest.firstIndex(where: { character in
                    if character == "(" { depth += 1 }
                    if character == ")" { depth -= 1 }
                    return depth == 0
                })
            else { return "its parameter list is not closed" }
            let inside = rest[rest.index(after: rest.startIndex)..<close]
            if let word = inside.split(whereSeparator: { !($0 == "_" || $0.isLetter || $0.isNumber) }).first(where: {
                statementWords.contains(String($0))
            }) {
                return "'\(word)' cannot stand in a parameter list"
            }
            // Each parameter: one or two names (`_ x`), then `: Type` where written.
            for item in inside.split(separator: ",", omittingEmptySubsequences: false) where !inside.isEmpty {
                let parts = item.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let names = trimmed(parts[0]).split(separator: " ")
                let type = parts.count > 1 ? trimmed(parts[1]) : "-"
                let named = names.allSatisfy { name in
                    name.unicodeScalars.first.map { $0 == "_" || $0.properties.isAlphabetic } == true
                        && name.unicodeScalars.allSatisfy(continuesWord)
                }
                let typed = type.allSatisfy {
                    $0 == "_" || $0 == "." || $0 == "?" || $0 == "[" || $0 == "]" || $0 == "<" || $0 == ">" || $0 == " "
                        || $0 == "-" || $0.isLetter || $0.isNumber
                }
                guard (1...2).contains(names.count), named, !type.isEmpty, typed else {
                    return "its parameter list holds more than names and types"
                }
            }
            var effects = trimmed(rest[rest.index(after: close)...])
            for word in ["async", "throws"] where effects.hasPrefix(word) {
                effects = trimmed(effects.dropFirst(word.count))
            }
            guard effects.isEmpty || effects.hasPrefix("->") else { return "'\(effects)' follows its parameters" }
            let result = trimmed(effects.dropFirst(2))
            if effects.hasPrefix("->"),
                result.isEmpty || !(result.first.map { $0 == "_" || $0 == "[" || $0 == "(" || $0.isLetter } ?? false)
                    || result.contains(where: {
                        !($0 == "_" || $0 == "." || $0 == "?" || $0 == "[" || $0 == "]"
                            || $0 == "<" || $0 == ">" || $0 == "," || $0 == ":" || $0 == " " || $0.isLetter
                            || $0.isNumber)
                    })
            {
                return "'->' needs a result type"
            }
            return nil
        }
        for name in rest.split(separator: ",", omittingEmptySubsequences: false) {
            let name = trimmed(name)
            guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic,
                name.unicodeScalars.allSatisfy(continuesWord), name == "_" || !Identifier.keywords.contains(name)
            else { return "'\(name)' is not a parameter's name" }
        }
        return nil
    }

    /// Words that start a statement besides `statementWords`, which a closure here does not take.
    static let statementStarts: Set<String> = ["switch", "do", "else", "case", "catch"]

    /// `if c { … } else if c { … } else { … }` or `guard c else { … return … }` as a statement of a
    /// closure: conditions, and bodies that are closure bodies themselves (a `guard`'s ending in
    /// `return`, which Swift requires).
    private static func conditionalStatementProblem(_ word: String, _ text: [Unicode.Scalar]) -> String? {
        var scanner = Scanner(text)
        scanner.inList = true
        scanner.inBody = true
        if let problem = scanner.run() { return problem }
        guard let body = scanner.spans.first(where: { text[$0.lowerBound] == "{" }) else {
            return "'\(word)' has no body"
        }
        var conditionEnd = body.lowerBound
        if word == "guard" {
            let before = trimmed(String(String.UnicodeScalarView(text[..<body.lowerBound])))
            guard before.hasSuffix(" else") else { return "'guard' needs 'else' before its body" }
            conditionEnd = text[..<body.lowerBound].lastIndex(of: "e").map { $0 - 3 } ?? body.lowerBound
        }
        if let problem = conditionProblem(Array(text[word.unicodeScalars.count..<conditionEnd])) { return problem }
        let inner = Array(text[(body.lowerBound + 1)..<(body.upperBound - 1)])
        if let problem = closureBodyProblem(inner, allowsSignature: false) { return problem }
        let rest = trimmed(String(String.UnicodeScalarView(text[body.upperBound...])))
        if word == "guard" {
            let last = statements(of: inner).map { trimmed(String(String.UnicodeScalarView($0.scalars))) }
                .last { !$0.isEmpty }
            guard last?.hasPrefix("return") == true else { return "a 'guard' body must end in 'return'" }
            return rest.isEmpty ? nil : "'\(rest)' follows the 'guard' statement"
        }
        guard !rest.isEmpty else { return nil }
        if rest.hasPrefix("{") { return "a closure in a condition needs parentheses around it" }
        guard rest.hasPrefix("else") else { return "'\(rest)' follows the 'if' statement" }
        let alternative = trimmed(rest.dropFirst(4))
        if alternative.hasPrefix("if ") { return conditionalStatementProblem("if", Array(alternative.unicodeScalars)) }
        guard alternative.hasPrefix("{"), alternative.hasSuffix("}") else { return "'else' needs a body" }
        return closureBodyProblem(Array(alternative.unicodeScalars.dropFirst().dropLast()), allowsSignature: false)
    }

    /// The conditions of an `if` or `guard`: expressions and optional bindings (`let x = e`,
    /// `let x`), separated by commas; a closure in a condition needs parentheses.
    static func conditionProblem(_ condition: [Unicode.Scalar]) -> String? {
        var scanner = Scanner(condition)
        scanner.inList = true
        scanner.inBody = true
        if let problem = scanner.run() { return problem }
        if scanner.spans.contains(where: { condition[$0.lowerBound] == "{" }) {
            return "a closure in a condition needs parentheses around it"
        }
        func inside(_ index: Int) -> Bool { scanner.spans.contains { $0.lowerBound < index && index < $0.upperBound } }
        var parts: [String] = []
        var current: [Unicode.Scalar] = []
        for (index, scalar) in condition.enumerated() {
            if scalar == ",", !inside(index) {
                parts.append(trimmed(String(String.UnicodeScalarView(current))))
                current = []
            } else {
                current.append(scalar)
            }
        }
        parts.append(trimmed(String(String.UnicodeScalarView(current))))
        for part in parts {
            guard !part.isEmpty else { return "a condition is missing" }
            let word = String(part.prefix { $0.isLetter })
            if word == "let" || word == "var" {
                let rest = trimmed(part.dropFirst(word.count))
                let name = String(rest.prefix { $0 == "_" || $0.isLetter || $0.isNumber })
                guard !name.isEmpty, name.first?.isNumber == false, !Identifier.keywords.contains(name) else {
                    return "'\(word)' in a condition needs a name"
                }
                let value = trimmed(rest.dropFirst(name.count))
                if value.isEmpty { continue }
                guard value.hasPrefix("= ") else { return "'\(word) \(name)' needs ' = value'" }
                if let problem = problem(in: String(value.dropFirst(2))) { return problem }
            } else if word == "case" {
                return "'case' patterns in a condition are not checked here; compare with '==' instead"
            } else if let problem = problem(in: part) {
                return problem
            }
        }
        return nil
    }

    /// One statement of a closure's body.
    private static func statementProblem(_ text: String) -> String? {
        let word = String(text.prefix { $0 == "_" || $0.isLetter || $0.isNumber })
        switch word {
        case "return":
            let value = trimmed(text.dropFirst(word.count))
            return value.isEmpty ? nil : problem(in: value)
        case "if", "guard":
            return conditionalStatementProblem(word, Array(text.unicodeScalars))
        case "let", "var":
            let rest = trimmed(text.dropFirst(word.count))
            let name = String(rest.prefix { $0 == "_" || $0.isLetter || $0.isNumber })
            guard let start = name.unicodeScalars.first, start == "_" || start.properties.isAlphabetic,
                !Identifier.keywords.contains(name) || name == "_"
            else { return "'\(word)' needs a name; write '\(word) name = value'" }
            let afterName = rest.dropFirst(name.count)
            let scalars = Array(afterName.unicodeScalars)
            guard let equals = Self.topLevelEquals(in: scalars) else {
                return "'\(word) \(name)' needs '= value'"
            }
            // Before `=` stands the name (or its type), so only a space there is a space.
            let spaced = { (index: Int) in
                index >= scalars.count || (index >= 0 && scalars[index].properties.isWhitespace)
            }
            guard spaced(equals - 1) == spaced(equals + 1) else {
                return "'=' needs consistent whitespace on both sides"
            }
            let annotation = trimmed(String(String.UnicodeScalarView(Array(afterName.unicodeScalars)[..<equals])))
            if !annotation.isEmpty
                && (!annotation.hasPrefix(":") || trimmed(annotation.dropFirst()).isEmpty)
            {
                return "'\(word) \(name)' is followed by '\(annotation)' where ': Type' or '=' belongs"
            }
            return problem(in: String(String.UnicodeScalarView(Array(afterName.unicodeScalars)[(equals + 1)...])))
        default:
            if statementWords.contains(word) || statementStarts.contains(word) {
                return "'\(word)' starts a statement a closure here does not take; use expressions, 'let' and "
                    + "'return'"
            }
            return problem(in: text)
        }
    }

    /// The body split into statements at `;` and at line breaks outside brackets and strings; a
    /// line that starts with `.` or an operator, or follows one that ends with an operator, `.` or
    /// `,`, continues the statement before it (joined by a space).
    private static func statements(of body: [Unicode.Scalar]) -> [(scalars: [Unicode.Scalar], endsWithSemicolon: Bool)]
    {
        var scanner = Scanner(body)
        scanner.inList = true
        scanner.inBody = true
        _ = scanner.run()
        let opaque = scanner.spans
        func inside(_ index: Int) -> Bool { opaque.contains { $0.lowerBound < index && index < $0.upperBound } }
        let continuing: Set<Unicode.Scalar> = Set("+-*/%=<>&|^?:.,!".unicodeScalars)
        var result: [(scalars: [Unicode.Scalar], endsWithSemicolon: Bool)] = []
        var current: [Unicode.Scalar] = []
        var index = 0
        while index < body.count {
            let scalar = body[index]
            if scalar == ";" || scalar == "\n" || scalar == "\r", !inside(index) {
                let next = body[(index + 1)...].first { !$0.properties.isWhitespace }
                let last = current.last { !$0.properties.isWhitespace }
                // `}\nelse {` continues an `if`.
                let startsElse = body[(index + 1)...].drop { $0.properties.isWhitespace }.prefix(4).elementsEqual(
                    "else".unicodeScalars)
                let joins =
                    scalar != ";"
                    && (startsElse || (next.map { $0 == "." || (continuing.contains($0) && $0 != "!") } ?? false)
                        || (last.map { continuing.contains($0) && $0 != "!" && $0 != "?" } ?? false))
                if joins {
                    current.append(" ")
                } else {
                    result.append((current, scalar == ";"))
                    current = []
                }
            } else {
                current.append(scalar)
            }
            index += 1
        }
        result.append((current, false))
        return result
    }

    /// Where the statements start after a signature (`x in`, `(a, b) in`, `[weak self] x in`): just
    /// after the first `in` word outside brackets, when there is one.
    private static func signatureEnd(_ statement: [Unicode.Scalar]) -> Int? {
        var depth = 0
        var index = 0
        while index < statement.count {
            let scalar = statement[index]
            if "([{".unicodeScalars.contains(scalar) { depth += 1 }
            if ")]}".unicodeScalars.contains(scalar) { depth -= 1 }
            if scalar == "\"" { return nil }
            if depth == 0, scalar == "i", index + 1 < statement.count, statement[index + 1] == "n",
                index == 0 || !Self.continuesWord(statement[index - 1]),
                index + 2 == statement.count || !Self.continuesWord(statement[index + 2])
            {
                return index + 2
            }
            index += 1
        }
        return nil
    }

    private static func trimmed(_ text: some StringProtocol) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// A scalar that may continue a Swift name (`in$0` is one name).
    private static func continuesWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// The first `=` outside brackets that is not part of an operator (`==`, `<=`, `!=`).
    private static func topLevelEquals(in scalars: [Unicode.Scalar]) -> Int? {
        var depth = 0
        for (index, scalar) in scalars.enumerated() {
            if "([{<".unicodeScalars.contains(scalar) { depth += 1 }
            if ")]}>".unicodeScalars.contains(scalar) { depth -= 1 }
            guard depth == 0, scalar == "=" else { continue }
            let before = index > 0 ? scalars[index - 1] : " "
            let after = index + 1 < scalars.count ? scalars[index + 1] : " "
            if !"=!<>+-*/%&|^~".unicodeScalars.contains(before) && after != "=" { return index }
        }
        return nil
    }
}
