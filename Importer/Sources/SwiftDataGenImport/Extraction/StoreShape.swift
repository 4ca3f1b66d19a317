import SwiftDataGenCore

/// A store's schema as SQLite keeps it, which is all a store can be compared by here: Core Data's
/// entity version hashes are computed by a function Apple does not publish, so the project cannot
/// compute them for a version. Per entity table: the entities stored in it (a superentity's table
/// holds its subentities' rows), each column with its declared type, and which columns are to-one
/// relationships; and the join tables of many-to-many relationships.
///
/// What SQLite does not keep, so no shape can tell apart: optionality, defaults, delete rules, a
/// property's Swift type within one column type (`Int` or `Bool`), names' case. The model a store
/// keeps of itself (`StoreModel`) has them, where the store has one.
public struct StoreShape: Equatable, Sendable {
    public var tables: [Table]
    /// Many-to-many join tables by the relationship they are named after, `TAGS` for `Z_3TAGS`.
    /// Core Data names the table after one side of the pair, so a version's shape gives both
    /// names of each pair; a store's gives the one it has.
    public var joinTables: Set<Set<String>>

    public struct Table: Equatable, Sendable {
        /// `Z` and the root entity's name in capitals.
        public var name: String
        public var entities: [String]
        public var columns: [String: ColumnType]
        /// The columns of each uniqueness constraint, which Core Data keeps as a unique index.
        public var unique: Set<Set<String>> = []
    }

    /// A column as Core Data declares it, or what a version's property would be stored as.
    public enum ColumnType: Hashable, Sendable, CustomStringConvertible {
        case text, integer, float, decimal, timestamp, blob
        /// A to-one relationship: the related row's `Z_PK`.
        case reference(to: String)
        /// A `Codable` struct, whose columns this project does not know (SwiftData's composite
        /// attributes are not documented at the SQLite level): matched by name only.
        case composite
        /// A declared type Core Data does not write, as written.
        case other(String)

        public var description: String {
            switch self {
            case .text: return "VARCHAR"
            case .integer: return "INTEGER"
            case .float: return "FLOAT"
            case .decimal: return "DECIMAL"
            case .timestamp: return "TIMESTAMP"
            case .blob: return "BLOB"
            case .reference(let entity): return "INTEGER (to-one \(entity))"
            case .composite: return "a Codable struct's columns"
            case .other(let declared): return declared.isEmpty ? "no declared type" : declared
            }
        }

        /// The declared type Core Data writes for a column of this type.
        public var declared: String {
            switch self {
            case .reference: return "INTEGER"
            case .composite: return "BLOB"
            default: return description
            }
        }

        init(declared: String) {
            switch declared {
            case "VARCHAR", "TEXT": self = .text
            case "INTEGER": self = .integer
            case "FLOAT", "REAL": self = .float
            case "DECIMAL": self = .decimal
            case "TIMESTAMP": self = .timestamp
            case "BLOB": self = .blob
            default: self = .other(declared)
            }
        }

        /// Whether a store column of type `self` can hold what `expected` describes.
        func holds(_ expected: ColumnType) -> Bool {
            switch (self, expected) {
            case (_, .composite): return true
            // An indexed integer attribute looks like a to-one column.
            case (.reference, .reference), (.integer, .reference), (.reference, .integer): return true
            default: return self == expected
            }
        }
    }

    /// The columns every entity table has, which describe no property.
    static let bookkeeping: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
    /// Core Data's own tables, and persistent history's, which SwiftData turns on.
    static let systemTables: Set<String> = [
        "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE", "ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING",
    ]

    /// The column Core Data names after a property.
    static func column(_ name: String) -> String { "Z" + name.uppercased() }

    /// The shape a store written by this version would have.
    public init(_ version: SchemaVersion, naming: NamingConfig) {
        let identity = StoreIdentity(version, naming: naming)
        let byName = Dictionary(identity.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func root(_ name: String) -> String {
            var current = name
            var seen: Set<String> = []
            while let parent = byName[current]?.parent, byName[parent] != nil, seen.insert(current).inserted {
                current = parent
            }
            return current
        }
        func relationship(_ property: CoreDataProperty) -> CoreDataRelationship? {
            if case .relationship(let r) = property.kind { return r }
            return nil
        }
        var tables: [String: Table] = [:]
        var joins: Set<Set<String>> = []
        for entity in identity.entities {
            let tableName = Self.column(root(entity.name))
            var table = tables[tableName] ?? Table(name: tableName, entities: [], columns: [:])
            table.entities.append(entity.name)
            table.unique.formUnion(entity.uniquenessConstraints.map { Set($0.map(Self.column)) })
            for property in entity.properties {
                switch property.kind {
                case .attribute(let type, _, _):
                    table.columns[Self.column(property.name)] = ColumnType(type)
                case .composite:
                    table.columns[Self.column(property.name)] = .composite
                case .relationship(let r):
                    let destination = r.destination
                    // A to-many whose destination points back with a to-one is that to-one's
                    // column; one the destination points back to with a to-many (a many-to-many) is
                    // a join table; one with nothing pointing back is a `Z<n><REL>` column in the
                    // destination's table (docs/version-hash-recipe.md, "Names in the SQLite
                    // file"), which, like a to-one's entity column, is not compared here.
                    let backs = (byName[destination]?.properties ?? []).compactMap { other in
                        relationship(other).flatMap { $0.destination == entity.name ? (other.name, $0) : nil }
                    }
                    if !r.isToMany {
                        table.columns[Self.column(property.name)] = .reference(to: destination)
                    } else if !backs.isEmpty && backs.allSatisfy(\.1.isToMany) {
                        joins.insert(Set([property.name.uppercased()] + backs.map { $0.0.uppercased() }))
                    }
                }
            }
            tables[tableName] = table
        }
        self.tables = Self.ordered(tables)
        joinTables = joins
    }

    /// The shape of a store as read. Tables no entity of `Z_PRIMARYKEY` names are left in
    /// `unclaimed`, with Core Data's own.
    public init(_ contents: StoreContents) {
        let byNumber = Dictionary(contents.entities.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        func root(_ row: StoreContents.EntityRow) -> StoreContents.EntityRow {
            var current = row
            var seen: Set<Int> = []
            while current.superentity != 0, let parent = byNumber[current.superentity],
                seen.insert(current.number).inserted
            {
                current = parent
            }
            return current
        }
        let storeTables = Dictionary(contents.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var tables: [String: Table] = [:]
        let history = Self.historyEntities(contents)
        for row in contents.entities where !history.contains(row.name) {
            let name = Self.column(root(row).name)
            var table = tables[name] ?? Table(name: name, entities: [], columns: [:])
            table.entities.append(row.name)
            if let stored = storeTables[name] {
                table.unique = stored.uniqueColumns
                for column in stored.columns where !Self.bookkeeping.contains(column.name) {
                    // `Z1OWNER`-style companions name the entity of a to-one whose destination has subentities.
                    if column.name.dropFirst().first?.isNumber == true { continue }
                    let type = ColumnType(declared: column.type)
                    table.columns[column.name] =
                        type == .integer && stored.indexedColumns.contains(column.name)
                        ? .reference(to: "?") : type
                }
            }
            tables[name] = table
        }
        self.tables = Self.ordered(tables)
        joinTables = Set(
            contents.tables.map(\.name).compactMap { name -> Set<String>? in
                guard name.hasPrefix("Z_"), !Self.systemTables.contains(name) else { return nil }
                let rest = name.dropFirst(2).drop { $0.isNumber }
                return rest.count < name.count - 2 && !rest.isEmpty ? [String(rest)] : nil
            })
    }

    /// Tables by name, each with its entities by name, so equal shapes compare equal.
    static func ordered(_ tables: [String: Table]) -> [Table] {
        tables.values.map { table in
            var sorted = table
            sorted.entities.sort()
            return sorted
        }.sorted { $0.name < $1.name }
    }

    /// Persistent history's entities (`CHANGE`, `TRANSACTION`, …), which `Z_PRIMARYKEY` lists
    /// with the model's: kept in `A<NAME>` tables and hashed by no model.
    static func historyEntities(_ contents: StoreContents) -> Set<String> {
        let tables = Set(contents.tables.map(\.name))
        return Set(
            contents.entities.lazy.map(\.name).filter {
                contents.metadata.versionHashes[$0] == nil && tables.contains("A" + $0)
            })
    }

    /// Tables in the store that no entity claims and Core Data does not use itself.
    public static func unclaimedTables(_ contents: StoreContents, shape: StoreShape) -> [String] {
        let claimed = Set(shape.tables.map(\.name))
        return contents.tables.map(\.name).filter { name in
            !claimed.contains(name) && !systemTables.contains(name)
                && !(name.hasPrefix("Z_") && name.dropFirst(2).first?.isNumber == true)
        }
    }
}

extension StoreShape.ColumnType {
    /// How Core Data's SQLite store declares each attribute type, as seen in stores Core Data wrote
    /// (VARCHAR, INTEGER, FLOAT, TIMESTAMP); DECIMAL, and BLOB for UUIDs, from its documented types.
    init(_ type: CoreDataAttributeType) {
        switch type {
        case .string, .uri: self = .text
        case .boolean, .integer16, .integer32, .integer64, .objectID: self = .integer
        case .double, .float: self = .float
        case .decimal: self = .decimal
        case .date: self = .timestamp
        case .binaryData, .uuid, .transformable, .undefined: self = .blob
        case .composite: self = .composite
        }
    }
}
