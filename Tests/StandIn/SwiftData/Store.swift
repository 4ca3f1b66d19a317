// The simulator's store: an SQLite file laid out as Core Data lays out a SwiftData store (the layout
// `swiftdata-gen-import store` reads: a `Z<ENTITY>` table per entity with `Z_PK`, `Z_ENT`, `Z_OPT`
// and a `Z<PROPERTY>` column per attribute and to-one, join tables, `Z_PRIMARYKEY`, and `Z_METADATA`
// holding the model's entity hashes and checksum in a binary property list).

internal import CSQLite
import Foundation

/// A value as an SQLite column holds it.
enum _SQLValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// One connection to a store file (or to memory), with its prepared statements kept for reuse.
final class _StandInDatabase {
    private var handle: OpaquePointer?
    private var prepared: [String: OpaquePointer] = [:]
    /// Statements run on this connection: what a migration costs in SQL, for the benchmark.
    private(set) var statementsRun = 0
    private var depth = 0

    /// `nil` opens a database in memory, for a store kept in memory only.
    init(_ url: URL?) throws {
        let path = url?.path ?? ":memory:"
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw _StandInError(code: 134110, message: "cannot open the store at \(path): \(message)")
        }
        // Core Data opens SQLite stores in write-ahead-log mode.
        if url != nil { try execute("PRAGMA journal_mode = WAL") }
    }

    /// Moves what the write-ahead log holds into the store file, so a copy of the file alone is
    /// the whole store.
    func checkpoint() throws {
        try execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    deinit {
        for statement in prepared.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs one statement, discarding any rows.
    func execute(_ sql: String, _ values: [_SQLValue] = []) throws {
        try query(sql, values) { _ in }
    }

    /// Runs one statement and hands each row's columns to `row` as they are stepped.
    func query(_ sql: String, _ values: [_SQLValue] = [], _ row: ([_SQLValue]) throws -> Void) throws {
        let statement = try statement(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in values.enumerated() { bind(value, at: Int32(index + 1), in: statement) }
        statementsRun += 1
        let columns = sqlite3_column_count(statement)
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw failure(status, sql) }
            try row((0..<columns).map { column(statement, $0) })
        }
    }

    /// The first column of each row.
    func values(_ sql: String, _ values: [_SQLValue] = []) throws -> [_SQLValue] {
        var result: [_SQLValue] = []
        try query(sql, values) { result.append($0.first ?? .null) }
        return result
    }

    /// Runs `body` in one transaction, committed when it returns and rolled back when it throws,
    /// as a launch ended inside it leaves nothing of it. Nested calls join the outer transaction.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if depth > 0 { return try body() }
        try execute("BEGIN IMMEDIATE")
        depth += 1
        do {
            let result = try body()
            depth -= 1
            try execute("COMMIT")
            return result
        } catch {
            depth -= 1
            try? execute("ROLLBACK")
            throw error
        }
    }

    func tableNames() throws -> [String] {
        try values("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap {
            if case .text(let name) = $0 { return name }
            return nil
        }
    }

    private func statement(_ sql: String) throws -> OpaquePointer {
        if let known = prepared[sql] { return known }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status, sql) }
        prepared[sql] = statement
        return statement
    }

    private func bind(_ value: _SQLValue, at index: Int32, in statement: OpaquePointer) {
        // SQLite copies text and blobs bound with SQLITE_TRANSIENT, a destructor of -1.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        switch value {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let number): sqlite3_bind_int64(statement, index, number)
        case .real(let number): sqlite3_bind_double(statement, index, number)
        case .text(let text): sqlite3_bind_text(statement, index, text, -1, transient)
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), transient)
            }
        }
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> _SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    /// A failed statement as SwiftData reports it: a broken uniqueness constraint is Core Data's
    /// 133021, anything else a failed save or migration.
    private func failure(_ status: Int32, _ sql: String) -> _StandInError {
        let message = String(cString: sqlite3_errmsg(handle))
        if status & 0xff == SQLITE_CONSTRAINT, message.contains("UNIQUE") {
            return _StandInError(code: 133021, message: "rows repeat a value that must be unique (\(message))")
        }
        return _StandInError(code: 134110, message: "SQLite: \(message) in \(sql)")
    }
}

/// Where a schema's entities and properties live in the store: tables, columns and join tables,
/// named as Core Data names them.
struct _StandInLayout {
    /// How a relationship is kept.
    enum Storage: Equatable {
        /// An attribute's or a to-one's column in the entity's own table.
        case column(String)
        /// A to-many kept as the owner's key in a column of the related objects' table: its inverse
        /// to-one's column, or, for a to-many with no inverse, `Z<n><REL>` (n the owner's entity
        /// number), as SwiftData lays it out (docs/version-hash-recipe.md, "Names in the SQLite
        /// file").
        case inverseColumn(table: String, column: String)
        /// A many-to-many: rows of a join table `Z_<n><REL>`, the owner's key in one column, the
        /// related object's in the other.
        case join(table: String, owner: String, target: String)
    }

    let schema: _StandInSchemaInfo
    /// Entity numbers as Core Data gives them: the entities in name order, from 1.
    let numbers: [String: Int]
    /// Each property's storage and each table's columns, worked out once: every row asks.
    private var storages: [String: [String: Storage]] = [:]
    private var tableColumns: [String: [(property: _StandInProperty, column: String)]] = [:]
    /// Entity names by the model class that declares them.
    private var classes: [ObjectIdentifier: String] = [:]

    init(_ schema: _StandInSchemaInfo) {
        self.schema = schema
        let names = schema.entities.keys.sorted()
        numbers = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 + 1) })
        for (name, type) in schema.types { classes[ObjectIdentifier(type)] = name }
        for name in names {
            guard let entity = schema.entities[name] else { continue }
            var columns: [(property: _StandInProperty, column: String)] = []
            for property in entity.properties {
                guard let storage = Self.storage(of: property, in: entity, schema: schema, numbers: numbers) else {
                    continue
                }
                storages[name, default: [:]][property.name] = storage
                if case .column(let column) = storage { columns.append((property, column)) }
            }
            tableColumns[name] = columns
        }
    }

    static func column(_ property: String) -> String { "Z" + property.uppercased() }

    /// The table an entity's rows are in: its root entity's, as Core Data keeps a hierarchy of
    /// entities in one table, told apart by `Z_ENT`.
    func table(_ entity: String) -> String { "Z" + rootName(entity).uppercased() }

    func rootName(_ entity: String) -> String { Self.root(entity, schema: schema) }

    private static func root(_ entity: String, schema: _StandInSchemaInfo) -> String {
        var current = entity
        var seen: Set<String> = []
        while let parent = schema.entities[current]?.superclass, schema.entities[parent] != nil,
            seen.insert(current).inserted
        {
            current = parent
        }
        return current
    }

    /// `Z_ENT = n`, where other entities share the entity's table; nil where the table is its own.
    func entityFilter(_ entity: String) -> String? {
        let shared = entityNames.contains { $0 != entity && table($0) == table(entity) }
        return shared ? "Z_ENT = \(numbers[entity] ?? 0)" : nil
    }

    var entityNames: [String] { schema.entities.keys.sorted() }

    func entity(_ name: String) -> _StandInEntity? { schema.entities[name] }

    func entityName(ofClass type: Any.Type) -> String? { classes[ObjectIdentifier(type)] }

    func entity(ofClass type: Any.Type) -> _StandInEntity? { entityName(ofClass: type).flatMap { schema.entities[$0] } }

    /// The relationship on the other side of `property`, when there is one.
    func partner(of property: _StandInProperty, in entity: _StandInEntity) -> _StandInProperty? {
        Self.partner(of: property, in: entity, schema: schema)
    }

    private static func partner(of property: _StandInProperty, in entity: _StandInEntity, schema: _StandInSchemaInfo)
        -> _StandInProperty?
    {
        guard case .relationship(let target, _, _) = property.shape, let other = schema.entities[target] else {
            return nil
        }
        if let inverse = property.relationship?.inverse {
            let found = other.properties.first { $0.name == inverse }
            return found?.name == property.name && target == entity.name ? nil : found
        }
        return other.properties.first { candidate in
            guard candidate.relationship?.inverse == property.name, case .relationship(let back, _, _) = candidate.shape
            else { return false }
            return back == entity.name && !(target == entity.name && candidate.name == property.name)
        }
    }

    func storage(of property: _StandInProperty, in entity: _StandInEntity) -> Storage? {
        storages[entity.name]?[property.name]
    }

    private static func storage(
        of property: _StandInProperty, in entity: _StandInEntity, schema: _StandInSchemaInfo, numbers: [String: Int]
    ) -> Storage? {
        switch property.shape {
        case .attribute: return .column(Self.column(property.name))
        case .unsupported: return nil
        case .relationship(let target, let isToMany, _):
            guard isToMany else { return .column(Self.column(property.name)) }
            let partner = partner(of: property, in: entity, schema: schema)
            if let partner, case .relationship(_, false, _) = partner.shape {
                return .inverseColumn(
                    table: "Z" + root(target, schema: schema).uppercased(), column: Self.column(partner.name))
            }
            guard let partner else {
                return .inverseColumn(
                    table: "Z" + root(target, schema: schema).uppercased(),
                    column: "Z\(numbers[entity.name] ?? 0)\(property.name.uppercased())")
            }
            // One table for a pair, named after the side that sorts first.
            let own = (entity.name, property.name)
            let other = (target, partner.name)
            let first = other < own ? other : own
            let table = "Z_\(numbers[first.0] ?? 0)\(first.1.uppercased())"
            let ownerColumn = "Z_\(numbers[entity.name] ?? 0)\(property.name.uppercased())"
            let targetColumn = "Z_\(numbers[target] ?? 0)\(partner.name.uppercased())"
            return .join(table: table, owner: ownerColumn, target: targetColumn)
        }
    }

    /// The `Z<n><REL>` columns other entities' to-manys without an inverse keep in `entity`'s table.
    func ownerColumns(in entity: String) -> [String] {
        var result: [String] = []
        for name in entityNames {
            guard let owner = schema.entities[name] else { continue }
            for property in owner.properties {
                guard case .relationship(_, true, _) = property.shape, partner(of: property, in: owner) == nil,
                    case .inverseColumn(let table, let column)? = storage(of: property, in: owner),
                    table == self.table(entity)
                else { continue }
                result.append(column)
            }
        }
        return result
    }

    /// The columns of an entity's table after `Z_PK`, `Z_ENT`, `Z_OPT`: attributes and to-ones.
    func columns(of entity: _StandInEntity) -> [(property: _StandInProperty, column: String)] {
        tableColumns[entity.name] ?? []
    }

    /// The declared type Core Data writes for a column.
    static func declaredType(_ property: _StandInProperty) -> String {
        switch property.shape {
        case .relationship: return "INTEGER"
        case .unsupported: return "BLOB"
        case .attribute(let kind, _):
            switch kind {
            case "string", "uri": return "VARCHAR"
            case "integer16", "integer32", "integer64", "boolean": return "INTEGER"
            case "double", "float": return "FLOAT"
            case "decimal": return "DECIMAL"
            case "date": return "TIMESTAMP"
            default: return "BLOB"
            }
        }
    }

    /// Every join table of the schema, once, with its two columns.
    var joinTables: [(table: String, owner: String, target: String)] {
        var seen: Set<String> = []
        var result: [(String, String, String)] = []
        for name in entityNames {
            guard let entity = schema.entities[name] else { continue }
            for property in entity.properties {
                guard case .join(let table, let owner, let target)? = storage(of: property, in: entity),
                    seen.insert(table).inserted
                else { continue }
                result.append((table, owner, target))
            }
        }
        return result
    }

    /// The statements that create the schema's tables under `prefix` + their names (the schema
    /// step builds the new tables beside the old ones).
    func createStatements(prefix: String = "") -> [String] {
        var statements: [String] = []
        for table in Set(entityNames.map(table)).sorted() {
            var columns: [String] = []
            var seen: Set<String> = []
            for name in entityNames where self.table(name) == table {
                guard let entity = schema.entities[name] else { continue }
                let own =
                    self.columns(of: entity).map { ($0.column, Self.declaredType($0.property)) }
                    + ownerColumns(in: name).map { ($0, "INTEGER") }
                for (column, type) in own where seen.insert(column).inserted { columns.append("\(column) \(type)") }
            }
            statements.append(
                "CREATE TABLE \(prefix)\(table) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER"
                    + columns.map { ", " + $0 }.joined() + ")")
        }
        for join in joinTables {
            statements.append(
                "CREATE TABLE \(prefix)\(join.table) (\(join.owner) INTEGER, \(join.target) INTEGER, "
                    + "PRIMARY KEY (\(join.owner), \(join.target)))")
        }
        return statements
    }

    /// Indexes Core Data keeps: one per to-one column, one per join table's second column, and a
    /// unique index per uniqueness constraint (which fails when rows repeat).
    func indexStatements() -> [String] {
        var statements: [String] = []
        for name in entityNames {
            guard let entity = schema.entities[name] else { continue }
            let table = self.table(name)
            for (property, column) in columns(of: entity) {
                if case .relationship = property.shape {
                    statements.append("CREATE INDEX \(table)_\(column)_INDEX ON \(table) (\(column))")
                }
            }
            for column in ownerColumns(in: name) {
                statements.append("CREATE INDEX \(table)_\(column)_INDEX ON \(table) (\(column))")
            }
            // `#Index` groups, named as SwiftData names them.
            for group in entity.indexes
            where group.allSatisfy({ property in
                columns(of: entity).contains { $0.property.name == property }
            }) {
                statements.append(
                    "CREATE INDEX Z_\(name)_SwiftDataIndexOnBinary\(group.joined()) ON \(table) "
                        + "(\(group.map(Self.column).joined(separator: ", ")))")
            }
            for group in entity.unique {
                let columns = group.map(Self.column)
                statements.append(
                    "CREATE UNIQUE INDEX Z_\(name)_UNIQUE_\(group.joined(separator: "_")) ON \(table) "
                        + "(\(columns.joined(separator: ", ")))")
            }
        }
        for join in joinTables {
            statements.append("CREATE INDEX \(join.table)_\(join.target)_INDEX ON \(join.table) (\(join.target))")
        }
        // Entities of one table can share a to-one's name: one index.
        var seen: Set<String> = []
        return statements.filter { seen.insert($0).inserted }
    }
}

/// The store's metadata: `Z_METADATA`'s property list (entity version hashes, the model checksum,
/// the version identifier) and `Z_PRIMARYKEY`'s entity rows.
enum _StandInMetadata {
    static func create(_ database: _StandInDatabase) throws {
        try database.execute(
            "CREATE TABLE IF NOT EXISTS Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        try database.execute(
            "CREATE TABLE IF NOT EXISTS Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, "
                + "Z_MAX INTEGER)")
    }

    /// Records `layout`'s model as the store's: its hashes and checksum, and its entities.
    static func write(_ layout: _StandInLayout, version: String, into database: _StandInDatabase) throws {
        var hashes: [String: Data] = [:]
        for (name, hash) in layout.schema.hashes { hashes[name] = Data(hash) }
        let plist: [String: Any] = [
            "NSStoreType": "SQLite", "NSStoreModelVersionHashes": hashes,
            "NSStoreModelVersionChecksumKey": layout.schema.checksum,
            "NSStoreModelVersionIdentifiers": [version], "NSPersistenceFrameworkVersion": 1345,
            "NSStoreUUID": "00000000-0000-0000-0000-000000000000",
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        try database.execute("DELETE FROM Z_METADATA")
        try database.execute(
            "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
            [.text("00000000-0000-0000-0000-000000000000"), .blob(data)])
        var kept: [String: Int64] = [:]
        try database.query("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY") { row in
            if case .text(let name) = row[0], case .integer(let max) = row[1] { kept[name] = max }
        }
        try database.execute("DELETE FROM Z_PRIMARYKEY")
        for name in layout.entityNames {
            let superNumber = layout.entity(name)?.superclass.flatMap { layout.numbers[$0] } ?? 0
            try database.execute(
                "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                [
                    .integer(Int64(layout.numbers[name] ?? 0)), .text(name), .integer(Int64(superNumber)),
                    .integer(kept[name] ?? 0),
                ])
        }
    }

    /// The checksum the store was last written with, or nil for a new, empty file.
    static func checksum(_ database: _StandInDatabase) throws -> String? {
        guard try database.tableNames().contains("Z_METADATA") else { return nil }
        guard case .blob(let data)? = try database.values("SELECT Z_PLIST FROM Z_METADATA").first,
            let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        else { return nil }
        return plist["NSStoreModelVersionChecksumKey"] as? String
    }

    /// Takes `count` primary keys of an entity, recorded in its `Z_MAX`; returns the first.
    static func takeKeys(_ count: Int, of entity: String, in database: _StandInDatabase) throws -> Int {
        let max: Int64
        if case .integer(let stored)? = try database.values(
            "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", [.text(entity)]
        ).first {
            max = stored
        } else {
            max = 0
        }
        try database.execute(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = ?", [.integer(max + Int64(count)), .text(entity)])
        return Int(max) + 1
    }
}

/// Attribute values between `_StoredValue`, the simulator's own, and SQLite's columns.
enum _StandInColumnCodec {
    /// Arrays and other values no column type holds natively are kept as JSON after this mark.
    private static let mark = Data("sdg-stored:".utf8)

    static func sql(_ value: _StoredValue) -> _SQLValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .integer(let text): return Int64(text).map(_SQLValue.integer) ?? .text(text)
        case .double(let number): return .real(number)
        case .float(let number): return .real(Double(number))
        case .decimal(let text): return .text(text)
        case .string(let text): return .text(text)
        case .date(let seconds): return .real(seconds)
        case .data(let data): return .blob(data)
        case .uuid(let text):
            guard let uuid = UUID(uuidString: text) else { return .text(text) }
            return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case .url(let text): return .text(text)
        case .array, .reference, .references:
            return .blob(mark + ((try? JSONEncoder().encode(value)) ?? Data()))
        }
    }

    /// A column's value as the property of `kind` stores it.
    static func stored(_ value: _SQLValue, kind: String) -> _StoredValue {
        if case .blob(let data) = value, data.starts(with: mark),
            let decoded = try? JSONDecoder().decode(_StoredValue.self, from: data.dropFirst(mark.count))
        {
            return decoded
        }
        // Columns declared TIMESTAMP or DECIMAL have numeric affinity: SQLite keeps a whole number
        // written to them as an integer, and a decimal's text as a number when that loses nothing.
        switch (value, kind) {
        case (.null, _): return .null
        case (.integer(let number), "boolean"): return .bool(number != 0)
        case (.integer(let number), "date"): return .date(Double(number))
        case (.integer(let number), "double"): return .double(Double(number))
        case (.integer(let number), "float"): return .float(Float(number))
        case (.integer(let number), "decimal"): return .decimal(String(number))
        case (.real(let number), "decimal"): return .decimal("\(number)")
        case (.integer(let number), _): return .integer(String(number))
        case (.text(let text), "integer16"), (.text(let text), "integer32"), (.text(let text), "integer64"):
            return .integer(text)
        case (.real(let number), "float"): return .float(Float(number))
        case (.real(let number), "date"): return .date(number)
        case (.real(let number), _): return .double(number)
        case (.text(let text), "decimal"): return .decimal(text)
        case (.text(let text), "uri"): return .url(text)
        case (.text(let text), _): return .string(text)
        case (.blob(let data), "uuid") where data.count == 16:
            let uuid = data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            return .uuid(uuid.uuidString)
        case (.blob(let data), _): return .data(data)
        }
    }
}
