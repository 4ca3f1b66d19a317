/// A generated file that differs from what the folder holds: `old` nil when it is new, `new` nil
/// when it is no longer produced.
public struct OutputChange: Sendable, Equatable {
    public var name: String
    public var old: String?
    public var new: String?

    public init(name: String, old: String?, new: String?) {
        self.name = name
        self.old = old
        self.new = new
    }
}

/// One output folder brought up to date, fed one rendered file at a time so that no more than a
/// file's text need be in memory. It decides what it owns from the folder's manifest, never from
/// a file's contents; rewrites a file only when its bytes change; and changes the folder in one
/// step: each changed file is staged beside its target as it arrives, and only `commit` swaps
/// them in, putting every file back if one cannot be replaced.
public struct FolderUpdate {
    public enum Mode: Sendable {
        /// Stage changed files for `commit`.
        case write
        /// Only compare, returning each change with both texts (`check`).
        case check
    }

    public let directory: String
    /// The schema folder, relative to `directory` (see `OutputWriter.owner(schema:output:)`).
    public let owner: String
    public let mode: Mode
    /// Conflicts and failed writes; while there are any, `commit` changes nothing.
    public private(set) var problems: [Diagnostic] = []
    /// What the update did that the user should know of (a moved schema folder taken over).
    public private(set) var warnings: [Diagnostic] = []
    public private(set) var changed: [String] = []
    public private(set) var unchanged: [String] = []

    private var manifest = OutputManifest()
    private let oldManifestText: String?
    private var produced: Set<String> = []
    private var transaction: Transaction
    private var createdDirectory = false
    /// Held from before the manifest is read until this update is done: two runs on one folder
    /// take turns, so neither reads a manifest the other is about to replace.
    private var lock: FolderLock?

    /// `onWait` is called when another run holds the folder and this one waits for it.
    public init(directory: String, owner: String, mode: Mode, onWait: () -> Void = {}) {
        self.directory = directory
        self.owner = owner
        self.mode = mode
        transaction = Transaction(directory: directory)
        if FileSystem.exists(directory) && !FileSystem.isDirectory(directory) {
            problems.append(
                .error(
                    .outputWriteFailed,
                    "'\(directory)' is a file, not a folder; name a folder for the generated files (it is made "
                        + "when missing)",
                    at: nil))
            oldManifestText = nil
            return
        }
        if mode == .write && !FileSystem.exists(directory) {
            if let reason = FileSystem.createDirectory(directory) {
                problems.append(
                    .error(.outputWriteFailed, "cannot create output folder '\(directory)': \(reason)", at: nil))
            } else {
                createdDirectory = true
            }
        }
        if FileSystem.isDirectory(directory) {
            lock = FileSystem.lockFolder(directory, exclusive: mode == .write, onWait: onWait).map(FolderLock.init)
        }
        let manifestPath = directory + "/" + OutputManifest.fileName
        if let size = FileSystem.fileSize(manifestPath), size > OutputManifest.maxBytes {
            problems.append(
                .error(
                    .outputNotOwned,
                    "'\(manifestPath)' is \(size) bytes, more than any manifest swiftdata-gen writes "
                        + "(\(OutputManifest.maxBytes)); restore it from version control or delete the generated files "
                        + "and the manifest",
                    at: SourceLocation(file: manifestPath, line: 1, column: 1)))
            oldManifestText = nil
            return
        }
        oldManifestText = FileSystem.contents(manifestPath).map { String(decoding: $0, as: UTF8.self) }
        if oldManifestText == nil, FileSystem.exists(manifestPath) || FileSystem.isSymbolicLink(manifestPath) {
            problems.append(
                .error(
                    .outputNotOwned,
                    "'\(manifestPath)' is not a file swiftdata-gen can read (a folder, a FIFO or a broken link), "
                        + "so nothing in this folder can be known to be its own; remove it",
                    at: SourceLocation(file: manifestPath, line: 1, column: 1)))
        }
        if let oldManifestText {
            if let parsed = OutputManifest(parsing: oldManifestText) {
                manifest = parsed
            } else {
                problems.append(
                    .error(
                        .outputNotOwned,
                        "'\(manifestPath)' is not a manifest swiftdata-gen writes, so nothing in this folder can "
                            + "be known to be its own; restore it from version control or delete the generated files "
                            + "and the manifest",
                        at: SourceLocation(file: manifestPath, line: 1, column: 1)))
            }
        }
        // What an interrupted earlier run staged or kept aside (named so no user file matches).
        if mode == .write { OutputWriter.removeLeftovers(in: directory) }
    }

    /// Compares `file` with the folder's bytes. In `write` mode a changed file is staged at once
    /// and its text let go; in `check` mode the change is returned with both texts. Nil when the
    /// file is current, staged, or not this owner's to write (then `problems` says why).
    @discardableResult
    public mutating func add(_ file: GeneratedFile) -> OutputChange? {
        produced.insert(file.name)
        let path = directory + "/" + file.name
        guard let data = FileSystem.contents(path) else {
            if FileSystem.exists(path) || FileSystem.isSymbolicLink(path) {
                problems.append(
                    .error(
                        .outputNotOwned, "'\(path)' is in the way and cannot be read as a file; move it away",
                        at: SourceLocation(file: path, line: 1, column: 1)))
                return nil
            }
            return record(OutputChange(name: file.name, old: nil, new: file.contents))
        }
        var recorded = manifest.owner(of: file.name)
        if let previous = recorded, previous != owner, !FileSystem.isDirectory(directory + "/" + previous) {
            takeOver(previous)
            recorded = owner
        }
        if let other = manifest.otherOwners(of: file.name).first, let recorded {
            problems.append(
                .error(
                    .outputNotOwned,
                    "'\(path)' is listed in this folder's manifest under two schema folders, \(recorded) and "
                        + "\(other), which swiftdata-gen never writes; restore the manifest from version control",
                    at: SourceLocation(file: path, line: 1, column: 1)))
            return nil
        }
        // Bytes, not text: Swift's String equality calls NFC and NFD forms equal, and decoding
        // hides invalid UTF-8, so a rewritten file could pass as current.
        if FileSystem.sameBytes(data, file.contents) && (recorded == nil || recorded == owner) {
            unchanged.append(file.name)
            return nil
        }
        if recorded == owner {
            return record(
                OutputChange(
                    name: file.name, old: mode == .check ? String(decoding: data, as: UTF8.self) : nil,
                    new: file.contents))
        }
        if let recorded {
            problems.append(
                .error(
                    .outputNotOwned,
                    "'\(path)' was written by swiftdata-gen for the schema folder \(recorded) (relative to the "
                        + "output folder), which still exists; two schema folders cannot write one file, so give each "
                        + "its own output folder (if \(recorded) is an old copy of this schema folder, delete it and "
                        + "run again)",
                    at: SourceLocation(file: path, line: 1, column: 1)))
        } else {
            problems.append(
                .error(
                    .outputNotOwned,
                    "'\(path)' is not in this folder's swiftdata-gen manifest, so it is not the generator's and "
                        + "is left alone; move it away or choose another output folder (output of an older "
                        + "swiftdata-gen, which kept no manifest: delete it once)",
                    at: SourceLocation(file: path, line: 1, column: 1)))
        }
        return nil
    }

    /// A schema folder that wrote files here is gone, and this one produces them: it was moved
    /// or renamed (or the output folder was), so its files become this owner's, said once.
    private mutating func takeOver(_ previous: String) {
        guard let files = manifest.files.removeValue(forKey: previous) else { return }
        manifest.files[owner, default: []].formUnion(files)
        warnings.append(
            .warning(
                .outputNotOwned,
                "the schema folder that wrote the files in '\(directory)', \(previous) (relative to it), no "
                    + "longer exists; \(owner) takes them over, as when a folder is moved or renamed",
                at: SourceLocation(file: directory + "/" + OutputManifest.fileName, line: 1, column: 1)))
    }

    /// After the last `add`: the files this owner wrote before and no longer produces, and the
    /// manifest; staged in `write` mode, returned in `check` mode.
    public mutating func finish() -> [OutputChange] {
        var changes: [OutputChange] = []
        for name in (manifest.files[owner] ?? []).sorted() where !produced.contains(name) {
            guard let data = FileSystem.contents(directory + "/" + name) else { continue }
            if let change = record(
                OutputChange(name: name, old: mode == .check ? String(decoding: data, as: UTF8.self) : nil, new: nil))
            {
                changes.append(change)
            }
        }
        let written = manifest.files[owner] ?? []
        manifest.files[owner] = produced
        let newManifest = manifest.text
        if newManifest != oldManifestText {
            // The manifest is the tool's own record, not a generated file: not counted as changed.
            let change = OutputChange(name: OutputManifest.fileName, old: oldManifestText, new: newManifest)
            if mode == .check {
                changes.append(change)
            } else if problems.isEmpty {
                // Swapped in before any file, listing the files of both runs, so a run stopped
                // part-way leaves every file it wrote owned, and the next run finishes the job;
                // the manifest without the removed files follows the last swap.
                var interim = manifest
                interim.files[owner] = written.union(produced)
                if let problem = transaction.stage(Array(interim.text.utf8), as: OutputManifest.fileName, at: .first) {
                    problems.append(problem)
                }
                if interim != manifest,
                    let problem = transaction.stage(Array(newManifest.utf8), as: OutputManifest.fileName, at: .last)
                {
                    problems.append(problem)
                }
            }
        }
        return changes
    }

    private mutating func record(_ change: OutputChange) -> OutputChange? {
        changed.append(change.name)
        guard mode == .write else { return change }
        if problems.isEmpty { stage(change) }
        return nil
    }

    private mutating func stage(_ change: OutputChange) {
        guard let new = change.new else {
            transaction.remove(change.name)
            return
        }
        if !createdDirectory && !FileSystem.exists(directory) {
            if let reason = FileSystem.createDirectory(directory) {
                problems.append(
                    .error(.outputWriteFailed, "cannot create output folder '\(directory)': \(reason)", at: nil))
                return
            }
            createdDirectory = true
        }
        if let problem = transaction.stage(Array(new.utf8), as: change.name) { problems.append(problem) }
    }

    /// Swaps in every staged file of every update, or none: when one cannot be replaced, all of
    /// them are put back. Nothing is changed while any update has problems.
    public static func commit(_ updates: inout [FolderUpdate]) -> [Diagnostic] {
        let problems = updates.flatMap(\.problems)
        guard problems.isEmpty else {
            for index in updates.indices { updates[index].abandon() }
            return problems
        }
        for index in updates.indices {
            if let reason = updates[index].transaction.commit() {
                var unrestored: [String] = []
                for undone in updates.indices.prefix(through: index).reversed() {
                    unrestored += updates[undone].abandon()
                }
                for later in updates.indices.dropFirst(index + 1) { unrestored += updates[later].abandon() }
                // Said only once the putting back is done, as it turned out.
                let outcome =
                    unrestored.isEmpty
                    ? "every file was put back as it was"
                    : "these could not be put back: \(unrestored.joined(separator: ", ")); what they held is in "
                        + "the .swiftdata-gen.*.old files beside them"
                return [.error(.outputWriteFailed, "\(reason); \(outcome)", at: nil)]
            }
        }
        for index in updates.indices { updates[index].transaction.finish() }
        return []
    }

    /// Puts back whatever was swapped in and removes what was staged (and the folder, when this
    /// update made it and it is empty again).
    /// Returns the files that could not be put back.
    @discardableResult
    public mutating func abandon() -> [String] {
        let unrestored = transaction.rollBack()
        if createdDirectory {
            lock = nil
            FileSystem.removeEmptyFolder(directory)
            createdDirectory = false
        }
        return unrestored
    }
}

/// An output folder's lock, released when the last update holding it is gone.
final class FolderLock {
    let descriptor: Int32

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        FileSystem.unlock(descriptor)
    }
}

/// One folder's writes: stage every new file, then swap them in keeping each replaced file until
/// all are in place; any failure restores what was there.
struct Transaction {
    let directory: String
    private var staged: [(temporary: String, target: String)] = []
    private var removals: [String] = []
    /// Swapped in after every other change, removals included.
    private var closing: (temporary: String, target: String)?
    /// Targets swapped in so far, with the backup of what they replaced.
    private var swapped: [(target: String, backup: String?)] = []

    init(directory: String) {
        self.directory = directory
    }

    /// Where a staged file goes in the order of swaps: the manifest is swapped in first (listing
    /// the files of both runs) and last (without the removed ones).
    enum Order {
        case first, inTurn, last
    }

    mutating func stage(_ bytes: [UInt8], as name: String, at order: Order = .inTurn) -> Diagnostic? {
        let temporary =
            directory + "/" + OutputWriter.leftoverName(for: name + (order == .inTurn ? "" : ".\(order)"), kind: "tmp")
        if let reason = FileSystem.write(bytes, to: temporary) {
            return .error(
                .outputWriteFailed, "cannot write '\(directory)/\(name)' (\(reason)); nothing was changed", at: nil)
        }
        let entry = (temporary, directory + "/" + name)
        switch order {
        case .first: staged.insert(entry, at: 0)
        case .inTurn: staged.append(entry)
        case .last: closing = entry
        }
        return nil
    }

    /// Removed at commit, kept aside until the step is complete.
    mutating func remove(_ name: String) {
        removals.append(directory + "/" + name)
    }

    /// Nil when every change is in place; else why one could not be made.
    mutating func commit() -> String? {
        for (temporary, target) in staged {
            if let failure = swap(temporary, into: target) { return failure }
        }
        for target in removals {
            let kept = backupName(for: target)
            guard FileSystem.move(target, to: kept) else { return failure(target) }
            swapped.append((target, kept))
        }
        if let (temporary, target) = closing, let failure = swap(temporary, into: target) { return failure }
        return nil
    }

    private mutating func swap(_ temporary: String, into target: String) -> String? {
        var backup: String?
        if FileSystem.exists(target) || FileSystem.isSymbolicLink(target) {
            let kept = backupName(for: target)
            guard FileSystem.hardLink(target, at: kept) else { return failure(target) }
            backup = kept
        }
        guard FileSystem.move(temporary, to: target) else {
            if let backup { FileSystem.remove(backup) }
            return failure(target)
        }
        swapped.append((target, backup))
        return nil
    }

    /// Numbered by swap, since one target (the manifest) may be replaced twice in a step.
    private func backupName(for target: String) -> String {
        directory + "/"
            + OutputWriter.leftoverName(for: FileSystem.lastComponent(of: target) + ".\(swapped.count)", kind: "old")
    }

    private func failure(_ target: String) -> String {
        "cannot replace '\(target)' (\(FileSystem.lastError()))"
    }

    /// Puts back every swapped file and removes what was staged; returns the targets that could
    /// not be put back.
    mutating func rollBack() -> [String] {
        var unrestored: [String] = []
        for (target, backup) in swapped.reversed() {
            if let backup {
                if !FileSystem.move(backup, to: target) { unrestored.append(target) }
            } else {
                FileSystem.remove(target)
                if FileSystem.exists(target) { unrestored.append(target) }
            }
        }
        for (temporary, _) in staged { FileSystem.remove(temporary) }
        if let (temporary, _) = closing { FileSystem.remove(temporary) }
        swapped = []
        staged = []
        closing = nil
        return unrestored
    }

    /// The step is complete: the kept copies go.
    mutating func finish() {
        for (_, backup) in swapped { if let backup { FileSystem.remove(backup) } }
        swapped = []
    }
}
