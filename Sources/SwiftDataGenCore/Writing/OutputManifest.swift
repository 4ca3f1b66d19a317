/// The record, kept in each output folder, of the files swiftdata-gen wrote there and the schema
/// folder each came from. Ownership is decided from it alone: a file it does not list is never
/// rewritten or deleted, whatever its first line says, and one schema folder never deletes the
/// files of another that writes into the same folder.
public struct OutputManifest: Sendable, Equatable {
    public static let fileName = ".swiftdata-gen-manifest"

    /// File names by owner (the schema folder, as a path relative to the output folder).
    public var files: [String: Set<String>]

    public init(files: [String: Set<String>] = [:]) {
        self.files = files
    }

    public func owner(of name: String) -> String? {
        files.first { $0.value.contains(name) }?.key
    }

    public var text: String {
        var lines = ["# swiftdata-gen: the files it wrote in this folder, by the schema folder they come from. Commit it; do not edit it."]
        for owner in files.keys.sorted() {
            guard let names = files[owner], !names.isEmpty else { continue }
            lines.append("owner \(owner)")
            lines += names.sorted().map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Nil when the text is not a manifest this tool writes.
    public init?(parsing text: String) {
        var files: [String: Set<String>] = [:]
        var owner: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("owner ") {
                owner = String(line.dropFirst(6))
                continue
            }
            guard line.hasPrefix("  "), let owner, !line.dropFirst(2).contains("/") else { return nil }
            files[owner, default: []].insert(String(line.dropFirst(2)))
        }
        self.files = files
    }
}
