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
    }

    /// Files to create or rewrite, and generator-owned files no longer produced.
    public var changes: [Change]
    public var unchanged: [String]

    public var isEmpty: Bool { changes.isEmpty }
}

/// The pipeline's only writer. It rewrites a file only when its bytes change, writes through a
/// temporary file and a rename so a reader never sees half a file, and never touches a file that
/// lacks the generator's header.
public enum OutputWriter {
    /// Nil with diagnostics when a file in the way is not the generator's: then nothing is written.
    public static func changes(for files: [GeneratedFile], in directory: String) -> (changes: OutputChanges?, conflicts: [Diagnostic]) {
        let existing = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
        var changes: [OutputChanges.Change] = []
        var unchanged: [String] = []
        var conflicts: [Diagnostic] = []
        let produced = Set(files.map(\.name))
        for file in files.sorted(by: { $0.name < $1.name }) {
            let path = directory + "/" + file.name
            guard let data = FileManager.default.contents(atPath: path) else {
                changes.append(.init(name: file.name, old: nil, new: file.contents))
                continue
            }
            let old = String(decoding: data, as: UTF8.self)
            // Bytes, not text: Swift's String equality calls NFC and NFD forms equal, and decoding
            // hides invalid UTF-8, so a rewritten file could pass as current.
            if data.elementsEqual(file.contents.utf8) {
                unchanged.append(file.name)
            } else if isOwned(old) {
                changes.append(.init(name: file.name, old: old, new: file.contents))
            } else {
                conflicts.append(.error(
                    .outputNotOwned, "'\(path)' was not written by swiftdata-gen, so it is left alone; move it away or choose another output folder",
                    at: SourceLocation(file: path, line: 1, column: 1)))
            }
        }
        for name in existing where !produced.contains(name) {
            let path = directory + "/" + name
            if let data = FileManager.default.contents(atPath: path), isOwned(String(decoding: data, as: UTF8.self)) {
                changes.append(.init(name: name, old: String(decoding: data, as: UTF8.self), new: nil))
            }
        }
        return conflicts.isEmpty ? (OutputChanges(changes: changes, unchanged: unchanged), []) : (nil, conflicts)
    }

    static func isOwned(_ contents: String) -> Bool {
        contents.hasPrefix(GeneratedFile.headerMarker)
    }

    /// Applies `changes`; the folder is created when missing. Temporary files that an
    /// interrupted earlier run left behind are removed first.
    public static func apply(_ changes: OutputChanges, in directory: String) -> [Diagnostic] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return [.error(.outputWriteFailed, "cannot create output folder '\(directory)': \(error.localizedDescription)", at: nil)]
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where isTemporary(name) {
            unlink(directory + "/" + name)
        }
        var diagnostics: [Diagnostic] = []
        for change in changes.changes {
            let path = directory + "/" + change.name
            if let contents = change.new {
                if let problem = writeAtomically(Array(contents.utf8), to: path) { diagnostics.append(problem) }
            } else if unlink(path) != 0 {
                diagnostics.append(.error(.outputWriteFailed, "cannot remove stale generated file '\(path)'", at: nil))
            }
        }
        return diagnostics
    }

    /// Creates a user-owned file (hooks) when it does not exist; an existing one is never touched.
    /// Returns whether it was created.
    public static func createIfMissing(_ file: GeneratedFile, in directory: String) -> (created: Bool, problem: Diagnostic?) {
        let path = directory + "/" + file.name
        if FileManager.default.fileExists(atPath: path) { return (false, nil) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return (false, .error(.outputWriteFailed, "cannot create folder '\(directory)': \(error.localizedDescription)", at: nil))
        }
        if let problem = writeAtomically(Array(file.contents.utf8), to: path) { return (false, problem) }
        return (true, nil)
    }

    /// `.TripsSchemaV1.swift.1234.tmp`: the name `writeAtomically` gives its temporary files.
    static func isTemporary(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        return name.hasPrefix(".") && parts.count >= 4 && parts.last == "tmp" && parts[parts.count - 2].allSatisfy(\.isASCIIDigit)
            && parts[parts.count - 3] == "swift"
    }

    /// Temp file in the same folder, then `rename`, which replaces the old file in one step.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) -> Diagnostic? {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = "\(folder)/.\(name).\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            return .error(.outputWriteFailed, "cannot write '\(temporary)'", at: nil)
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            return .error(.outputWriteFailed, "cannot replace '\(path)'", at: nil)
        }
        return nil
    }
}
