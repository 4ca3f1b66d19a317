/// One problem found in the user's input, printed the way compilers do so Xcode and editors link it.
public struct Diagnostic: Error, Hashable, Sendable {
    public enum Severity: String, Sendable {
        case error, warning
    }

    /// A pointer at the other place involved (the inverse, the earlier version).
    public struct Note: Hashable, Sendable {
        public var message: String
        public var location: SourceLocation?

        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }

        /// "did you mean …?" for the candidate closest to `name`, pointing at where it is declared.
        static func suggestion(for name: String, in candidates: [(name: String, location: SourceLocation?)]) -> [Note] {
            guard let best = Identifier.suggestion(for: name, in: candidates.map(\.name)) else { return [] }
            return [Note("did you mean '\(best)'?", at: candidates.first { $0.name == best }?.location)]
        }
    }

    public var severity: Severity
    public var code: DiagnosticCode
    public var message: String
    public var location: SourceLocation?
    public var notes: [Note]

    public init(
        _ severity: Severity, _ code: DiagnosticCode, _ message: String,
        at location: SourceLocation?, notes: [Note] = []
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        // Every note carries a file:line:col; one about no other place points at this one.
        self.notes = notes.map { $0.location == nil ? Note($0.message, at: location) : $0 }
    }

    public static func error(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation?, notes: [Note] = []
    ) -> Diagnostic {
        Diagnostic(.error, code, message, at: location, notes: notes)
    }

    public static func warning(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation?, notes: [Note] = []
    ) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location, notes: notes)
    }

    public var isError: Bool { severity == .error }

    /// `path:line:col: error: message [SDG101]` followed by one line per note.
    /// One line per diagnostic and per note, each safe for a terminal: a file name or a quoted key
    /// with a line break or an escape sequence in it cannot forge a line or move the cursor.
    public var rendered: String {
        var lines = ["\(Self.prefix(location))\(severity.rawValue): \(message) [\(code.rawValue)]"]
        // A note without a place of its own is about the diagnostic's: editors need file:line:col.
        for note in notes {
            lines.append("\(Self.prefix(note.location ?? location))note: \(note.message)")
        }
        return lines.map { TerminalText.shown($0, limit: 4_000) }.joined(separator: "\n")
    }

    private static func prefix(_ location: SourceLocation?) -> String {
        location.map { "\($0.description): " } ?? ""
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.isError } }

    /// Stable order for printing: by file, line, column, then code.
    public func sortedForDisplay() -> [Diagnostic] {
        enumerated().sorted { a, b in
            let la = a.element.location
            let lb = b.element.location
            switch (la, lb) {
            case (let x?, let y?) where x != y: return x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }
}
