/// What names from the YAML may become in Swift source. Names are never backticked: a name that
/// needs backticks would also need them in every key path and predicate the app writes, and
/// observation macros like the one `@Model` expands mishandle them (swiftlang/swift#69856).
public enum Identifier {
    public static let maxLength = 128

    /// ASCII letters, digits and `_`, not starting with a digit.
    public static func isValid(_ name: String) -> Bool {
        var name = name
        // Over the bytes in place: every name of every version passes here.
        return name.withUTF8 { bytes in
            guard let first = bytes.first, bytes.count <= maxLength, !isDigit(first) else { return false }
            // Every allowed character is ASCII, so checking bytes checks characters.
            return bytes.allSatisfy {
                $0 == UInt8(ascii: "_") || isDigit($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20)
            }
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// Words that cannot name a type, case or property without backticks. Contextual keywords
    /// that compile as plain names (`open`, `package`, `actor`, `async`, `macro`, `borrowing`,
    /// `consuming`, `nonisolated`, checked with swiftc 6.3) are allowed: `case open` is common.
    public static let keywords: NameSet = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "operator",
        "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "_", "Type", "Protocol", "some", "any",
    ]

    /// `name`, in backticks when it is a keyword: for the positions that may hold one.
    public static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// Nearest candidates by edit distance, for "did you mean" notes.
    public static func suggestion(for name: String, in candidates: some Sequence<String>) -> String? {
        let lowered = name.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            guard distance <= max(1, min(3, candidate.count / 3)) else { continue }
            if let current = best, (current.distance, current.name) <= (distance, candidate) { continue }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// Edits between two names, a swap of neighbours counting as one (`tpye` is one from `type`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = Array(0...b.count)
        var previous = beforePrevious
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
