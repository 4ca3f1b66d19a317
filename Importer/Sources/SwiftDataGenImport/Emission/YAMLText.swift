import SwiftDataGenCore

/// YAML spellings for the values the importer writes: a scalar is left plain only where YAML and
/// the DSL read it back as the same text; everything else is double-quoted with escapes.
enum YAMLText {
    static func scalar(_ text: String) -> String {
        isPlain(text) ? text : quoted(text)
    }

    /// Double-quoted, with YAML's escapes.
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    quoted +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    /// A comment of one line whatever the text holds: a line break or another control character
    /// in a name read from a store is shown escaped, so it cannot end the comment and add YAML.
    static func comment(_ text: String) -> String {
        "# " + TerminalText.shown(text, limit: Int.max)
    }

    /// Identifiers that no YAML reading turns into a bool, a null or a number.
    private static func isPlain(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || (first.properties.isAlphabetic && first.isASCII)
        else { return false }
        let reserved: Set<String> = [
            "true", "false", "null", "yes", "no", "on", "off", "y", "n", "True", "False", "Null", "NULL", "TRUE",
            "FALSE", "Yes", "No", "On", "Off", "YES", "NO", "ON", "OFF",
        ]
        return !reserved.contains(text)
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
            }
    }

    static func value(_ value: ImportedProperty.DefaultValue) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .number(let digits): return digits
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .enumCase(let name): return name
        case .list(let items): return "[" + items.map(Self.value).joined(separator: ", ") + "]"
        case .expression(let text): return scalar(text)
        }
    }
}
