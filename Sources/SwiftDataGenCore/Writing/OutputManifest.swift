/// The record, kept in each output folder, of the files swiftdata-gen wrote there and the schema
/// folder each came from. Ownership is decided from it alone: a file it does not list is never
/// rewritten or deleted, whatever its first line says, and one schema folder never deletes the
/// files of another that writes into the same folder.
public struct OutputManifest: Sendable, Equatable {
    public static let fileName = ".swiftdata-gen-manifest"
    /// Far beyond any folder's files; a larger file is not one this tool wrote.
    public static let maxBytes = 8 * 1024 * 1024

    /// File names by owner (the schema folder, as a path relative to the output folder).
    public var files: [String: Set<String>]

    public init(files: [String: Set<String>] = [:]) {
        self.files = files
    }

    /// The owner of a file; of a file listed under two owners (a hand-edited manifest), the
    /// first by name, so every run decides alike.
    public func owner(of name: String) -> String? {
        files.keys.sorted().first { files[$0]?.contains(name) == true }
    }

    /// Owners that list one file, beyond the first: only a hand edit puts a file under two.
    public func otherOwners(of name: String) -> [String] {
        Array(files.keys.sorted().filter { files[$0]?.contains(name) == true }.dropFirst())
    }

    public var text: String {
        var lines = [
            "# swiftdata-gen: the files it wrote in this folder, by the schema folder they come from. Commit it; "
                + "do not edit it."
        ]
        for owner in files.keys.sorted() {
            guard let names = files[owner], !names.isEmpty else { continue }
            lines.append("owner \(Self.escaped(owner))")
            lines += names.sorted().map { "  " + Self.escaped($0) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Nil when the text is not a manifest this tool writes. Lines may end in CRLF (a checkout
    /// that converted them); names are escaped, so a name holding a line break reads back whole.
    public init?(parsing text: String) {
        var files: [String: Set<String>] = [:]
        var owner: String?
        // "\r\n" is one Character in Swift, so CRLF ends are a separator of their own.
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if line.hasPrefix("#") || line.isEmpty { continue }
            if line.hasPrefix("owner ") {
                guard let name = Self.unescaped(line.dropFirst(6)) else { return nil }
                owner = name
                continue
            }
            guard line.hasPrefix("  "), let owner, let name = Self.unescaped(line.dropFirst(2)), !name.contains("/")
            else { return nil }
            files[owner, default: []].insert(name)
        }
        self.files = files
    }

    /// Backslash, line breaks and tabs as `\\`, `\n`, `\r`, `\t`: one name, one line.
    static func escaped(_ name: String) -> String {
        var result = ""
        for character in name {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\r\n": result += "\\r\\n"
            case "\t": result += "\\t"
            default: result.append(character)
            }
        }
        return result
    }

    static func unescaped(_ text: Substring) -> String? {
        var result = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "\\": result.append("\\")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            default: return nil
            }
        }
        return result
    }
}
