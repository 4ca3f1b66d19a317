/// The shape of an expression outside its brackets: values joined by operators, each value
/// with its prefixes and postfixes, as Swift's grammar has them. Strings and bracketed groups are
/// single tokens here (the tokenizer has checked them); whitespace decides, as in Swift, whether
/// an operator is prefix, postfix or binary.
extension SwiftExpression {
    struct Shape {
        enum Kind: Equatable {
            case word(String)
            case number
            /// A string literal or a bracketed group, with its opening scalar.
            case opaque(Unicode.Scalar)
            case op(String)
            case dot
            case colon
            case comma
        }

        struct Token {
            var kind: Kind
            var spaceBefore: Bool
            var spaceAfter: Bool
            var range: Range<Int>
        }

        let scalars: [Unicode.Scalar]
        var tokens: [Token] = []
        var position = 0
        /// Ternary `?`s waiting for their `:`.
        var pendingTernaries = 0
        /// Reading the inside of `( )` or `[ ]`, where an `if` is no value.
        var inGroup = false

        /// Words that cannot stand where a value is expected.
        static let notValues: Set<String> = [
            "in", "as", "is", "else", "where", "case", "catch", "do", "throws", "rethrows", "inout", "some", "any",
            "default", "try", "await",
        ]

        static let operatorScalars: Set<Unicode.Scalar> = Set("/=-+!*%<>&|^~?".unicodeScalars)
        /// The standard library's prefix operators.
        static let prefixOperators: Set<String> = ["-", "+", "!", "~", "...", "..<"]
        /// The standard library's infix operators that make a value (not `=` or `+=`, which are
        /// statements), and the ternary `?`.
        static let infixOperators: Set<String> = [
            "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "==", "!=", "===", "!==", "<", "<=", ">", ">=", "&&",
            "||", "??", "...", "..<", "~=", "&+", "&-", "&*", "&<<", "&>>", "?",
        ]

        init(scalars: [Unicode.Scalar], opaque spans: [Range<Int>]) {
            self.scalars = scalars
            let starts = Dictionary(spans.map { ($0.lowerBound, $0.upperBound) }, uniquingKeysWith: { a, _ in a })
            var index = 0
            var ranges: [(Kind, Range<Int>)] = []
            while index < scalars.count {
                let scalar = scalars[index]
                if let end = starts[index] {
                    ranges.append((.opaque(scalar), index..<end))
                    index = end
                } else if scalar.properties.isWhitespace {
                    index += 1
                } else if scalar == "_" || scalar == "$" || scalar == "#" || scalar.properties.isAlphabetic {
                    var end = index + 1
                    while end < scalars.count,
                        scalars[end] == "_" || scalars[end].properties.isAlphabetic
                            || scalars[end].properties.numericType != nil
                    {
                        end += 1
                    }
                    ranges.append((.word(String(String.UnicodeScalarView(scalars[index..<end]))), index..<end))
                    index = end
                } else if scalar.properties.numericType != nil {
                    let end = Self.numberEnd(scalars, from: index)
                    ranges.append((.number, index..<end))
                    index = end
                } else if scalar == "." {
                    var end = index + 1
                    while end < scalars.count, scalars[end] == "." || (end > index + 1 && scalars[end] == "<") {
                        end += 1
                    }
                    let text = String(String.UnicodeScalarView(scalars[index..<end]))
                    ranges.append((end - index == 1 ? .dot : .op(text), index..<end))
                    index = end
                } else if scalar == ":" {
                    ranges.append((.colon, index..<index + 1))
                    index += 1
                } else if scalar == "," {
                    ranges.append((.comma, index..<index + 1))
                    index += 1
                } else {
                    var end = index
                    while end < scalars.count, Self.operatorScalars.contains(scalars[end]) { end += 1 }
                    if end == index { end += 1 }
                    ranges.append((.op(String(String.UnicodeScalarView(scalars[index..<end]))), index..<end))
                    index = end
                }
            }
            tokens = ranges.map { kind, range in
                Token(
                    kind: kind,
                    spaceBefore: range.lowerBound == 0 || scalars[range.lowerBound - 1].properties.isWhitespace,
                    spaceAfter: range.upperBound >= scalars.count || scalars[range.upperBound].properties.isWhitespace,
                    range: range)
            }
        }

        /// Where a number literal ends: digits and `_`, a fraction and an exponent, or a `0x`, `0o`
        /// or `0b` literal; a letter after it starts another token (`1foo` is two).
        static func numberEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
            func isDigit(_ index: Int, hex: Bool = false) -> Bool {
                guard index < scalars.count else { return false }
                let c = scalars[index]
                return ("0"..."9").contains(c) || c == "_"
                    || (hex && (("a"..."f").contains(c) || ("A"..."F").contains(c)))
            }
            var end = start + 1
            if scalars[start] == "0", end < scalars.count, ["x", "o", "b"].contains(scalars[end]) {
                let hex = scalars[end] == "x"
                end += 1
                while isDigit(end, hex: hex) { end += 1 }
                return end
            }
            while isDigit(end) { end += 1 }
            if end + 1 < scalars.count, scalars[end] == ".", ("0"..."9").contains(scalars[end + 1]) {
                end += 1
                while isDigit(end) { end += 1 }
            }
            if end < scalars.count, scalars[end] == "e" || scalars[end] == "E" {
                var exponent = end + 1
                if exponent < scalars.count, scalars[exponent] == "+" || scalars[exponent] == "-" { exponent += 1 }
                if exponent < scalars.count, ("0"..."9").contains(scalars[exponent]) {
                    end = exponent
                    while isDigit(end) { end += 1 }
                }
            }
            return end
        }

        var current: Token? { position < tokens.count ? tokens[position] : nil }

        /// Whether the token at `index` has nothing it binds to on its left, as a prefix operator needs.
        func freeOnTheLeft(_ index: Int) -> Bool {
            guard index > 0, !tokens[index].spaceBefore else { return true }
            switch tokens[index - 1].kind {
            case .op, .colon, .comma: return true
            default: return false
            }
        }

        /// Nil when the tokens are one expression; otherwise what is wrong, in words.
        mutating func problem() -> String? {
            // `1is`, `.5foo`: Swift reads a number run into a name as one malformed literal.
            for index in tokens.indices.dropFirst()
            where tokens[index - 1].kind == .number && !tokens[index].spaceBefore {
                if case .word = tokens[index].kind { return "a number runs into a name; put a space between them" }
            }
            if let problem = expression() { return problem }
            if pendingTernaries > 0 { return "a '?' has no ':'; write a complete expression" }
            guard let extra = current else { return nil }
            return "\(describe(extra)) follows a complete expression; write one expression"
        }

        private func describe(_ token: Token) -> String {
            switch token.kind {
            case .word(let word): return "'\(word)'"
            case .number: return "a number"
            case .opaque(let open): return open == "\"" || open == "#" ? "a string" : "'\(open)'"
            case .op(let text): return "'\(text)'"
            case .dot: return "'.'"
            case .colon: return "':'"
            case .comma: return "','"
            }
        }

        private mutating func expression() -> String? {
            if let problem = unit(leading: true) { return problem }
            while let token = current {
                switch token.kind {
                case .word("as"), .word("is"):
                    position += 1
                    if case .op(let mark)? = current?.kind, mark == "?" || mark == "!", current?.spaceBefore == false {
                        // `as?`, `as!`; Swift has no `is?` or `is!`.
                        guard token.kind == .word("as") else { return "'is\(mark)' is not Swift; write 'is'" }
                        position += 1
                    }
                    if let problem = type() { return problem }
                case .op(let text) where token.spaceBefore == token.spaceAfter:
                    guard Self.infixOperators.contains(text) else {
                        return "'\(text)' is not an operator that joins two values here; write one expression"
                    }
                    // Swift's parser does not read `a??"b"` as `a ?? "b"`, nor `$0??$0` as `$0 ?? $0`:
                    // a `?` or `!` bound to the value on its left is that value's postfix.
                    if !token.spaceAfter, position + 1 < tokens.count,
                        case .opaque(let open) = tokens[position + 1].kind,
                        open == "\"" || open == "#"
                    {
                        return "write spaces around '\(text)' before a string; write one expression"
                    }
                    if !token.spaceBefore, text.hasPrefix("?") || text.hasPrefix("!") {
                        return "write spaces around '\(text)'; write one expression"
                    }
                    position += 1
                    if text == "?" { pendingTernaries += 1 }
                    if let problem = unit() { return problem }
                case .colon where pendingTernaries > 0:
                    pendingTernaries -= 1
                    position += 1
                    if let problem = unit() { return problem }
                default:
                    return nil
                }
            }
            return nil
        }

        /// A value with its prefix operators, `try` and `await`, and its postfixes.
        /// `leading`: the expression's first value, the only one `try` and `await` may mark (Swift
        /// refuses them to the right of an operator).
        private mutating func unit(leading: Bool = false) -> String? {
            while case .word(let word)? = current?.kind, word == "try" || word == "await" {
                guard leading else { return "'\(word)' stands right of an operator; put it at the expression's start" }
                position += 1
                if word == "try", case .op(let mark)? = current?.kind, mark == "?" || mark == "!",
                    current?.spaceBefore == false
                {
                    position += 1
                    // `try?...x`: Swift reads the operators run together.
                    if case .op? = current?.kind, current?.spaceBefore == false {
                        return "write a space after 'try\(mark)'"
                    }
                }
            }
            if let token = current, case .op(let text) = token.kind, !token.spaceAfter,
                Self.prefixOperators.contains(text), freeOnTheLeft(position)
            {
                position += 1
            }
            guard let token = current else { return "it ends where a value is expected; write a complete expression" }
            switch token.kind {
            case .word(let word) where word == "if" || word == "switch":
                // Swift takes `if` as a value only as the whole expression, not as an operand.
                guard position == 0, !inGroup else {
                    return
                        "'\(word)' used as a value must be the whole expression; wrap it in a closure called in place"
                }
                if let problem = conditional(word) { return problem }
                return current.map { "\(describe($0)) follows an 'if' used as a value; write it alone" }
            case .word(let word)
            where Self.notValues.contains(word) || word == "_" || SwiftExpression.statementWords.contains(word)
                || (word.hasPrefix("#") && word.unicodeScalars.dropFirst().first?.properties.isAlphabetic != true):
                return "'\(word)' stands where a value is expected; write a complete expression"
            // `$0`, `$1`: digits after the `$`, at least one (a `$` alone is no name).
            case .word(let word)
            where word.hasPrefix("$") && (word.count < 2 || !word.dropFirst().allSatisfy(\.isNumber)):
                return "'\(word)' is not a name Swift reads; write a complete expression"
            case .word, .number:
                position += 1
            case .opaque:
                if let problem = group(token, asValue: true) { return problem }
                position += 1
            case .dot:
                // An implicit member: `.open`.
                guard position + 1 < tokens.count, case .word = tokens[position + 1].kind,
                    isMemberName(tokens[position + 1]), !token.spaceAfter
                else {
                    return "'.' needs a member name after it; write a complete expression"
                }
                position += 2
            default:
                return "\(describe(token)) stands where a value is expected; write a complete expression"
            }
            return postfixes()
        }

        /// A name, a call or a subscript: what a trailing closure may follow (not a literal).
        static func takesTrailingClosure(_ token: Token) -> Bool {
            switch token.kind {
            case .word(let word): return !["nil", "true", "false", "self", "Self", "super"].contains(word)
            case .opaque(let open): return open == "("
            default: return false
            }
        }

        /// A name after `.`: an identifier, or a number for a tuple's element.
        private func isMemberName(_ token: Token) -> Bool {
            switch token.kind {
            case .number: return true
            case .word(let word):
                return !word.hasPrefix("$") && !word.hasPrefix("#") && word != "_" && !token.spaceBefore
            default: return false
            }
        }

        /// The inside of `( )` or `[ ]`: values separated by commas (a label before each in
        /// parentheses, `key: value` in brackets), or a compound name's labels (`(rawValue:)`);
        /// the inside of `{ }`, a closure's body (`SwiftExpression+Closure`).
        private func group(_ token: Token, asValue: Bool = false) -> String? {
            guard case .opaque(let open) = token.kind, open == "(" || open == "[" || open == "{" else { return nil }
            let inner = Array(scalars[(token.range.lowerBound + 1)..<(token.range.upperBound - 1)])
            if open == "{" { return SwiftExpression.closureBodyProblem(inner) }
            var scanner = Scanner(inner)
            scanner.inList = true
            if let problem = scanner.run() { return problem }
            var list = Shape(scalars: inner, opaque: scanner.spans)
            list.inGroup = true
            return list.elements(in: open, asValue: asValue)
        }

        /// `asValue`: the group stands alone (`(a, b)`), so it cannot be a compound name's labels.
        mutating func elements(in open: Unicode.Scalar, asValue: Bool = false) -> String? {
            let isLabels = tokens.indices.allSatisfy { index in
                if index % 2 == 0, case .word = tokens[index].kind { return true }
                return index % 2 == 1 && tokens[index].kind == .colon
            }
            if isLabels && !tokens.isEmpty && tokens.count % 2 == 0 && open == "(" && asValue {
                return "'(\(String(String.UnicodeScalarView(scalars))))' names labels, but no function before it"
            }
            // `f(a:)`: each label runs into its colon.
            if isLabels && !tokens.isEmpty && tokens.count % 2 == 0 && open == "(",
                tokens.contains(where: { $0.kind == .colon && $0.spaceBefore })
            {
                return "write each label of a function's name right before its ':'"
            }
            if tokens.isEmpty || (isLabels && tokens.count % 2 == 0 && open == "(") { return nil }
            if open == "[", tokens.count == 1, tokens[0].kind == .colon { return nil }
            while current != nil {
                if open == "(", case .word? = current?.kind, position + 1 < tokens.count,
                    tokens[position + 1].kind == .colon
                {
                    position += 2
                }
                if let problem = expression() { return problem }
                if open == "[", current?.kind == .colon {
                    position += 1
                    if let problem = expression() { return problem }
                }
                if pendingTernaries > 0 { return "a '?' has no ':'; write a complete expression" }
                guard let token = current else { return nil }
                guard token.kind == .comma else {
                    return "\(describe(token)) follows a complete value inside '\(open)'; separate values with ','"
                }
                position += 1
            }
            return nil
        }

        private mutating func postfixes() -> String? {
            var afterClosure = false
            while let token = current {
                defer { afterClosure = token.kind == .opaque("{") }
                switch token.kind {
                case .dot:
                    guard position + 1 < tokens.count, !token.spaceAfter, isMemberName(tokens[position + 1]) else {
                        return nil
                    }
                    position += 2
                case .op(let text) where !token.spaceBefore && (text == "?" || text == "!" || text == "..."):
                    // `x?.y`, `x!`, `1...`: bound to the value on their left.
                    guard text != "..." || token.spaceAfter || position + 1 == tokens.count else { return nil }
                    position += 1
                case .opaque(let open) where open == "(" || open == "[" || open == "{":
                    if open == "{" && afterClosure {
                        return "a second trailing closure needs its label ('label: { … }'); write one expression"
                    }
                    if open == "[", !scalars[token.range].contains(where: { !"[: ]".unicodeScalars.contains($0) }),
                        scalars[token.range].contains(":")
                    {
                        return "'[:]' is an empty dictionary, not a subscript; write one expression"
                    }
                    if open == "{", position > 0, !Self.takesTrailingClosure(tokens[position - 1]) {
                        return "a closure follows \(describe(tokens[position - 1])), which takes no trailing closure; "
                            + "write one expression"
                    }
                    // `f(a:)` names a function by its labels only right after its name.
                    let afterName =
                        position > 0
                        && {
                            if case .word(let name) = tokens[position - 1].kind { return !name.hasPrefix("$") }
                            return false
                        }()
                    if let problem = group(token, asValue: !afterName) { return problem }
                    position += 1
                default:
                    return nil
                }
            }
            return nil
        }

        /// `if … { … } else { … }` or `switch … { … }` used as a value (Swift 5.9).
        private mutating func conditional(_ word: String) -> String? {
            // A `switch` used as a value has clauses this check does not read.
            guard word == "if" else { return "a 'switch' used as a value is not checked here; write if/else or '? :'" }
            let start = position
            position += 1
            while let token = current, token.kind != .opaque("{") { position += 1 }
            guard let body = current else { return "'\(word)' has no body; write a complete expression" }
            let condition = Array(scalars[tokens[start].range.upperBound..<body.range.lowerBound])
            if let problem = SwiftExpression.conditionProblem(condition) { return problem }
            if let problem = branchProblem(body) { return problem }
            position += 1
            guard current?.kind == .word("else") else { return "an 'if' used as a value needs an 'else'" }
            position += 1
            if current?.kind == .word("if") { return conditional("if") }
            guard let other = current, other.kind == .opaque("{") else {
                return "'else' needs a body; write a complete expression"
            }
            if let problem = branchProblem(other) { return problem }
            position += 1
            return nil
        }

        /// A branch of an `if` used as a value: one expression.
        private func branchProblem(_ token: Token) -> String? {
            let inner = String(
                String.UnicodeScalarView(scalars[(token.range.lowerBound + 1)..<(token.range.upperBound - 1)]))
            let value = String(inner.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
            return SwiftExpression.problem(in: value).map { "in a branch of 'if': \($0)" }
        }

        /// The type after `as` or `is`: a name with its generic arguments and members, or a
        /// bracketed type, then `?` or `!` bound to it.
        private mutating func type() -> String? {
            guard let token = current else { return "'as' or 'is' needs a type after it" }
            switch token.kind {
            case .opaque(let open) where open == "[" || open == "(":
                // `[Int]`, `(Int, String)`, `(Int) -> Bool`: names and the marks of types, no other word.
                let inner = String(String.UnicodeScalarView(scalars[token.range].dropFirst().dropLast()))
                let words = inner.split { !($0 == "_" || $0.isLetter || $0.isNumber) }
                guard !inner.allSatisfy(\.isWhitespace) || open == "(",
                    inner.allSatisfy({ "_.,:?!<>[]()- ".contains($0) || $0.isLetter || $0.isNumber }),
                    !words.contains(where: {
                        Identifier.keywords.contains(String($0)) || Self.notValues.contains(String($0))
                            || $0.first?.isNumber == true
                    })
                else { return "'as' or 'is' needs a type after it" }
                position += 1
            case .word(let name)
            where !name.hasPrefix("$") && !name.hasPrefix("#") && !Self.notValues.contains(name)
                && !["nil", "true", "false", "self", "super"].contains(name) && !Identifier.keywords.contains(name):
                position += 1
                while true {
                    if case .op(let text)? = current?.kind, text.hasPrefix("<"), current?.spaceBefore == false {
                        var depth = 0
                        while let next = current {
                            if case .op(let angles) = next.kind {
                                depth += angles.filter { $0 == "<" }.count - angles.filter { $0 == ">" }.count
                            }
                            position += 1
                            if depth <= 0 { break }
                        }
                    } else if current?.kind == .dot, position + 1 < tokens.count,
                        case .word = tokens[position + 1].kind
                    {
                        position += 2
                    } else {
                        break
                    }
                }
            default:
                return "'as' or 'is' needs a type after it"
            }
            while case .op(let mark)? = current?.kind, mark == "?" || mark == "!", current?.spaceBefore == false {
                position += 1
            }
            return nil
        }
    }
}
