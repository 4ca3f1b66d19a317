import Foundation

/// A file the importer reads but did not write (a model file of a bundle, a Swift source), read on
/// the one descriptor it is opened with: opened without waiting, refused unless it is a regular
/// file, and never read past `limit` bytes, so nothing swapped in after a check is waited on or
/// read whole.
enum UntrustedFile {
    enum Problem: Error, Equatable {
        case unreadable
        case notAFile(FileKind)
        case tooLarge(Int)
    }

    static func bytes(at path: String, limit: Int) -> Result<[UInt8], Problem> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notAFile(FileKind(mode: info.st_mode))) }
        guard Int(info.st_size) <= limit else { return .failure(.tooLarge(Int(info.st_size))) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return .success(bytes) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable)
            }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { return .failure(.tooLarge(bytes.count)) }
        }
    }
}
