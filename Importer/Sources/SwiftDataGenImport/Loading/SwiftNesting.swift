/// How deep a Swift file nests, measured before the Swift parser sees it: the parser's time on
/// nested brackets grows much faster than their number, and deep enough nesting overflows its
/// stack. Strings and comments are skipped as Swift reads them; an interpolation's parentheses
/// count, since the parser reads them as code.
enum SwiftNesting {
    /// Where a file first goes past a limit, and which.
    struct Excess: Equatable {
        var line: Int
        var column: Int
        /// What nests ("brackets", "#if blocks"), or "tokens" for a file too long to parse.
        var what: String
        var limit: Int

        /// Why the file is not read, for the error at `line:column`.
        var reason: String {
            what == "tokens"
                ? "the file holds more than \(limit) tokens by here, more than the importer reads (no model file "
                    + "comes near it)"
                : "\(what) open here nest deeper than \(limit), more than the importer reads (the Swift parser's time "
                    + "grows faster than the nesting)"
        }
    }

    /// The limits: brackets of any kind, square brackets (whose parse time doubles about every
    /// level: 12 took 0.4 s, 16 took 4 s, 20 took 45 s in a property's type), `#if` blocks, and
    /// tokens (the parser's time is linear in them, so this bounds its time on one file).
    struct Limits {
        var brackets: Int
        var squareBrackets: Int
        var conditionals: Int
        var tokens: Int
    }

    /// The first place `text` nests deeper than `limits`, or nil.
    static func excess(in text: String, limits: Limits) -> Excess? {
        var scanner = Scanner(Array(text.unicodeScalars), limits: limits)
        return scanner.run()
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1
        var lineStart = 0
        /// Open brackets; a string interpolation's `(` is kept as `\` so its `)` resumes the string.
        var stack: [Unicode.Scalar] = []
        /// Strings whose interpolation is open: their `#` count and whether multi-line.
        var strings: [(hashes: Int, multiline: Bool)] = []
        var conditionals = 0
        var squares = 0
        /// Tokens counted so far: a string literal or comment is one, a word one, a symbol one.
        var tokens = 0
        let limits: Limits

        init(_ scalars: [Unicode.Scalar], limits: Limits) {
            self.scalars = scalars
            self.limits = limits
        }

        /// The scalar before the current one; a space at the start.
        var previous: Unicode.Scalar { index > 0 ? scalars[index - 1] : " " }

        static func continuesWord(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        var column: Int { index - lineStart + 1 }

        mutating func advance() {
            if scalars[index] == "\n" {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }

        mutating func run() -> Excess? {
            while let scalar = peek() {
                if !scalar.properties.isWhitespace, !Self.continuesWord(scalar) || !Self.continuesWord(previous) {
                    tokens += 1
                    if tokens > limits.tokens {
                        return Excess(line: line, column: column, what: "tokens", limit: limits.tokens)
                    }
                }
                switch scalar {
                case "/" where peek(1) == "/":
                    while let next = peek(), next != "\n" { advance() }
                case "/" where peek(1) == "*":
                    skipBlockComment()
                case "\"",
                    "#" where rawStringAhead():
                    if let excess = skipString(resuming: false) { return excess }
                case "#":
                    let word = String(
                        String.UnicodeScalarView(scalars[(index + 1)...].prefix { $0.properties.isAlphabetic }))
                    if word == "if" {
                        conditionals += 1
                        if conditionals > limits.conditionals {
                            return Excess(line: line, column: column, what: "#if blocks", limit: limits.conditionals)
                        }
                    } else if word == "endif" {
                        conditionals = max(0, conditionals - 1)
                    }
                    advance()
                case "(", "[", "{":
                    if let excess = open(scalar) { return excess }
                    advance()
                case ")", "]", "}":
                    let open = stack.popLast()
                    if open == "[" { squares -= 1 }
                    advance()
                    if open == "\\", let excess = skipString(resuming: true) { return excess }
                default:
                    advance()
                }
            }
            return nil
        }

        mutating func open(_ bracket: Unicode.Scalar) -> Excess? {
            stack.append(bracket)
            if bracket == "[" { squares += 1 }
            if stack.count > limits.brackets {
                return Excess(line: line, column: column, what: "brackets", limit: limits.brackets)
            }
            if squares > limits.squareBrackets {
                return Excess(line: line, column: column, what: "square brackets", limit: limits.squareBrackets)
            }
            return nil
        }

        func rawStringAhead() -> Bool {
            var offset = 0
            while peek(offset) == "#" { offset += 1 }
            return peek(offset) == "\""
        }

        mutating func skipBlockComment() {
            var depth = 0
            while let scalar = peek() {
                if scalar == "/" && peek(1) == "*" {
                    depth += 1
                    advance()
                } else if scalar == "*" && peek(1) == "/" {
                    depth -= 1
                    advance()
                    if depth == 0 {
                        advance()
                        return
                    }
                }
                advance()
            }
        }

        /// Skips a string literal from its opening delimiter, or from just after an interpolation
        /// inside one; stops at an interpolation's `(`, which is then on the stack.
        mutating func skipString(resuming: Bool) -> Excess? {
            var hashes = 0
            var multiline = false
            if resuming {
                guard let record = strings.popLast() else { return nil }
                (hashes, multiline) = record
            } else {
                while peek() == "#" {
                    hashes += 1
                    advance()
                }
                if peek() == "\"" && peek(1) == "\"" && peek(2) == "\"" {
                    multiline = true
                    for _ in 0..<3 { advance() }
                } else {
                    advance()
                }
            }
            while let scalar = peek() {
                if scalar == "\\" && (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                    for _ in 0...hashes { advance() }
                    if peek() == "(" {
                        strings.append((hashes, multiline))
                        if let excess = open("\\") { return excess }
                        advance()
                        return nil
                    }
                    if peek() != nil { advance() }
                    continue
                }
                // An unterminated single-line string ends at its line, as the parser recovers.
                if !multiline && scalar == "\n" { return nil }
                let closes = multiline ? (scalar == "\"" && peek(1) == "\"" && peek(2) == "\"") : scalar == "\""
                if closes && (0..<hashes).allSatisfy({ peek((multiline ? 3 : 1) + $0) == "#" }) {
                    for _ in 0..<((multiline ? 3 : 1) + hashes) { advance() }
                    return nil
                }
                advance()
            }
            return nil
        }
    }
}
