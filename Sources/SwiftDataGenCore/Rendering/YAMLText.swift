/// The one YAML writer of the tools' drafts (`new-version`, the importer's histories and `store
/// --output`): a scalar is left plain only where YAML and the DSL read it back as the same text;
/// everything else is double-quoted with escapes, and a comment stays on its one line.
public enum YAMLText {
    public static func scalar(_ text: String) -> String {
        isPlain(text) ? text : quoted(text)
    }

    /// Double-quoted, with YAML's escapes.
    public static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            default:
                // YAML reads NEL, LS and PS as line breaks (a quoted one folds to a space), and a BOM
                // may be dropped: those are escaped with the control characters.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                    || [0x2028, 0x2029, 0xFEFF].contains(scalar.value)
                {
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
    public static func comment(_ text: String) -> String {
        "# " + TerminalText.shown(text, limit: Int.max)
    }

    /// Identifiers that no YAML reading turns into a bool, a null or a number, joined by dots
    /// (`Book.notes`), and version numbers (three or more parts of digits, which no YAML reads as a
    /// number).
    private static func isPlain(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let digits = parts.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        return (digits && parts.count >= 3) || parts.allSatisfy { isPlainIdentifier(String($0)) }
    }

    private static func isPlainIdentifier(_ text: String) -> Bool {
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
}
