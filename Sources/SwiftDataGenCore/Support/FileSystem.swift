#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations the loader and the writers need, on the C library directly and nowhere
/// else: the tool does not import Foundation, which every build through the plugin would
/// otherwise pay to load.
enum FileSystem {
    /// What is at `path`, following symbolic links; nil when nothing is (or a link points nowhere).
    static func kind(_ path: String) -> FileKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileKind(mode: info.st_mode)
    }

    static func exists(_ path: String) -> Bool { kind(path) != nil }

    static func isDirectory(_ path: String) -> Bool { kind(path) == .folder }

    /// Whether `path` itself is a symbolic link, whatever it points to.
    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The size of the regular file at `path` (links followed); nil for anything else.
    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, FileKind(mode: info.st_mode) == .file else { return nil }
        return Int(info.st_size)
    }

    /// Whether a file's bytes are exactly a text's UTF-8, compared as memory: the generic
    /// element-by-element walk cost twenty instructions a byte over a no-op regeneration's output.
    static func sameBytes(_ bytes: [UInt8], _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            bytes.withUnsafeBytes { data in
                guard data.count == utf8.count else { return false }
                guard let left = data.baseAddress, let right = utf8.baseAddress else { return true }
                return memcmp(left, right, utf8.count) == 0
            }
        }
    }

    /// The whole file, or nil when it cannot be read as one (`UntrustedFile.bytes(at:limit:)` without a limit).
    static func contents(_ path: String) -> [UInt8]? {
        if case .bytes(let bytes) = UntrustedFile.bytes(at: path, limit: .max) { return bytes }
        return nil
    }

    /// Names in a folder, `.` and `..` left out, in the order the system lists them.
    static func names(in directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates a new file (or truncates one) holding `bytes`; nil on success, else the reason.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return lastError() }
        let failure: String? = bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count, let start = buffer.baseAddress {
                let count = systemWrite(descriptor, start + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return lastError()
                }
                written += count
            }
            return nil
        }
        if let failure {
            close(descriptor)
            remove(path)
            return failure
        }
        guard close(descriptor) == 0 else {
            let reason = lastError()
            remove(path)
            return reason
        }
        return nil
    }

    /// `mkdir -p`: nil when the folder exists afterwards, else the reason.
    static func createDirectory(_ path: String) -> String? {
        if isDirectory(path) { return nil }
        let parent = parentFolder(of: path)
        if !parent.isEmpty && parent != path, let reason = createDirectory(parent) { return reason }
        if mkdir(path, 0o777) == 0 || (errno == EEXIST && isDirectory(path)) { return nil }
        return lastError()
    }

    /// `rename`: replaces `destination` in one step when both are in one folder.
    static func move(_ source: String, to destination: String) -> Bool {
        rename(source, destination) == 0
    }

    /// A second name for the file at `existing`, so it survives `existing` being replaced.
    static func hardLink(_ existing: String, at name: String) -> Bool {
        link(existing, name) == 0
    }

    static func remove(_ path: String) {
        unlink(path)
    }

    /// Removes a folder only when it is empty (`rmdir`).
    static func removeEmptyFolder(_ path: String) {
        rmdir(path)
    }

    /// Names the files this process stages, so a later run knows an interrupted one's leftovers.
    static var processID: Int32 { getpid() }

    /// Whether a process with this ID is running (or exists under another user).
    static func processIsAlive(_ id: Int32) -> Bool {
        id > 0 && (kill(id, 0) == 0 || errno == EPERM)
    }

    /// An advisory lock on a folder, held until `unlock` (or the process ends, which the system
    /// sees to): exclusive for a writer, shared for a reader. `onWait` is called once when
    /// another process holds it and this one must wait. Nil when the folder cannot be opened.
    static func lockFolder(_ path: String, exclusive: Bool, onWait: () -> Void) -> Int32? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard descriptor >= 0 else { return nil }
        let kind = exclusive ? LOCK_EX : LOCK_SH
        if flock(descriptor, kind | LOCK_NB) != 0 {
            onWait()
            while flock(descriptor, kind) != 0 {
                guard errno == EINTR else {
                    close(descriptor)
                    return nil
                }
            }
        }
        return descriptor
    }

    static func unlock(_ descriptor: Int32) {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    static func currentDirectory() -> String {
        guard let buffer = getcwd(nil, 0) else { return "." }
        defer { free(buffer) }
        return String(cString: buffer)
    }

    /// `path` made absolute, `.` and `..` taken out, and symbolic links resolved as far as the
    /// path exists, so a folder that is yet to be made still compares equal to its later self.
    static func canonicalPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        var existing = parts.count
        while existing > 0 {
            let prefix = "/" + parts[..<existing].joined(separator: "/")
            if let resolved = realPath(prefix) {
                let rest = parts[existing...].joined(separator: "/")
                return rest.isEmpty ? resolved : (resolved == "/" ? "/" : resolved + "/") + rest
            }
            existing -= 1
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The last path component (`a/b.swift` → `b.swift`).
    static func lastComponent(of path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }

    /// Everything before the last component (`a/b.swift` → `a`, `b.swift` → ``, `/b` → `/`).
    static func parentFolder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The text of the C library's last error, as in "Permission denied".
    static func lastError() -> String {
        String(cString: strerror(errno))
    }

    /// The C library's `write`, which `write(_:to:)` above hides by name.
    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #elseif canImport(Musl)
            Musl.write(descriptor, bytes, count)
        #else
            Darwin.write(descriptor, bytes, count)
        #endif
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
