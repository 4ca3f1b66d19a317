/// Text read from a file the user did not write (a store's names and metadata, a bundle's XML)
/// made safe to print for a person: control characters shown escaped, so they cannot move the
/// cursor, retitle the terminal or forge a `warning:` line, and very long text shortened with its
/// length said. JSON output escapes on its own and takes the text as it is.
public enum TerminalText {
    public static func shown(_ text: String, limit: Int = 200) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            guard count <= limit else { continue }
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return count > limit ? out + "… (\(count) characters)" : out
    }
}
