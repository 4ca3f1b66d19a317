/// Spells values as Swift source. Every string from the YAML that lands in generated code as a
/// literal passes through here, so no input can end a literal early or start an interpolation.
enum SwiftLiteral {
    static func string(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if needsEscape(scalar) {
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Control characters, line and paragraph separators, the byte-order mark, and the
    /// bidirectional controls that can make code read differently from how it compiles.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || value == 0x7F || (0x80..<0xA0).contains(value) || value == 0x2028 || value == 0x2029
            || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
            || value == 0xFEFF
    }

    /// `trip` → `Trip`, for names built from other names (`convertTripBudget`).
    static func upperFirst(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// `Trip` → `trip`, for variable names built from type names.
    static func lowerFirst(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }

    /// A `///` comment line: control and bidi characters become spaces.
    static func commentText(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { needsEscape($0) ? " " : $0 }))
    }

    static func value(_ literal: LiteralValue, enumType: String?) -> String {
        switch literal {
        case .string(let s): return string(s)
        case .integer(let s), .float(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .null: return "nil"
        case .enumCase(let name): return enumType.map { "\($0).\(name)" } ?? ".\(name)"
        case .date(let seconds): return "Date(timeIntervalSince1970: \(seconds))"
        // The generator checked these parse, so the unwrap cannot fail.
        case .uuid(let s): return "UUID(uuidString: \(string(s)))!"
        case .url(let s): return "URL(string: \(string(s)))!"
        case .decimal(let s): return "Decimal(string: \(string(s)))!"
        case .array(let items): return "[" + items.map { value($0, enumType: enumType) }.joined(separator: ", ") + "]"
        }
    }
}
