/// What the pipeline's writers share: whose files are whose, and the names of the files they
/// stage. Generated folders are updated through `FolderUpdate`; hook files and the lock here.
public enum OutputWriter {
    /// The schema folder as the manifest names it: relative to the output folder, so the
    /// manifest reads the same on every clone.
    public static func owner(schema: String, output: String) -> String {
        let from = absoluteComponents(output)
        let to = absoluteComponents(schema)
        let shared = zip(from, to).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    private static func absoluteComponents(_ path: String) -> [String] {
        FileSystem.canonicalPath(path).split(separator: "/").map(String.init)
    }

    /// Whether two folder arguments name one folder, through `..` and symbolic links.
    public static func sameFolder(_ a: String, _ b: String) -> Bool {
        absoluteComponents(a) == absoluteComponents(b)
    }

    /// Creates a user-owned file (hooks) when nothing is at its path; an existing file is never
    /// touched, and a symbolic link that points nowhere is an error rather than replaced.
    /// Returns whether it was created.
    public static func createIfMissing(_ file: GeneratedFile, in directory: String) -> (
        created: Bool, problem: Diagnostic?
    ) {
        let path = directory + "/" + file.name
        if FileSystem.isSymbolicLink(path) && !FileSystem.exists(path) {
            return (
                false,
                .error(
                    .outputWriteFailed,
                    "'\(path)' is a symbolic link to a file that does not exist; point it at your hooks file or "
                        + "remove it",
                    at: nil)
            )
        }
        if let kind = FileSystem.kind(path) {
            guard kind == .file else {
                return (
                    false,
                    .error(
                        .outputWriteFailed,
                        "'\(path)' is where the hooks file goes, and it is not a file; move it away", at: nil)
                )
            }
            return (false, nil)
        }
        if let reason = FileSystem.createDirectory(directory) {
            return (false, .error(.outputWriteFailed, "cannot create folder '\(directory)': \(reason)", at: nil))
        }
        if let problem = writeAtomically(Array(file.contents.utf8), to: path) { return (false, problem) }
        return (true, nil)
    }

    /// `.swiftdata-gen.1234.TripsSchemaV1.swift.tmp` (staged) or `….old` (a replaced file kept
    /// until the step is complete): the names this writer gives its own files.
    static let leftoverPrefix = ".swiftdata-gen."

    static func leftoverName(for name: String, kind: String) -> String {
        "\(leftoverPrefix)\(FileSystem.processID).\(name).\(kind)"
    }

    /// The process that staged a leftover (`.swiftdata-gen.<pid>.….tmp|.old`), or nil when the
    /// name is not one this writer gives.
    static func leftoverOwner(_ name: String) -> Int32? {
        guard name.hasPrefix(leftoverPrefix), name.hasSuffix(".tmp") || name.hasSuffix(".old") else { return nil }
        let pid = name.dropFirst(leftoverPrefix.count).prefix { $0 != "." }
        guard !pid.isEmpty, pid.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int32(pid)
    }

    static func isLeftover(_ name: String) -> Bool { leftoverOwner(name) != nil }

    /// What interrupted runs left: only files whose process is gone, so a run never removes the
    /// staged files of one still at work.
    static func removeLeftovers(in directory: String) {
        for name in FileSystem.names(in: directory) ?? [] {
            guard let owner = leftoverOwner(name), owner != FileSystem.processID, !FileSystem.processIsAlive(owner)
            else { continue }
            FileSystem.remove(directory + "/" + name)
        }
    }

    /// Writes a report the user asked for by path (a diagram, a plan), in one step. `marker`, the
    /// first line of every such file, shows the file is ours: one without it was written by
    /// someone else and is never replaced.
    public static func writeReport(_ text: String, to path: String, marker: String) -> Diagnostic? {
        if FileSystem.exists(path) {
            guard !FileSystem.isDirectory(path), !FileSystem.isSymbolicLink(path) else {
                return .error(
                    .outputWriteFailed, "'\(path)' is a folder or a link; name a file to write the report to", at: nil)
            }
            let head = FileSystem.contents(path).map { Array($0.prefix(marker.utf8.count)) } ?? []
            guard head == Array(marker.utf8) else {
                return .error(
                    .outputWriteFailed,
                    "'\(path)' exists and was not written by swiftdata-gen (its first line is not '\(marker)'); "
                        + "it is left as it is: remove it or choose another file",
                    at: nil)
            }
        }
        return writeAtomically(Array(text.utf8), to: path)
    }

    /// A temporary file in the same folder, then `rename`, which replaces the old file in one step.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) -> Diagnostic? {
        let folder = FileSystem.parentFolder(of: path)
        let temporary =
            (folder.isEmpty ? "" : folder + "/") + leftoverName(for: FileSystem.lastComponent(of: path), kind: "tmp")
        if let reason = FileSystem.write(bytes, to: temporary) {
            return .error(.outputWriteFailed, "cannot write '\(path)' (\(reason)); nothing was changed", at: nil)
        }
        guard FileSystem.move(temporary, to: path) else {
            FileSystem.remove(temporary)
            return .error(
                .outputWriteFailed, "cannot replace '\(path)' (\(FileSystem.lastError())); nothing was changed", at: nil
            )
        }
        return nil
    }
}
