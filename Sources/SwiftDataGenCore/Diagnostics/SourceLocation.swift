/// A place in a schema file; lines and columns are 1-based, columns count code points.
///
/// Every YAML node, AST field and IR declaration carries one, so it is kept to 12 bytes with no
/// reference to count: the file is a number into `SourceFiles`, which holds each name once.
public struct SourceLocation: Hashable, Sendable, Comparable {
    private let fileID: UInt32
    private let lineNumber: UInt32
    private let columnNumber: UInt32

    public init(file: String, line: Int, column: Int) {
        self.init(fileID: SourceFiles.shared.id(of: file), line: line, column: column)
    }

    /// For the parser: one lookup of the file name per file, not per node.
    init(fileID: UInt32, line: Int, column: Int) {
        self.fileID = fileID
        lineNumber = UInt32(clamping: line)
        columnNumber = UInt32(clamping: column)
    }

    public var file: String { SourceFiles.shared.name(of: fileID) }
    public var line: Int { Int(lineNumber) }
    public var column: Int { Int(columnNumber) }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.fileID != rhs.fileID { return lhs.file < rhs.file }
        return (lhs.lineNumber, lhs.columnNumber) < (rhs.lineNumber, rhs.columnNumber)
    }
}

/// The file names locations point into, each stored once for the life of the process.
final class SourceFiles: @unchecked Sendable {
    static let shared = SourceFiles()

    private let lock = Lock()
    private var names: [String] = []
    private var ids: [String: UInt32] = [:]

    func id(of name: String) -> UInt32 {
        lock.withLock {
            if let id = ids[name] { return id }
            let id = UInt32(names.count)
            names.append(name)
            ids[name] = id
            return id
        }
    }

    func name(of id: UInt32) -> String {
        lock.withLock { names[Int(id)] }
    }
}
