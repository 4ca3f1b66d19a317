import Foundation
import SwiftDataGenCore

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// What a Core Data or SwiftData SQLite store holds about its own shape: its tables and their
/// columns, the entity rows of `Z_PRIMARYKEY`, and the metadata Core Data keeps in `Z_METADATA`.
/// No row of an entity table is read, so a store's size does not matter.
public struct StoreContents: Sendable, Equatable {
    public var path: String
    public var tables: [Table]
    public var entities: [EntityRow]
    public var metadata: StoreMetadata
    /// The model the store keeps of itself in `Z_MODELCACHE`; nil when it has none (stores
    /// written before iOS 11) or the bytes are not a model archive (`modelCacheUnreadable`).
    public var model: StoreModel?
    public var modelCacheUnreadable = false

    public struct Table: Sendable, Equatable {
        public var name: String
        /// In the table's order, with their declared types as written (`VARCHAR`, `INTEGER`, …).
        public var columns: [(name: String, type: String)]
        /// Columns that have an index of their own: Core Data indexes every to-one relationship's.
        public var indexedColumns: Set<String>
        /// The columns of each unique index Core Data made for a uniqueness constraint
        /// (`Z_<Entity>_UNIQUE_<names>`).
        public var uniqueColumns: Set<Set<String>> = []

        public static func == (lhs: Table, rhs: Table) -> Bool {
            lhs.name == rhs.name && lhs.columns.map(\.name) == rhs.columns.map(\.name)
                && lhs.columns.map(\.type) == rhs.columns.map(\.type) && lhs.indexedColumns == rhs.indexedColumns
                && lhs.uniqueColumns == rhs.uniqueColumns
        }
    }

    /// One row of `Z_PRIMARYKEY`: an entity's number, name, its superentity's number (0 for none),
    /// and the largest primary key handed out, which bounds how many rows it ever had.
    public struct EntityRow: Sendable, Equatable {
        public var number: Int
        public var name: String
        public var superentity: Int
        public var largestKey: Int
    }
}

/// The `Z_METADATA` property list: what Core Data matches a store to a model by.
public struct StoreMetadata: Sendable, Equatable {
    /// `NSStoreModelVersionHashes`: each entity's 32-byte version hash, by entity name.
    public var versionHashes: [String: [UInt8]]
    public var versionIdentifiers: [String]
    public var storeType: String?
    public var storeUUID: String?
    public var frameworkVersion: Int?
    public var hashesVersion: Int?
}

/// Why a store was not read. Each names the file and what to do; none leaves anything written.
public enum StoreFailure: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case notAFile(String, kind: FileKind)
    /// A `-wal` or `-journal` name held by something SQLite cannot use as one.
    case companionNotAFile(String, kind: FileKind)
    case unreadable(String)
    case notSQLite(String)
    case writeAheadLog(String)
    case hotJournal(String)
    case locked(String)
    case notCoreData(String, missing: String)
    case noMetadataRow(String)
    case unreadableMetadata(String, reason: String)
    case tooLarge(String, what: String)
    case damaged(String, message: String)

    /// Paths and store text shown safe for a terminal (`TerminalText`).
    public var description: String { TerminalText.shown(words, limit: 1_000) }

    private var words: String {
        switch self {
        case .missing(let path): return "\(path): no such file; name the store file (.store or .sqlite) itself"
        case .notAFile(let path, let kind):
            return "\(path): \(kind), not a file; name the store file (.store or .sqlite) itself"
        case .companionNotAFile(let path, let kind):
            return "\(path): \(kind) where SQLite keeps a file of the store's; move it aside or inspect a copy of "
                + "the store in a folder of its own"
        case .unreadable(let path): return "\(path): this user may not read it; copy it somewhere readable"
        case .notSQLite(let path):
            return "\(path): not an SQLite database; a SwiftData or Core Data store is the .store (or .sqlite) file "
                + "in the app's Application Support folder"
        case .writeAheadLog(let path):
            return "\(path)-wal holds changes not yet in \(path): copy all three files (.store, -wal, -shm) "
                + "into an empty folder, run sqlite3 <copy> 'PRAGMA wal_checkpoint(TRUNCATE)' on the copy, and "
                + "inspect the copy; the original is never written to"
        case .hotJournal(let path):
            return "\(path)-journal is beside the store: a write was interrupted and only a writer can finish it; "
                + "open the store once in the app, or inspect a copy made after that"
        case .locked(let path):
            return "\(path) is open in another process (it holds SQLite's lock): quit the app or the simulator, "
                + "or inspect a copy"
        case .notCoreData(let path, let missing):
            return "\(path): an SQLite database without Core Data's \(missing) table, so not a SwiftData or Core "
                + "Data store"
        case .noMetadataRow(let path):
            return "\(path): no Z_METADATA row, so nothing says which model wrote the store; the store is damaged"
        case .unreadableMetadata(let path, let reason):
            return "\(path): Z_METADATA's property list cannot be read (\(reason)); the store is damaged"
        case .tooLarge(let path, let what):
            return "\(path): \(what) is beyond what a store's schema holds; this is not a store to inspect"
        case .damaged(let path, let message): return "\(path): SQLite cannot read it (\(message)); the file is damaged"
        }
    }
}

public enum StoreFile {
    /// Reads the store at `path` read-only. A store left with a write-ahead log or a hot journal,
    /// or locked by another process, is refused rather than read half-written; then it is opened
    /// immutable, so SQLite creates no `-shm` or journal beside it. The file is opened once, without
    /// waiting (a pipe would block a read forever), checked on that descriptor, and handed to SQLite
    /// through it, so what was checked is what is read. A symbolic link is followed.
    public static func read(_ path: String) throws(StoreFailure) -> StoreContents {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw errno == ENOENT || errno == ENOTDIR ? .missing(path) : .unreadable(path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path, kind: FileKind(mode: info.st_mode)) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 100, 0) }
        guard count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else { throw .notSQLite(path) }
        for (suffix, failure) in [("-wal", StoreFailure.writeAheadLog(path)), ("-journal", .hotJournal(path))] {
            switch companion(path + suffix) {
            case .absent, .empty: continue
            case .holdsBytes: throw failure
            case .other(let kind): throw .companionNotAFile(path + suffix, kind: kind)
            }
        }
        if isLocked(descriptor) { throw .locked(path) }

        let database = try Connection(path: path, descriptor: descriptor)
        defer { database.close() }
        let tableNames = try database.strings("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        guard tableNames.count <= ReadingBudget.storeTables else {
            throw .tooLarge(path, what: "\(tableNames.count) tables")
        }
        for required in ["Z_PRIMARYKEY", "Z_METADATA"] where !tableNames.contains(required) {
            throw .notCoreData(path, missing: required)
        }
        var tables: [StoreContents.Table] = []
        for name in tableNames where !name.hasPrefix("sqlite_") {
            let quoted = quote(name)
            let columns = try database.rows("PRAGMA table_info(\(quoted))") { row in
                (name: row.text(1) ?? "", type: (row.text(2) ?? "").uppercased())
            }
            var indexed: Set<String> = []
            var unique: Set<Set<String>> = []
            for (index, isUnique) in try database.rows(
                "PRAGMA index_list(\(quoted))", { ($0.text(1) ?? "", $0.int(2) == 1) })
            {
                let indexColumns = try database.strings("PRAGMA index_info(\(quote(index)))", column: 2)
                if isUnique && index.hasPrefix("Z_") && index.contains("_UNIQUE_") {
                    unique.insert(Set(indexColumns))
                } else if indexColumns.count == 1 {
                    indexed.insert(indexColumns[0])
                }
            }
            tables.append(
                StoreContents.Table(name: name, columns: columns, indexedColumns: indexed, uniqueColumns: unique))
        }
        let entities = try database.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
            row in
            StoreContents.EntityRow(
                number: row.int(0), name: row.text(1) ?? "", superentity: row.int(2), largestKey: row.int(3))
        }
        guard let plist = try database.firstBlob("Z_PLIST", of: "Z_METADATA", limit: ReadingBudget.storeValueBytes)
        else {
            throw .noMetadataRow(path)
        }
        let metadata = try StoreMetadata(plist: plist, path: path)
        var contents = StoreContents(path: path, tables: tables, entities: entities, metadata: metadata)
        if tableNames.contains("Z_MODELCACHE") {
            // A model cache beyond the limit is left unread, like one that is not an archive.
            let cache: Data?
            do throws(StoreFailure) {
                cache = try database.firstBlob("Z_CONTENT", of: "Z_MODELCACHE", limit: ReadingBudget.storeValueBytes)
            } catch .tooLarge {
                cache = nil
            }
            contents.model = cache.flatMap { StoreModel(compressed: Array($0)) }
            contents.modelCacheUnreadable = contents.model == nil
        }
        return contents
    }

    /// What stands at a companion file's name (`-wal`, `-journal`), read without following it into
    /// a pipe: SQLite reads a link's target, so a link to a file with bytes in it holds changes.
    enum Companion: Equatable {
        case absent, empty, holdsBytes
        case other(FileKind)
    }

    static func companion(_ path: String) -> Companion {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            var info = stat()
            // A link to nothing, or a file this user may not open: what lstat sees.
            guard lstat(path, &info) == 0 else { return .absent }
            return .other(FileKind(mode: info.st_mode))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .absent }
        guard info.st_mode & S_IFMT == S_IFREG else { return .other(FileKind(mode: info.st_mode)) }
        return info.st_size > 0 ? .holdsBytes : .empty
    }

    /// Whether another process holds any of SQLite's locks on the file, asked with `F_GETLK`, which
    /// takes no lock itself: the pending, reserved and shared bytes from 1 GiB on (SQLite's
    /// `os_unix.c` layout, the same on Apple platforms).
    static func isLocked(_ descriptor: Int32) -> Bool {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0x4000_0000
        lock.l_len = 2 + 510
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }

    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension StoreMetadata {
    /// Core Data writes `Z_METADATA` as a binary property list; it is read with this package's
    /// reader, which shares an object referred to many times instead of copying it.
    init(plist data: Data, path: String) throws(StoreFailure) {
        let bytes = Array(data)
        guard bytes.starts(with: Array("bplist00".utf8)) else {
            throw .unreadableMetadata(path, reason: "not a binary property list, which Core Data writes")
        }
        guard let list = BinaryPropertyList.parse(bytes) else {
            throw .unreadableMetadata(path, reason: "a damaged or oversized binary property list")
        }
        guard case .dictionary(let entries) = list else {
            throw .unreadableMetadata(path, reason: "not a dictionary")
        }
        var hashes: [String: [UInt8]] = [:]
        if case .dictionary(let byEntity)? = entries["NSStoreModelVersionHashes"] {
            for (entity, value) in byEntity {
                if case .data(let hash) = value { hashes[entity] = hash }
            }
        }
        versionHashes = hashes
        versionIdentifiers = (entries["NSStoreModelVersionIdentifiers"]?.array ?? []).compactMap(\.string)
        storeType = entries["NSStoreType"]?.string
        storeUUID = entries["NSStoreUUID"]?.string
        frameworkVersion = entries["NSPersistenceFrameworkVersion"].flatMap(Self.integer)
        hashesVersion = entries["NSStoreModelVersionHashesVersion"].flatMap(Self.integer)
    }

    /// A whole number, from an integer or a real that is one within `Int`'s range; nil otherwise
    /// (`1e300` is no version).
    static func integer(_ value: PropertyListValue) -> Int? {
        switch value {
        case .int(let number): return number
        case .real(let number):
            guard number.rounded() == number, let exact = Int(exactly: number) else { return nil }
            return exact
        default: return nil
        }
    }
}

/// One read-only, immutable SQLite connection and the few queries inspection needs.
final class Connection {
    private var handle: OpaquePointer?
    let path: String

    /// Opens the file `descriptor` has open, through `/dev/fd` where the system has it, so that
    /// nothing swapped in at `path` since it was checked is read.
    init(path: String, descriptor: Int32) throws(StoreFailure) {
        self.path = path
        let opened = "/dev/fd/\(descriptor)"
        var info = stat()
        let absolute =
            stat(opened, &info) == 0 ? opened : URL(fileURLWithPath: path).standardizedFileURL.path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        let status = sqlite3_open_v2(
            "file:\(encoded)?mode=ro&immutable=1", &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw .damaged(path, message: message)
        }
    }

    func close() {
        sqlite3_close(handle)
        handle = nil
    }

    struct Row {
        let statement: OpaquePointer
        func text(_ column: Int32) -> String? {
            sqlite3_column_text(statement, column).map { String(cString: $0) }
        }
        func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
        func blob(_ column: Int32) -> Data {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return Data() }
            return Data(bytes: bytes, count: count)
        }
    }

    func rows<T>(_ sql: String, _ read: (Row) -> T) throws(StoreFailure) -> [T] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            let message = String(cString: sqlite3_errmsg(handle))
            sqlite3_finalize(statement)
            throw .damaged(path, message: message)
        }
        defer { sqlite3_finalize(statement) }
        var values: [T] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return values }
            guard step == SQLITE_ROW else { throw .damaged(path, message: String(cString: sqlite3_errmsg(handle))) }
            values.append(read(Row(statement: statement)))
            if values.count > ReadingBudget.queryRows { throw .tooLarge(path, what: "a schema query's answer") }
        }
    }

    /// The first row's `column` of `table`, nil when the table has no row; its size is checked
    /// against `limit` before its bytes are read.
    func firstBlob(_ column: String, of table: String, limit: Int) throws(StoreFailure) -> Data? {
        let from = "FROM \(StoreFile.quote(table)) LIMIT 1"
        guard let size = try rows("SELECT length(\(StoreFile.quote(column))) \(from)", { $0.int(0) }).first else {
            return nil
        }
        guard size <= limit else { throw .tooLarge(path, what: "a \(size)-byte \(table) value") }
        return try rows("SELECT \(StoreFile.quote(column)) \(from)", { $0.blob(0) }).first
    }

    func strings(_ sql: String, column: Int32 = 0) throws(StoreFailure) -> [String] {
        try rows(sql) { $0.text(column) ?? "" }
    }
}
