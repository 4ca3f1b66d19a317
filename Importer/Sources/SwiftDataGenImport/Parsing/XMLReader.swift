import SwiftDataGenCore

/// One element of an XML document, with where it starts.
public struct XMLElement: Sendable {
    public var name: String
    public var attributes: [(name: String, value: String)]
    public var children: [XMLElement]
    /// The character data directly inside, references resolved (a property list's `<string>`).
    public var text: String = ""
    public var line: Int
    public var column: Int

    public func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    public func children(named name: String) -> [XMLElement] { children.filter { $0.name == name } }
}

/// Why a file is not read, with where.
public struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(file):\(line):\(column): error: \(message)" }
}

/// A strict reader for the XML Xcode writes for Core Data models and property lists: elements,
/// attributes, text, comments, CDATA, the predefined entities and character references. A
/// DOCTYPE may name an external DTD, which is never fetched; one that declares anything itself
/// (where entities are declared, for expansion bombs or external files) is refused, as is any
/// entity it would define. Bounded in size, depth and element count, so hostile input ends in
/// an error, never a hang.
public enum XMLReader {
    public struct Limits: Sendable {
        public var bytes = ReadingBudget.xmlBytes
        public var depth = ReadingBudget.xmlDepth
        public var elements = ReadingBudget.xmlElements
        public var attributes = ReadingBudget.xmlAttributes

        public init() {}
    }

    public static func parse(_ bytes: [UInt8], file: String, limits: Limits = Limits()) -> Result<XMLElement, XMLError>
    {
        var reader = Reader(bytes: bytes, file: file, limits: limits)
        do {
            return .success(try reader.document())
        } catch {
            return .failure(error)
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        let file: String
        let limits: Limits
        var index = 0
        var line = 1
        var column = 1
        var elements = 0

        init(bytes: [UInt8], file: String, limits: Limits) {
            self.bytes = bytes
            self.file = file
            self.limits = limits
        }

        func fail(_ message: String) -> XMLError {
            XMLError(file: file, line: line, column: column, message: message)
        }

        mutating func document() throws(XMLError) -> XMLElement {
            guard bytes.count <= limits.bytes else {
                throw fail("the file is \(bytes.count) bytes, more than the \(limits.bytes) a model file may have")
            }
            guard UntrustedFile.utf8Text(bytes) != nil else {
                throw fail("the file is not UTF-8 text; Xcode writes model files as UTF-8 XML")
            }
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            try misc(allowDeclaration: true)
            guard peek() == UInt8(ascii: "<") else { throw fail("no root element: this is not an XML file") }
            let root = try element(depth: 1)
            try misc(allowDeclaration: false)
            guard index == bytes.count else { throw fail("text after the root element") }
            return root
        }

        /// Whitespace, comments, processing instructions and one DOCTYPE, before or after the root.
        mutating func misc(allowDeclaration: Bool) throws(XMLError) {
            var seenDoctype = false
            while true {
                skipWhitespace()
                if starts("<?") {
                    try skip(past: "?>", what: "a processing instruction")
                } else if starts("<!--") {
                    try skip(past: "-->", what: "a comment")
                } else if starts("<!DOCTYPE") {
                    guard allowDeclaration, !seenDoctype else { throw fail("a DOCTYPE may only stand before the root") }
                    seenDoctype = true
                    try doctype()
                } else {
                    return
                }
            }
        }

        /// `<!DOCTYPE plist PUBLIC "…" "…">`: read and ignored; the DTD is never fetched.
        mutating func doctype() throws(XMLError) {
            advance(9)
            var quote: UInt8?
            while let byte = peek() {
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "[") {
                    throw fail(
                        "the DOCTYPE declares entities or elements itself; model files never do, and such "
                            + "declarations are how XML expands to gigabytes or reads other files: remove them")
                } else if byte == UInt8(ascii: ">") {
                    advance(1)
                    return
                }
                advance(1)
            }
            throw fail("the DOCTYPE is not closed")
        }

        mutating func element(depth: Int) throws(XMLError) -> XMLElement {
            guard depth <= limits.depth else {
                throw fail("elements nest deeper than \(limits.depth); a model file nests a few levels")
            }
            elements += 1
            guard elements <= limits.elements else { throw fail("more than \(limits.elements) elements") }
            let (startLine, startColumn) = (line, column)
            advance(1)
            let name = try self.name("an element")
            var attributes: [(name: String, value: String)] = []
            var attributeNames: Set<String> = []
            while true {
                let hadSpace = skipWhitespace()
                if starts("/>") {
                    advance(2)
                    return XMLElement(
                        name: name, attributes: attributes, children: [], line: startLine, column: startColumn)
                }
                if starts(">") {
                    advance(1)
                    break
                }
                guard hadSpace else { throw fail("expected a space, '>' or '/>' in <\(name)>") }
                let attribute = try self.name("an attribute")
                guard attributeNames.insert(attribute).inserted else {
                    throw fail("attribute \(attribute) is given twice in <\(name)>")
                }
                guard attributeNames.count <= limits.attributes else {
                    throw fail("<\(name)> has more than \(limits.attributes) attributes; a model's element has a few")
                }
                skipWhitespace()
                guard starts("=") else { throw fail("attribute \(attribute) of <\(name)> has no value") }
                advance(1)
                skipWhitespace()
                attributes.append((attribute, try quotedValue()))
            }
            var children: [XMLElement] = []
            var text: [UInt8] = []
            while true {
                if starts("</") {
                    advance(2)
                    let closing = try self.name("a closing tag")
                    guard closing == name else {
                        throw fail("</\(closing)> closes <\(name)> (line \(startLine)); the file is not well-formed")
                    }
                    skipWhitespace()
                    guard starts(">") else { throw fail("</\(closing) is not closed with '>'") }
                    advance(1)
                    return XMLElement(
                        name: name, attributes: attributes, children: children,
                        text: String(decoding: text, as: UTF8.self),
                        line: startLine, column: startColumn)
                }
                if starts("<!--") {
                    try skip(past: "-->", what: "a comment")
                } else if starts("<![CDATA[") {
                    advance(9)
                    let start = index
                    try skip(past: "]]>", what: "a CDATA section")
                    text += bytes[start..<(index - 3)]
                } else if starts("<?") {
                    try skip(past: "?>", what: "a processing instruction")
                } else if starts("<!") {
                    throw fail("a declaration inside <\(name)>; the file is not a model file")
                } else if starts("<") {
                    children.append(try element(depth: depth + 1))
                } else if peek() == nil {
                    throw fail("<\(name)> (line \(startLine)) is not closed")
                } else if peek() == UInt8(ascii: "&") {
                    text += Array(try reference().utf8)
                } else if let byte = peek() {
                    text.append(byte)
                    advance(1)
                }
            }
        }

        mutating func quotedValue() throws(XMLError) -> String {
            guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw fail("an attribute value must be quoted")
            }
            advance(1)
            var value: [UInt8] = []
            while let byte = peek(), byte != quote {
                if byte == UInt8(ascii: "<") { throw fail("'<' inside an attribute value; write &lt;") }
                if byte == UInt8(ascii: "&") {
                    value += Array(try reference().utf8)
                } else {
                    // Line ends and tabs in a value read as spaces (XML attribute-value normalisation).
                    value.append(byte == 0x0A || byte == 0x0D || byte == 0x09 ? 0x20 : byte)
                    advance(1)
                }
            }
            guard peek() == quote else { throw fail("an attribute value is not closed") }
            advance(1)
            return String(decoding: value, as: UTF8.self)
        }

        /// `&lt;`, `&#65;`, `&#x41;`: the five predefined entities and character references only.
        mutating func reference() throws(XMLError) -> String {
            advance(1)
            var text: [UInt8] = []
            while let byte = peek(), byte != UInt8(ascii: ";") {
                guard text.count < 12, byte != UInt8(ascii: "&"), byte > 0x20 else {
                    throw fail("'&' that starts no reference; write &amp;")
                }
                text.append(byte)
                advance(1)
            }
            guard peek() == UInt8(ascii: ";") else { throw fail("a reference is not closed with ';'") }
            advance(1)
            let name = String(decoding: text, as: UTF8.self)
            switch name {
            case "lt": return "<"
            case "gt": return ">"
            case "amp": return "&"
            case "quot": return "\""
            case "apos": return "'"
            default:
                let number =
                    name.hasPrefix("#x")
                    ? UInt32(name.dropFirst(2), radix: 16)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst(1)) : nil
                guard let number, number != 0, let scalar = Unicode.Scalar(number) else {
                    throw fail(
                        "entity &\(name); is not defined; model files use only &lt; &gt; &amp; &quot; &apos; and "
                            + "character references, and other entities are never expanded")
                }
                return String(Character(scalar))
            }
        }

        mutating func name(_ what: String) throws(XMLError) -> String {
            var text: [UInt8] = []
            while let byte = peek(), byte >= 0x80 || isNameByte(byte, first: text.isEmpty) {
                text.append(byte)
                advance(1)
            }
            guard !text.isEmpty else { throw fail("expected the name of \(what)") }
            return String(decoding: text, as: UTF8.self)
        }

        func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
                UInt8(ascii: ":"):
                return true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): return !first
            default: return false
            }
        }

        mutating func skip(past end: String, what: String) throws(XMLError) {
            let (startLine, startColumn) = (line, column)
            let terminator = Array(end.utf8)
            while index < bytes.count {
                if bytes[index...].starts(with: terminator) {
                    advance(terminator.count)
                    return
                }
                advance(1)
            }
            throw XMLError(file: file, line: startLine, column: startColumn, message: "\(what) is not closed")
        }

        @discardableResult
        mutating func skipWhitespace() -> Bool {
            var skipped = false
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                advance(1)
                skipped = true
            }
            return skipped
        }

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        func starts(_ text: String) -> Bool { bytes[index...].starts(with: text.utf8) }

        mutating func advance(_ count: Int) {
            for _ in 0..<count where index < bytes.count {
                if bytes[index] == 0x0A {
                    line += 1
                    column = 1
                } else if bytes[index] & 0xC0 != 0x80 {
                    column += 1
                }
                index += 1
            }
        }
    }
}
