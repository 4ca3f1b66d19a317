import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What writing would do to an output folder, worked out before anything is touched.
public struct OutputChanges: Sendable, Equatable {
    public struct Change: Sendable, Equatable {
        public var name: String
        public var old: String?
        public var new: String?

        public init(name: String, old: String?, new: String?) {
            self.name = name
            self.old = old
            self.new = new
        }
    }

    /// Files to create or rewrite, and files this owner wrote before that are no longer produced.
    public var changes: [Change]
    public var unchanged: [String]
    /// The folder's manifest as it is (nil when there is none) and as it will be.
    public var oldManifest: String?
    public var newManifest: String

    public var isEmpty: Bool { changes.isEmpty && oldManifest == newManifest }
}

/// The pipeline's only writer. It decides what it owns from the folder's manifest, never from a
/// file's contents; rewrites a file only when its bytes change; and applies a folder's changes
/// as one step: everything is staged beside its target first, and a failure part way puts every
/// file back, so a folder is never left half old and half new.
public enum OutputWriter {
    /// Nil with diagnostics when a file in the way is not this owner's to write: then nothing is.
    /// `owner` names the schema folder, relative to `directory` (see `owner(schema:output:)`).
    public static func changes(for files: [GeneratedFile], in directory: String, owner: String) -> (changes: OutputChanges?, conflicts: [Diagnostic]) {
        let manifestPath = directory + "/" + OutputManifest.fileName
        let oldManifestText = FileManager.default.contents(atPath: manifestPath).map { String(decoding: $0, as: UTF8.self) }
        var manifest = OutputManifest()
        if let oldManifestText {
            guard let parsed = OutputManifest(parsing: oldManifestText) else {
                return (nil, [.error(
                    .outputNotOwned, "'\(manifestPath)' is not a manifest swiftdata-gen writes, so nothing in this folder can be known to be its own; restore it from version control or delete the generated files and the manifest",
                    at: SourceLocation(file: manifestPath, line: 1, column: 1))])
            }
            manifest = parsed
        }
        var changes: [OutputChanges.Change] = []
        var unchanged: [String] = []
        var conflicts: [Diagnostic] = []
        for file in files.sorted(by: { $0.name < $1.name }) {
            let path = directory + "/" + file.name
            guard let data = FileManager.default.contents(atPath: path) else {
                if FileManager.default.fileExists(atPath: path) || isSymbolicLink(path) {
                    conflicts.append(.error(.outputNotOwned, "'\(path)' is in the way and cannot be read as a file; move it away", at: SourceLocation(file: path, line: 1, column: 1)))
                } else {
                    changes.append(.init(name: file.name, old: nil, new: file.contents))
                }
                continue
            }
            let recorded = manifest.owner(of: file.name)
            // Bytes, not text: Swift's String equality calls NFC and NFD forms equal, and decoding
            // hides invalid UTF-8, so a rewritten file could pass as current.
            if data.elementsEqual(file.contents.utf8) && (recorded == nil || recorded == owner) {
                unchanged.append(file.name)
            } else if recorded == owner {
                changes.append(.init(name: file.name, old: String(decoding: data, as: UTF8.self), new: file.contents))
            } else if let recorded {
                conflicts.append(.error(
                    .outputNotOwned, "'\(path)' was written by swiftdata-gen for the schema folder \(recorded); two schema folders cannot write one file, so give each its own output folder",
                    at: SourceLocation(file: path, line: 1, column: 1)))
            } else {
                conflicts.append(.error(
                    .outputNotOwned, "'\(path)' is not in this folder's swiftdata-gen manifest, so it is not the generator's and is left alone; move it away or choose another output folder (output of an older swiftdata-gen, which kept no manifest: delete it once)",
                    at: SourceLocation(file: path, line: 1, column: 1)))
            }
        }
        let produced = Set(files.map(\.name))
        for name in (manifest.files[owner] ?? []).sorted() where !produced.contains(name) {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { continue }
            changes.append(.init(name: name, old: String(decoding: data, as: UTF8.self), new: nil))
        }
        manifest.files[owner] = produced
        let result = OutputChanges(changes: changes, unchanged: unchanged, oldManifest: oldManifestText, newManifest: manifest.text)
        return conflicts.isEmpty ? (result, []) : (nil, conflicts)
    }

    /// The schema folder as the manifest names it: relative to the output folder, so the
    /// manifest reads the same on every clone.
    public static func owner(schema: String, output: String) -> String {
        let from = absoluteComponents(output), to = absoluteComponents(schema)
        let shared = zip(from, to).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    private static func absoluteComponents(_ path: String) -> [String] {
        let base = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: base).standardizedFileURL.resolvingSymlinksInPath().pathComponents.filter { $0 != "/" }
    }

    /// Whether two folder arguments name one folder, through `..` and symbolic links.
    public static func sameFolder(_ a: String, _ b: String) -> Bool {
        absoluteComponents(a) == absoluteComponents(b)
    }

    /// Applies `changes` as one step; the folder is created when missing. What an interrupted
    /// earlier run left behind (its staged and backup files, named so no user file matches) is
    /// removed first. On failure nothing is changed and the diagnostic says so.
    public static func apply(_ changes: OutputChanges, in directory: String) -> [Diagnostic] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return [.error(.outputWriteFailed, "cannot create output folder '\(directory)': \(error.localizedDescription)", at: nil)]
        }
        removeLeftovers(in: directory)
        var writes = changes.changes.compactMap { change in change.new.map { (name: change.name, bytes: Array($0.utf8)) } }
        if changes.oldManifest != changes.newManifest { writes.append((OutputManifest.fileName, Array(changes.newManifest.utf8))) }
        var transaction = Transaction(directory: directory)
        for write in writes {
            if let problem = transaction.stage(write.bytes, as: write.name) {
                transaction.rollBack()
                return [problem]
            }
        }
        for change in changes.changes where change.new == nil { transaction.remove(change.name) }
        if let problem = transaction.commit() {
            transaction.rollBack()
            return [problem]
        }
        transaction.finish()
        return []
    }

    /// Creates a user-owned file (hooks) when nothing is at its path; an existing file is never
    /// touched, and a symbolic link that points nowhere is an error rather than replaced.
    /// Returns whether it was created.
    public static func createIfMissing(_ file: GeneratedFile, in directory: String) -> (created: Bool, problem: Diagnostic?) {
        let path = directory + "/" + file.name
        if isSymbolicLink(path) && !FileManager.default.fileExists(atPath: path) {
            return (false, .error(.outputWriteFailed, "'\(path)' is a symbolic link to a file that does not exist; point it at your hooks file or remove it", at: nil))
        }
        if FileManager.default.fileExists(atPath: path) { return (false, nil) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return (false, .error(.outputWriteFailed, "cannot create folder '\(directory)': \(error.localizedDescription)", at: nil))
        }
        if let problem = writeAtomically(Array(file.contents.utf8), to: path) { return (false, problem) }
        return (true, nil)
    }

    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// `.swiftdata-gen.1234.TripsSchemaV1.swift.tmp` (staged) or `….old` (a replaced file kept
    /// until the step is complete): the names this writer gives its own files.
    static let leftoverPrefix = ".swiftdata-gen."

    static func leftoverName(for name: String, kind: String) -> String {
        "\(leftoverPrefix)\(getpid()).\(name).\(kind)"
    }

    static func isLeftover(_ name: String) -> Bool {
        guard name.hasPrefix(leftoverPrefix), name.hasSuffix(".tmp") || name.hasSuffix(".old") else { return false }
        let pid = name.dropFirst(leftoverPrefix.count).prefix { $0 != "." }
        return !pid.isEmpty && pid.allSatisfy(\.isASCIIDigit)
    }

    static func removeLeftovers(in directory: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where isLeftover(name) {
            unlink(directory + "/" + name)
        }
    }

    /// A temporary file in the same folder, then `rename`, which replaces the old file in one step.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) -> Diagnostic? {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = folder + "/" + leftoverName(for: (path as NSString).lastPathComponent, kind: "tmp")
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            return .error(.outputWriteFailed, "cannot write '\(path)': the folder is not writable or the disk is full; nothing was changed", at: nil)
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            return .error(.outputWriteFailed, "cannot replace '\(path)' (\(String(cString: strerror(errno)))); nothing was changed", at: nil)
        }
        return nil
    }
}

/// One folder's writes: stage every new file, then swap them in keeping each replaced file until
/// all are in place; any failure restores what was there.
private struct Transaction {
    let directory: String
    private var staged: [(temporary: String, target: String)] = []
    private var removals: [String] = []
    /// Targets swapped in so far, with the backup of what they replaced.
    private var swapped: [(target: String, backup: String?)] = []

    init(directory: String) {
        self.directory = directory
    }

    mutating func stage(_ bytes: [UInt8], as name: String) -> Diagnostic? {
        let temporary = directory + "/" + OutputWriter.leftoverName(for: name, kind: "tmp")
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            return .error(.outputWriteFailed, "cannot write '\(directory)/\(name)': the folder is not writable or the disk is full; nothing was changed", at: nil)
        }
        staged.append((temporary, directory + "/" + name))
        return nil
    }

    /// Removed at commit, kept aside until the step is complete.
    mutating func remove(_ name: String) {
        removals.append(directory + "/" + name)
    }

    mutating func commit() -> Diagnostic? {
        for (temporary, target) in staged {
            var backup: String?
            if FileManager.default.fileExists(atPath: target) || OutputWriter.isSymbolicLink(target) {
                let kept = directory + "/" + OutputWriter.leftoverName(for: (target as NSString).lastPathComponent, kind: "old")
                guard link(target, kept) == 0 else { return failure(target) }
                backup = kept
            }
            guard rename(temporary, target) == 0 else {
                if let backup { unlink(backup) }
                return failure(target)
            }
            swapped.append((target, backup))
        }
        for target in removals {
            let kept = directory + "/" + OutputWriter.leftoverName(for: (target as NSString).lastPathComponent, kind: "old")
            guard rename(target, kept) == 0 else { return failure(target) }
            swapped.append((target, kept))
        }
        return nil
    }

    private func failure(_ target: String) -> Diagnostic {
        .error(.outputWriteFailed, "cannot replace '\(target)' (\(String(cString: strerror(errno)))); every file of '\(directory)' was put back as it was", at: nil)
    }

    /// Puts back every swapped file and removes what was staged.
    mutating func rollBack() {
        for (target, backup) in swapped.reversed() {
            if let backup {
                rename(backup, target)
            } else {
                unlink(target)
            }
        }
        for (temporary, _) in staged { unlink(temporary) }
        swapped = []
        staged = []
    }

    /// The step is complete: the kept copies go.
    mutating func finish() {
        for (_, backup) in swapped { if let backup { unlink(backup) } }
        swapped = []
    }
}
