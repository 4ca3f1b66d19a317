/// `expression:` and `from.convert` are the only Swift the generator inserts as written, inside a
/// property's initial value or a conversion closure. Each must be exactly one expression: text
/// that closes the closure, ends the statement or comments out the rest of the line could add
/// declarations while the output still compiles and the migration converts nothing. This is a
/// tokenizer, not a parser: strings (with interpolation, multi-line and raw forms), comments and
/// brackets are followed exactly; everything else is left to the compiler.
public enum SwiftExpression {
    /// Words that begin a declaration or a statement, never an expression.
    static let statementWords: Set<String> = [
        "let", "var", "func", "class", "struct", "enum", "protocol", "extension", "import", "typealias", "actor",
        "macro",
        "return", "throw", "defer", "guard", "while", "for", "repeat", "break", "continue", "fallthrough",
        "init", "deinit", "subscript", "operator", "precedencegroup", "associatedtype",
        "static", "public", "private", "fileprivate", "internal", "open", "package", "final", "override",
    ]

    /// Compiler directives, which act on the file around the expression.
    static let directives: Set<String> = ["if", "elseif", "else", "endif", "error", "warning", "sourceLocation"]

    /// Nil when `text` holds one expression as far as the tokens tell; otherwise what is wrong,
    /// in words for a diagnostic.
    public static func problem(in text: String) -> String? {
        var scanner = Scanner(Array(text.unicodeScalars))
        if let problem = scanner.run() { return problem }
        var shape = Shape(scalars: scanner.scalars, opaque: scanner.spans)
        return shape.problem()
    }

    struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        /// Open brackets; `\` stands for a string interpolation, which returns to its string.
        var stack: [Unicode.Scalar] = []
        /// Strings whose interpolation is being read: their `#` count and whether multi-line.
        var openStrings: [(Int, Bool)] = []
        var sawToken = false
        /// Strings and bracketed groups outside any bracket, whose insides the shape check skips.
        var spans: [Range<Int>] = []
        var spanStart: Int?
        /// Reading the inside of `( )` or `[ ]`: commas and line breaks separate or continue its
        /// elements there, and it may be empty.
        var inList = false
        /// Reading a closure's body, whose statements `SwiftExpression+Closure` checks one by one:
        /// statement words and `;` are theirs to judge.
        var inBody = false

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        mutating func run() -> String? {
            while let scalar = peek() {
                if scalar == "/" && (peek(1) == "/" || peek(1) == "*") {
                    return "it holds a comment, which could hide the code after it; remove the comment"
                }
                if scalar == "\"" || (scalar == "#" && isRawStringStart()) {
                    if stack.isEmpty { spanStart = index }
                    if let problem = string() { return problem }
                    closeSpan()
                    sawToken = true
                    continue
                }
                if scalar == "#", let word = word(at: index + 1), directives.contains(word) {
                    return "it holds the compiler directive #\(word); write a plain expression"
                }
                if isIdentifierStart(scalar) {
                    let word = word(at: index) ?? ""
                    // `.open`, `x.static`: a member's name, not a keyword.
                    // After one `.`, not after `...` (a range's operator).
                    let before = Array(scalars[..<index].filter { !$0.properties.isWhitespace }.suffix(2))
                    let isMember = before.last == "." && (before.count < 2 || before[0] != ".")
                    // `for:` in a call's arguments is a label, not a statement.
                    let isLabel =
                        inList
                        && scalars[(index + word.unicodeScalars.count)...].first { !$0.properties.isWhitespace } == ":"
                    if stack.isEmpty && !isMember && !isLabel && !inBody && statementWords.contains(word) {
                        return
                            "'\(word)' starts a declaration or statement; write one expression, such as a call or "
                            + "a closure called in place ({ … }())"
                    }
                    index += word.unicodeScalars.count
                    sawToken = true
                    continue
                }
                switch scalar {
                case "(", "[", "{":
                    if stack.isEmpty { spanStart = index }
                    stack.append(scalar)
                case ")", "]", "}":
                    guard let open = stack.last, open == matching(scalar) || (open == "\\" && scalar == ")") else {
                        return "'\(scalar)' closes a bracket that was not opened here; the brackets must balance"
                    }
                    stack.removeLast()
                    if open == "\\" {
                        // Back inside the string the interpolation was part of.
                        index += 1
                        if let problem = string(resuming: true) { return problem }
                        closeSpan()
                        continue
                    }
                    if stack.isEmpty {
                        index += 1
                        closeSpan()
                        sawToken = true
                        continue
                    }
                case ";" where stack.isEmpty && !inBody:
                    return "';' ends a statement; write one expression"
                case "," where stack.isEmpty && !inList:
                    // `var n: Int = 1, c = 2` declares a second stored property.
                    return "',' outside brackets starts another declaration; write one expression (a tuple in ( ))"
                case "\n" where stack.isEmpty && !inList, "\r" where stack.isEmpty && !inList:
                    return
                        "it spans lines outside brackets, which makes separate statements; write it on one line "
                        + "or wrap it in ( )"
                default:
                    break
                }
                if !scalar.properties.isWhitespace { sawToken = true }
                index += 1
            }
            if let open = stack.last {
                return open == "\\"
                    ? "a string interpolation is not closed" : "'\(open)' is never closed; the brackets must balance"
            }
            if inList { return nil }
            guard sawToken else { return "it is empty; write a Swift expression" }
            return dangling()
        }

        /// An operator with no operand on one side (`0 +`, `== 1`, `Int.`): Swift reads no complete
        /// expression. A postfix `!`, a range `1...` and a cast `as Int?` are complete.
        func dangling() -> String? {
            let written = scalars.filter { !$0.properties.isWhitespace }
            guard let first = written.first, let last = written.last else { return nil }
            if "*/%=<>&|^:".unicodeScalars.contains(first) {
                return "it starts with '\(first)', which needs an operand before it; write a complete expression"
            }
            // Not `?` or `>`, which end a cast to `Int?` or `Array<Int>`.
            if "+-*/%=<&|^~:".unicodeScalars.contains(last) {
                return "it ends with '\(last)', which needs an operand after it; write a complete expression"
            }
            if last == ".", written.suffix(3) != [".", ".", "."] {
                return "it ends with '.', which needs a member name after it; write a complete expression"
            }
            return nil
        }

        /// Ends the string or group that opened at depth 0, once the scan is back at depth 0.
        mutating func closeSpan() {
            guard stack.isEmpty, let start = spanStart else { return }
            spans.append(start..<index)
            spanStart = nil
        }

        func matching(_ close: Unicode.Scalar) -> Unicode.Scalar {
            switch close {
            case ")": return "("
            case "]": return "["
            default: return "{"
            }
        }

        func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic
        }

        func word(at start: Int) -> String? {
            var end = start
            while end < scalars.count, isIdentifierStart(scalars[end]) || scalars[end].properties.numericType != nil {
                end += 1
            }
            guard end > start else { return nil }
            return String(String.UnicodeScalarView(scalars[start..<end]))
        }

        func isRawStringStart() -> Bool {
            var offset = 0
            while peek(offset) == "#" { offset += 1 }
            return peek(offset) == "\""
        }

        /// Reads a string literal from its opening delimiter, or, with `resuming`, from just after
        /// an interpolation inside one (the delimiter is then on the stack's record below).
        mutating func string(resuming: Bool = false) -> String? {
            var hashes = 0
            var multiline = false
            if resuming {
                guard let record = openStrings.popLast() else { return "a string interpolation is not closed" }
                (hashes, multiline) = record
            } else {
                while peek() == "#" {
                    hashes += 1
                    index += 1
                }
                if peek() == "\"" && peek(1) == "\"" && peek(2) == "\"" {
                    multiline = true
                    index += 3
                } else {
                    index += 1
                }
            }
            let escape = Array(repeating: Unicode.Scalar("#"), count: hashes)
            while let scalar = peek() {
                if scalar == "\\"
                    && Array(scalars[min(index + 1, scalars.count)..<min(index + 1 + hashes, scalars.count)]) == escape
                {
                    let after = index + 1 + hashes
                    if after < scalars.count && scalars[after] == "(" {
                        openStrings.append((hashes, multiline))
                        stack.append("\\")
                        index = after + 1
                        return nil
                    }
                    index = after + 1
                    continue
                }
                if !multiline && (scalar == "\n" || scalar == "\r") { return "a string is not closed on its line" }
                let closes = multiline ? (scalar == "\"" && peek(1) == "\"" && peek(2) == "\"") : scalar == "\""
                if closes {
                    let length = multiline ? 3 : 1
                    let end = index + length
                    if Array(scalars[min(end, scalars.count)..<min(end + hashes, scalars.count)]) == escape {
                        index = end + hashes
                        return nil
                    }
                }
                index += 1
            }
            return "a string is not closed"
        }

    }
}
