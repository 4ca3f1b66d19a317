#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path holds, in the words a refusal uses.
public enum FileKind: String, Sendable, Equatable, CustomStringConvertible {
    case file = "a file"
    case folder = "a folder"
    case pipe = "a named pipe"
    case socket = "a socket"
    case device = "a device"
    case link = "a symbolic link to nothing readable"

    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .file
        case S_IFDIR: self = .folder
        case S_IFIFO: self = .pipe
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .link
        default: self = .device
        }
    }

    public var description: String { rawValue }
}

/// A file read but not written by the tools (a schema file, a Swift source, a model file of a
/// bundle), read on the one descriptor it is opened with: opened without waiting (a FIFO would
/// otherwise block until something writes to it), refused unless it is a regular file, and never
/// read past `limit` bytes, so nothing swapped in after a check is waited on or read whole.
public enum UntrustedFile {
    public enum Reading: Equatable, Sendable {
        case bytes([UInt8])
        case notAFile(FileKind)
        /// Larger than the limit, counted on the open file and while reading, so a file that grows
        /// or is swapped after a check is still held to it.
        case tooLarge(Int)
        case unreadable
    }

    public static func bytes(at path: String, limit: Int) -> Reading {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .unreadable }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .unreadable }
        let kind = FileKind(mode: info.st_mode)
        guard kind == .file else { return .notAFile(kind) }
        guard Int(info.st_size) <= limit else { return .tooLarge(Int(info.st_size)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return .bytes(bytes) }
            if count < 0 {
                if errno == EINTR { continue }
                return .unreadable
            }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { return .tooLarge(bytes.count) }
        }
    }

    /// The bytes as text when they are valid UTF-8, nil otherwise. The standard library's
    /// `String(validating:as:)` says the same but needs macOS 15, and the tool runs from macOS 13.
    public static func utf8Text(_ bytes: [UInt8]) -> String? {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error: return nil
            }
        }
    }
}
