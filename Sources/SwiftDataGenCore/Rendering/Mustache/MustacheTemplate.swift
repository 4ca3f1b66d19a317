/// A Mustache template (the spec's core modules: interpolation, sections, inverted sections,
/// comments, partials, set delimiters), parsed once and rendered many times.
public struct MustacheTemplate: Sendable {
    public enum Escaping: Sendable {
        /// The spec's default: `{{name}}` escapes `& " < >`.
        case html
        /// For generated source: the view model has already escaped what needs escaping.
        case none
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var line: Int
        public var description: String { "line \(line): \(message)" }
    }

    /// Text is kept as UTF-8 bytes: rendering appends bytes, which is a copy, where appending
    /// `String`s pays for normalization checks on every piece.
    indirect enum Node: Sendable {
        case text([UInt8])
        case variable(name: Name, escaped: Bool)
        case section(name: Name, inverted: Bool, children: [Node])
        case partial(name: String, indent: String)
    }

    /// A tag's name split at dots once, when the template is parsed; `.` is the empty path.
    struct Name: Sendable {
        var path: [String]

        init(_ text: String) {
            path = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// The parsed tree flattened into plain values: a section's body is the operations after it,
    /// up to its `end`, and text is a range of one byte buffer. Rendering then walks arrays of
    /// trivial values; walking the tree retained and released every node it passed.
    struct Program: Sendable {
        enum Operation: Sendable {
            case text(start: Int, end: Int)
            case variable(name: Int, escaped: Bool)
            case section(name: Int, inverted: Bool, end: Int)
            case partial(Int)
        }

        struct Partial: Sendable {
            var name: String
            var indent: String
        }

        var operations: [Operation] = []
        var text: [UInt8] = []
        var names: [Name] = []
        var partials: [Partial] = []

        init(_ nodes: [Node]) { append(nodes) }

        private mutating func append(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .text(let bytes):
                    let start = text.count
                    text += bytes
                    operations.append(.text(start: start, end: text.count))
                case .variable(let name, let escaped):
                    names.append(name)
                    operations.append(.variable(name: names.count - 1, escaped: escaped))
                case .section(let name, let inverted, let children):
                    names.append(name)
                    let name = names.count - 1
                    let at = operations.count
                    operations.append(.section(name: name, inverted: inverted, end: at))
                    append(children)
                    operations[at] = .section(name: name, inverted: inverted, end: operations.count)
                case .partial(let name, let indent):
                    partials.append(Partial(name: name, indent: indent))
                    operations.append(.partial(partials.count - 1))
                }
            }
        }
    }

    let program: Program

    public init(_ source: String) throws(ParseError) {
        var parser = MustacheParser(Array(source.utf8))
        program = Program(try parser.parse())
    }

    /// Renders with `partials` looked up by name; a missing partial renders as nothing (spec).
    /// `strict` (for the bundled templates, never a user's): a name must be in the nearest
    /// mapping of the context stack, so a name a view model lacks is an error instead of the
    /// spec's silent lookup in an enclosing context, or an empty string.
    public func render(
        _ data: MustacheValue, partials: [String: String] = [:], escaping: Escaping = .html, strict: Bool = false
    ) throws(ParseError) -> String {
        var renderer = MustacheRenderer(partialSources: partials, escaping: escaping, strict: strict)
        var output = RenderedBytes()
        var stack = [data]
        try renderer.render(program, stack: &stack, into: &output)
        // The buffer doubles as it grows; the string is an exact-size copy, since generated files
        // are kept until they are compared with the output folder.
        return output.string()
    }
}

private struct MustacheParser {
    let bytes: [UInt8]
    var position = 0
    var open: [UInt8] = Array("{{".utf8)
    var close: [UInt8] = Array("}}".utf8)

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private struct OpenSection {
        var name: String
        var inverted: Bool
        var line: Int
        var children: [MustacheTemplate.Node] = []
    }

    mutating func parse() throws(MustacheTemplate.ParseError) -> [MustacheTemplate.Node] {
        var sections: [OpenSection] = [OpenSection(name: "", inverted: false, line: 0)]
        var textStart = 0

        func append(_ node: MustacheTemplate.Node) {
            sections[sections.count - 1].children.append(node)
        }
        func flushText(upTo end: Int) {
            if end > textStart {
                append(.text(Array(bytes[textStart..<end])))
            }
        }

        while let tagStart = find(open, from: position) {
            let contentStart = tagStart + open.count
            guard contentStart <= bytes.count else { break }
            let sigil: UInt8? = contentStart < bytes.count ? bytes[contentStart] : nil
            var closing = close
            if sigil == UInt8(ascii: "{") { closing = [UInt8(ascii: "}")] + close }
            if sigil == UInt8(ascii: "=") { closing = [UInt8(ascii: "=")] + close }
            guard
                let closeStart = find(
                    closing, from: contentStart + (sigil == UInt8(ascii: "=") || sigil == UInt8(ascii: "{") ? 1 : 0))
            else {
                throw error("unclosed tag", at: tagStart)
            }
            let tagEnd = closeStart + closing.count
            var content = String(decoding: bytes[contentStart..<closeStart], as: UTF8.self)
            let kind: UInt8
            switch sigil {
            case UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "/"), UInt8(ascii: ">"),
                UInt8(ascii: "!"), UInt8(ascii: "="), UInt8(ascii: "&"), UInt8(ascii: "{"):
                kind = sigil!
                content.removeFirst()
            default:
                kind = 0
            }
            let name = content.trimmingWhitespace()

            let canStandAlone = kind != 0 && kind != UInt8(ascii: "&") && kind != UInt8(ascii: "{")
            let standalone = canStandAlone ? standaloneLine(tagStart: tagStart, tagEnd: tagEnd) : nil
            if let standalone {
                flushText(upTo: standalone.lineStart)
                textStart = standalone.nextLine
                position = standalone.nextLine
            } else {
                flushText(upTo: tagStart)
                textStart = tagEnd
                position = tagEnd
            }

            switch kind {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                sections.append(OpenSection(name: name, inverted: kind == UInt8(ascii: "^"), line: line(of: tagStart)))
            case UInt8(ascii: "/"):
                guard sections.count > 1, let section = sections.popLast() else {
                    throw error("closing tag '\(name)' without an open section", at: tagStart)
                }
                guard section.name == name else {
                    throw error("section '\(section.name)' closed by '\(name)'", at: tagStart)
                }
                append(
                    .section(
                        name: MustacheTemplate.Name(section.name), inverted: section.inverted,
                        children: section.children))
            case UInt8(ascii: ">"):
                let indent = standalone.map { String(decoding: bytes[$0.lineStart..<tagStart], as: UTF8.self) } ?? ""
                append(.partial(name: name, indent: indent))
            case UInt8(ascii: "!"):
                break
            case UInt8(ascii: "="):
                let parts = name.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count == 2 else { throw error("set-delimiter tag needs two delimiters", at: tagStart) }
                open = Array(parts[0].utf8)
                close = Array(parts[1].utf8)
            case UInt8(ascii: "&"), UInt8(ascii: "{"):
                append(.variable(name: MustacheTemplate.Name(name), escaped: false))
            default:
                append(.variable(name: MustacheTemplate.Name(name), escaped: true))
            }
        }
        flushText(upTo: bytes.count)
        if sections.count > 1, let unclosed = sections.last {
            throw MustacheTemplate.ParseError(
                message: "section '\(unclosed.name)' is never closed", line: unclosed.line)
        }
        return sections[0].children
    }

    /// When the tag is alone on its line (apart from spaces and tabs), the range of that line.
    private func standaloneLine(tagStart: Int, tagEnd: Int) -> (lineStart: Int, nextLine: Int)? {
        var lineStart = tagStart
        while lineStart > 0 && bytes[lineStart - 1] != UInt8(ascii: "\n") {
            guard isBlank(bytes[lineStart - 1]) else { return nil }
            lineStart -= 1
        }
        var end = tagEnd
        while end < bytes.count && isBlank(bytes[end]) { end += 1 }
        if end == bytes.count { return (lineStart, end) }
        if bytes[end] == UInt8(ascii: "\n") { return (lineStart, end + 1) }
        if bytes[end] == UInt8(ascii: "\r") && end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "\n") {
            return (lineStart, end + 2)
        }
        return nil
    }

    private func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start <= bytes.count - needle.count else { return nil }
        var i = start
        let first = needle[0]
        while i <= bytes.count - needle.count {
            if bytes[i] == first {
                var j = 1
                while j < needle.count && bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    private func line(of offset: Int) -> Int {
        bytes[0..<offset].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    private func error(_ message: String, at offset: Int) -> MustacheTemplate.ParseError {
        MustacheTemplate.ParseError(message: message, line: line(of: offset))
    }
}

private struct MustacheRenderer {
    let partialSources: [String: String]
    let escaping: MustacheTemplate.Escaping
    let strict: Bool
    var parsedPartials: [String: MustacheTemplate.Program] = [:]
    var depth = 0

    init(partialSources: [String: String], escaping: MustacheTemplate.Escaping, strict: Bool) {
        self.partialSources = partialSources
        self.escaping = escaping
        self.strict = strict
    }

    /// `stack` is the context stack; sections push onto it and pop before returning.
    mutating func render(
        _ program: MustacheTemplate.Program, stack: inout [MustacheValue], into output: inout RenderedBytes
    ) throws(MustacheTemplate.ParseError) {
        var hints = [Int](repeating: 0, count: program.names.count)
        try program.operations.withUnsafeBufferPointer { operations throws(MustacheTemplate.ParseError) in
            try program.text.withUnsafeBufferPointer { text throws(MustacheTemplate.ParseError) in
                try render(
                    operations[...], text: text, program: program, hints: &hints, stack: &stack, into: &output)
            }
        }
    }

    /// `hints` holds, for each name of the program, where in its view model it was found last:
    /// a section's items share one shape, so a lookup is mostly one comparison.
    private mutating func render(
        _ operations: Slice<UnsafeBufferPointer<MustacheTemplate.Program.Operation>>, text: UnsafeBufferPointer<UInt8>,
        program: MustacheTemplate.Program, hints: inout [Int], stack: inout [MustacheValue],
        into output: inout RenderedBytes
    ) throws(MustacheTemplate.ParseError) {
        var index = operations.startIndex
        while index < operations.endIndex {
            switch operations[index] {
            case .text(let start, let end):
                output.append(UnsafeBufferPointer(rebasing: text[start..<end]))
                index += 1
            case .variable(let name, let escaped):
                index += 1
                guard let value = try lookup(program.names[name], hint: &hints[name], in: stack) else { continue }
                if escaped && escaping == .html {
                    Self.appendEscapingHTML(value.interpolated, to: &output)
                } else {
                    var string = value.interpolated
                    // As one block of bytes: appending the UTF-8 view went a byte at a time.
                    string.withUTF8 { output.append($0) }
                }
            case .section(let name, let inverted, let end):
                let body = operations[(index + 1)..<end]
                index = end
                let value = try lookup(program.names[name], hint: &hints[name], in: stack) ?? .null
                if inverted {
                    if value.isFalsey {
                        try render(
                            body, text: text, program: program, hints: &hints, stack: &stack, into: &output)
                    }
                } else if case .list(let items) = value {
                    for item in items {
                        stack.append(item)
                        defer { stack.removeLast() }
                        try render(
                            body, text: text, program: program, hints: &hints, stack: &stack, into: &output)
                    }
                } else if !value.isFalsey {
                    stack.append(value)
                    defer { stack.removeLast() }
                    try render(
                        body, text: text, program: program, hints: &hints, stack: &stack, into: &output)
                }
            case .partial(let number):
                index += 1
                let partial = program.partials[number]
                guard let source = partialSources[partial.name] else { continue }
                // Recursive partials are legal; a runaway recursion is a template bug.
                guard depth < 100 else {
                    throw MustacheTemplate.ParseError(
                        message: "partial '\(partial.name)' recurses too deeply", line: 0)
                }
                let key = partial.indent + "\u{0}" + partial.name
                let parsed: MustacheTemplate.Program
                if let cached = parsedPartials[key] {
                    parsed = cached
                } else {
                    parsed = try MustacheTemplate(Self.indent(source, with: partial.indent)).program
                    parsedPartials[key] = parsed
                }
                depth += 1
                try render(parsed, stack: &stack, into: &output)
                depth -= 1
            }
        }
    }

    private func lookup(
        _ name: MustacheTemplate.Name, hint: inout Int, in stack: [MustacheValue]
    ) throws(MustacheTemplate.ParseError) -> MustacheValue? {
        guard let first = name.path.first else { return stack.last }
        var value: MustacheValue?
        for index in stack.indices.reversed() {
            if let found = stack[index].value(forKey: first, hint: &hint) {
                value = found
                break
            }
            // Strictly, the nearest mapping is the section's view model: the name must be there.
            if strict, case .object = stack[index] {
                throw MustacheTemplate.ParseError(
                    message:
                        "uses '\(name.path.joined(separator: "."))', which the view model of its section does not have",
                    line: 0)
            }
        }
        if strict && value == nil {
            throw MustacheTemplate.ParseError(
                message: "uses '\(name.path.joined(separator: "."))', which no view model has", line: 0)
        }
        for part in name.path.dropFirst() {
            value = value?[part]
        }
        return value
    }

    private static func indent(_ source: String, with indent: String) -> String {
        guard !indent.isEmpty else { return source }
        var result = ""
        var atLineStart = true
        for character in source {
            if atLineStart {
                result += indent
                atLineStart = false
            }
            result.append(character)
            if character == "\n" || character == "\r\n" { atLineStart = true }
        }
        return result
    }

    static func appendEscapingHTML(_ text: String, to output: inout RenderedBytes) {
        for byte in text.utf8 {
            var entity: StaticString
            switch byte {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            default:
                withUnsafeBytes(of: byte) { output.append($0.bindMemory(to: UInt8.self)) }
                continue
            }
            output.append(UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

/// The template sources the renderer uses, by name (`version`, `current`, `plan`, partials).
public struct TemplateSet: Sendable {
    public static let requiredNames = ["version", "model", "current", "plan", "header", "hooks", "upgrade-test"]
    public static let fileExtension = "mustache"

    public var sources: [String: String]
    /// The project's own templates, untouched: rendered strictly, since each has a view model
    /// made for it. A user's templates keep the Mustache spec's lookup in enclosing contexts.
    public var isBundled: Bool

    public init(sources: [String: String], isBundled: Bool = false) {
        self.sources = sources
        self.isBundled = isBundled
    }

    /// The bundled set with any same-named template from `overrides` taking its place.
    public func overridden(by overrides: [String: String]) -> TemplateSet {
        TemplateSet(sources: sources.merging(overrides) { _, user in user }, isBundled: isBundled && overrides.isEmpty)
    }
}
