/// A JSON document as the tools print it for `--json` and `--format json`: laid out as Foundation's
/// `JSONEncoder` lays it out with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, which
/// is what earlier releases printed, without importing Foundation into the tool.
public enum JSONValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Keys are printed in the order of their UTF-8 bytes, as Foundation's `.sortedKeys` orders
    /// them (`"Z"` before `"a"`, `"a10"` before `"a9"`).
    case object([String: JSONValue])

    /// An object from fields that may be absent: a nil value leaves its key out, as an encoder's
    /// `encodeIfPresent` does.
    public static func fields(_ fields: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for (key, value) in fields {
            if let value { object[key] = value }
        }
        return .object(object)
    }

    public static func strings(_ items: [String]) -> JSONValue { .array(items.map(JSONValue.string)) }

    /// The whole document and a final newline.
    public var document: String {
        var out = ""
        write(to: &out, depth: 0)
        return out + "\n"
    }

    private func write(to out: inout String, depth: Int) {
        switch self {
        case .string(let text): Self.quote(text, into: &out)
        case .integer(let number): out += String(number)
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            Self.container("[", "]", items.count, depth: depth, into: &out) { index, out in
                items[index].write(to: &out, depth: depth + 1)
            }
        case .object(let members):
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            Self.container("{", "}", keys.count, depth: depth, into: &out) { index, out in
                Self.quote(keys[index], into: &out)
                out += " : "
                members[keys[index]]?.write(to: &out, depth: depth + 1)
            }
        }
    }

    /// Each element on its own line, indented two spaces a level; an empty one keeps a blank line
    /// inside, as Foundation prints `[\n\n]`.
    private static func container(
        _ open: String, _ close: String, _ count: Int, depth: Int, into out: inout String,
        element: (Int, inout String) -> Void
    ) {
        let inner = String(repeating: "  ", count: depth + 1)
        out += open + "\n"
        for index in 0..<count {
            out += inner
            element(index, &out)
            out += index + 1 < count ? ",\n" : "\n"
        }
        if count == 0 { out += "\n" }
        out += String(repeating: "  ", count: depth) + close
    }

    /// Quote, backslash and control characters escaped (`\n`, `\t`, … or `\u001f`); everything
    /// else, slashes and non-ASCII included, as it is.
    private static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
