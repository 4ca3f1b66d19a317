// The container and staged migration as Core Data runs them on a store file. Each rule cites the
// heading of docs/store-evidence.md it comes from.

import Foundation

/// What SwiftData would report (or crash with) for a store or plan it cannot use.
public struct _StandInError: Error, CustomStringConvertible {
    /// Core Data's error code where there is one: 134504 unknown model version, 134110 a failed
    /// migration, 133021 a uniqueness conflict; 0 for an exception SwiftData raises instead.
    public let code: Int
    public let message: String

    public var description: String { "SwiftData stand-in error \(code): \(message)" }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public final class ModelContainer: @unchecked Sendable {
    public let schema: Schema
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    let info: _StandInSchemaInfo
    let layout: _StandInLayout
    let url: URL?
    let database: _StandInDatabase
    /// SQL statements this container's store has run: what its migration cost, for the benchmark.
    public var _statementsRun: Int { database.statementsRun }

    public init(
        for schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: ModelConfiguration...
    ) throws {
        self.schema = schema
        self.migrationPlan = migrationPlan
        info = _StandInSchemaInfo(schema._models)
        layout = _StandInLayout(info)
        url = configurations.first { !$0.isStoredInMemoryOnly }?.url
        try _StandInModelNames.claim(info, forTheApp: migrationPlan != nil)
        if let migrationPlan { try Self.validate(migrationPlan) }
        database = try _StandInDatabase(url)
        let version = schema.version.description
        if let stored = try _StandInMetadata.checksum(database) {
            guard stored != info.checksum else { return }
            guard let migrationPlan, let url else {
                throw _StandInError(
                    code: 134110, message: "the store was written by another model and no migration plan was given")
            }
            // The file alone must be the whole store for a copy of it.
            try database.checkpoint()
            if _StandInEndings.isOn {
                try _StandInEndings.check(migrationPlan, store: url, target: info, version: version)
            }
            try _StandInStoreCopies.keep(url)
            var migrator = _StandInMigrator(plan: migrationPlan, database: database)
            migrator.afterEachStep = { [database] in
                try database.checkpoint()
                try _StandInStoreCopies.keep(url)
            }
            try migrator.migrate(from: stored, to: info)
        } else {
            try database.transaction {
                for statement in layout.createStatements() + layout.indexStatements() {
                    try database.execute(statement)
                }
                try _StandInMetadata.create(database)
                try _StandInMetadata.write(layout, version: version, into: database)
            }
        }
    }

    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan)
    }

    /// Every schema of a plan must have its own checksum — any two, checked when the container is
    /// built, even for a new or in-memory store (docs/store-evidence.md, "Duplicate checksums and
    /// hashModifier": iOS 26 validates at init).
    static func validate(_ plan: any SchemaMigrationPlan.Type) throws {
        var seen: [String: any VersionedSchema.Type] = [:]
        for schema in plan.schemas {
            let checksum = _StandInSchemaInfo(schema.models).checksum
            if let earlier = seen[checksum] {
                throw _StandInError(
                    code: 0,
                    message:
                        "Duplicate version checksums across stages detected: \(String(describing: earlier)) and \(String(describing: schema))"
                )
            }
            seen[checksum] = schema
        }
    }
}

/// SwiftData binds a model's name to the first class that claims it in a process, and a class of
/// another version with that name resolves to it (docs/store-evidence.md, "Entity names bind to the
/// first class"). Here a container built with a migration plan, the app's own, must find each of
/// its names bound to its own class: one that finds an older version's class there fails, as a test
/// that writes the old store first would test other classes than it names. Containers without a
/// plan (a store being written) only claim.
enum _StandInModelNames {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var bound: [String: any PersistentModel.Type] = [:]

    static func claim(_ schema: _StandInSchemaInfo, forTheApp: Bool) throws {
        lock.lock()
        defer { lock.unlock() }
        for (name, type) in schema.types.sorted(by: { $0.key < $1.key }) {
            guard let first = bound[name] else {
                bound[name] = type
                continue
            }
            if forTheApp && ObjectIdentifier(first) != ObjectIdentifier(type) {
                throw _StandInError(
                    code: 0,
                    message:
                        "the model name \(name) is bound to \(String(reflecting: first)), the first class that claimed it in this process, not to \(String(reflecting: type)); build the latest schema's container before an older one"
                )
            }
        }
    }
}

/// Runs a plan's stages over a store as Core Data's staged migration does (docs/store-evidence.md,
/// "A stage ended part way"): each custom stage in three phases that commit on their own —
/// `willMigrate` on a context of the source schema, the schema step, which rewrites the tables and
/// records the destination's hashes in one transaction, and `didMigrate` on a context of the
/// destination — and every save in a closure a transaction of its own. A run can be ended at any
/// point it passes (`_StandInRunControl`).
struct _StandInMigrator {
    let plan: any SchemaMigrationPlan.Type
    let database: _StandInDatabase
    var control: _StandInRunControl?
    /// Runs after each schema step commits.
    var afterEachStep: () throws -> Void = {}

    /// Finds the plan's schema the store was written by (none: 134504; docs/store-evidence.md,
    /// "Launch-time behaviours"), then runs every stage from there in the order given
    /// (docs/store-evidence.md, "Stages, bridges and the store's version"); a store at a stage's
    /// destination moves on to the next stage, so a store stopped between two stages rests at the
    /// schema in between.
    func migrate(from stored: String, to target: _StandInSchemaInfo) throws {
        guard plan.schemas.contains(where: { _StandInSchemaInfo($0.models).checksum == stored }) else {
            throw _StandInError(code: 134504, message: "Cannot use staged migration with an unknown model version.")
        }
        var current = stored
        for (number, stage) in plan.stages.enumerated() {
            let (from, to, willMigrate, didMigrate):
                (
                    any VersionedSchema.Type, any VersionedSchema.Type, ((ModelContext) throws -> Void)?,
                    ((ModelContext) throws -> Void)?
                )
            switch stage {
            case .lightweight(let a, let b): (from, to, willMigrate, didMigrate) = (a, b, nil, nil)
            case .custom(let a, let b, let will, let did): (from, to, willMigrate, didMigrate) = (a, b, will, did)
            }
            let source = _StandInLayout(_StandInSchemaInfo(from.models))
            let destination = _StandInLayout(_StandInSchemaInfo(to.models))
            guard source.schema.checksum == current else { continue }
            let name = "stage \(number + 1) (\(from) → \(to))"
            if let willMigrate {
                try control?.pass("\(name): before willMigrate")
                try _StandInTrace.time("\(name) willMigrate") {
                    try run(willMigrate, on: source, phase: "\(name) willMigrate")
                }
            }
            try _StandInTrace.time("\(name) schema step") {
                try database.transaction {
                    try _StandInInference(source: source, destination: destination).apply(to: database)
                    try _StandInMetadata.write(destination, version: to.versionIdentifier.description, into: database)
                    try control?.pass("\(name): inside the schema step, before it commits")
                }
            }
            current = destination.schema.checksum
            try afterEachStep()
            try control?.pass("\(name): after the schema step committed")
            if let didMigrate {
                try _StandInTrace.time("\(name) didMigrate") {
                    try run(didMigrate, on: destination, phase: "\(name) didMigrate")
                }
                try control?.pass("\(name): after didMigrate")
            }
        }
        guard current == target.checksum else {
            throw _StandInError(code: 134504, message: "the plan's stages end at a schema other than the container's")
        }
    }

    /// A custom stage's closure, with a context on that stage's schema only
    /// (docs/store-evidence.md, "Uniqueness over existing rows" and "Relationships: inverses, links
    /// and cardinality": the other version's types crash). Each save commits; changes the closure
    /// leaves unsaved are lost, as SwiftData is not known to save them.
    private func run(_ closure: (ModelContext) throws -> Void, on layout: _StandInLayout, phase: String) throws {
        let context = ModelContext(layout: layout, database: database)
        context.runControl = control
        context.phase = phase
        try closure(context)
        if let problem = context.misuse { throw problem }
    }
}

/// With `SDG_STANDIN_TRACE=1`, the time each phase of a migration takes, on standard error.
enum _StandInTrace {
    static let isOn = ProcessInfo.processInfo.environment["SDG_STANDIN_TRACE"] == "1"

    static func time(_ label: String, _ body: () throws -> Void) throws {
        guard isOn else { return try body() }
        let start = Date()
        defer {
            FileHandle.standardError.write(
                Data("stand-in: \(label): \(String(format: "%.3f", Date().timeIntervalSince(start))) s\n".utf8))
        }
        try body()
    }
}

/// Copies of the stores a migration reads and writes — as seeded, and after each schema step — in
/// the folder `SDG_STANDIN_KEEP_STORES` names, so the project's store inspection can be held to
/// naming each one's version (scripts/check-simulator-stores.sh).
enum _StandInStoreCopies {
    static func keep(_ url: URL) throws {
        guard let folder = ProcessInfo.processInfo.environment["SDG_STANDIN_KEEP_STORES"], !folder.isEmpty else {
            return
        }
        let directory = URL(fileURLWithPath: folder)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: url, to: directory.appendingPathComponent("\(UUID().uuidString).store"))
    }
}

/// The points a migration passes, and the one where a run is told to end: as a killed launch
/// (nothing is written after it) or as a closure that throws there (docs/store-evidence.md, "A
/// stage ended part way"). Each run has its own, so tests running side by side share none; a run
/// without one never ends early.
final class _StandInRunControl {
    enum Ending: CustomStringConvertible {
        case kill, throwing

        var description: String { self == .kill ? "killed" : "a throw" }
    }

    let endAt: (point: Int, ending: Ending)?
    private(set) var passed = 0
    private(set) var endedAt: String?
    private var killed = false

    init(endAt: (point: Int, ending: Ending)?) {
        self.endAt = endAt
    }

    /// One more point passed; the run ends here when told to.
    func pass(_ label: String) throws {
        try commit()
        passed += 1
        guard let endAt, endAt.point == passed else { return }
        endedAt = label
        switch endAt.ending {
        case .kill:
            killed = true
            throw _StandInEnded(label: label)
        case .throwing:
            throw _StandInError(code: 0, message: "the stand-in threw at \(label)")
        }
    }

    /// A killed launch writes nothing more.
    func commit() throws {
        if killed { throw _StandInEnded(label: endedAt ?? "") }
    }
}

/// A launch ended by the simulator, as the system ends an app.
struct _StandInEnded: Error {
    let label: String
}

/// Ends a migration at every point it passes, once as a kill and once as a throw, opens the store
/// again each time, and holds what the second launch leaves to what an uninterrupted run leaves
/// (docs/store-evidence.md, "A stage ended part way"). On when `SDG_STANDIN_END_EVERYWHERE=1`; a
/// container built then migrates scratch copies first, so the store itself is migrated once, as
/// before.
enum _StandInEndings {
    static var isOn: Bool { ProcessInfo.processInfo.environment["SDG_STANDIN_END_EVERYWHERE"] == "1" }

    static func check(
        _ plan: any SchemaMigrationPlan.Type, store url: URL, target: _StandInSchemaInfo, version: String
    ) throws {
        let original = try Data(contentsOf: url)
        let scratch = url.deletingLastPathComponent().appendingPathComponent(
            ".ending-\(UUID().uuidString)-" + url.lastPathComponent)
        let files = ["", "-wal", "-shm"].map { URL(fileURLWithPath: scratch.path + $0) }
        func reset() throws {
            for file in files { try? FileManager.default.removeItem(at: file) }
            try original.write(to: scratch)
        }
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        let layout = _StandInLayout(target)
        /// One launch on the scratch copy: what the store holds after it, or the error it ended with.
        func launch(_ control: _StandInRunControl?) throws -> [String] {
            let database = try _StandInDatabase(scratch)
            if let stored = try _StandInMetadata.checksum(database), stored != target.checksum {
                try _StandInMigrator(plan: plan, database: database, control: control).migrate(from: stored, to: target)
            }
            return try canonical(database, layout)
        }
        try reset()
        let counter = _StandInRunControl(endAt: nil)
        let expected = try launch(counter)
        for point in stride(from: 1, through: counter.passed, by: 1) {
            for ending in [_StandInRunControl.Ending.kill, .throwing] {
                try reset()
                let ended = _StandInRunControl(endAt: (point, ending))
                do {
                    _ = try launch(ended)
                } catch  where ended.endedAt != nil {
                    // Ended where it was told to, as a killed or failed launch.
                }
                guard ended.endedAt != nil else {
                    throw _StandInError(code: 0, message: "a rerun passed fewer than \(point) points")
                }
                let place = "\(ending) at point \(point) of \(counter.passed), \(ended.endedAt ?? "?")"
                let found: [String]
                do {
                    found = try launch(nil)
                } catch {
                    throw _StandInError(
                        code: 0, message: "a migration ended (\(place)); the next launch failed: \(error)")
                }
                guard found == expected else {
                    let missing = expected.filter { !found.contains($0) }.prefix(3)
                    let extra = found.filter { !expected.contains($0) }.prefix(3)
                    throw _StandInError(
                        code: 0,
                        message:
                            "a migration ended (\(place)) and run again left other rows than an uninterrupted run; "
                            + "missing \(Array(missing)), unexpected \(Array(extra))")
                }
            }
        }
        FileHandle.standardError.write(
            Data(
                "stand-in: ended the migration of \(url.lastPathComponent) at each of \(counter.passed) points, killed and by a throw; every next launch left the rows of an uninterrupted run\n"
                    .utf8))
    }

    /// The store's rows as text that row numbers do not change: each row's attributes, and each
    /// relationship as the attributes of the rows it points at; sorted, with the checksum first.
    static func canonical(_ database: _StandInDatabase, _ layout: _StandInLayout) throws -> [String] {
        var attributes: [String: [Int64: String]] = [:]
        /// Entity → row → (relationship, its destination, the related row's key).
        var references: [String: [Int64: [(name: String, target: String, key: Int64)]]] = [:]
        func relate(_ entity: String, _ row: Int64, _ property: _StandInProperty, _ target: String, _ other: Int64) {
            references[entity, default: [:]][row, default: []].append((property.name, target, other))
        }
        for name in layout.entityNames {
            guard let entity = layout.entity(name) else { continue }
            let columns = layout.columns(of: entity)
            let list = columns.map(\.column).map { ", " + $0 }.joined()
            let filter = layout.entityFilter(name).map { " WHERE " + $0 } ?? ""
            try database.query("SELECT Z_PK\(list) FROM \(layout.table(name))\(filter)") { row in
                guard case .integer(let key) = row[0] else { return }
                var text: [String] = []
                for (index, (property, _)) in columns.enumerated() {
                    switch property.shape {
                    case .attribute(let kind, _):
                        text.append("\(property.name)=\(_StandInColumnCodec.stored(row[index + 1], kind: kind))")
                    case .relationship(let target, _, _):
                        if case .integer(let other) = row[index + 1] { relate(name, key, property, target, other) }
                    case .unsupported: break
                    }
                }
                attributes[name, default: [:]][key] = text.joined(separator: " ")
            }
            for property in entity.properties {
                guard case .relationship(let target, true, _) = property.shape else { continue }
                switch layout.storage(of: property, in: entity) {
                case .inverseColumn(let table, let column)?:
                    try database.query("SELECT \(column), Z_PK FROM \(table) WHERE \(column) IS NOT NULL") { row in
                        if case .integer(let owner) = row[0], case .integer(let other) = row[1] {
                            relate(name, owner, property, target, other)
                        }
                    }
                case .join(let table, let owner, let targetColumn)?:
                    try database.query("SELECT \(owner), \(targetColumn) FROM \(table)") { row in
                        if case .integer(let from) = row[0], case .integer(let other) = row[1] {
                            relate(name, from, property, target, other)
                        }
                    }
                default: break
                }
            }
        }
        var lines: [String] = []
        for (name, rows) in attributes {
            for (key, text) in rows {
                let related = (references[name]?[key] ?? []).map {
                    "\($0.name)->[\(attributes[$0.target]?[$0.key] ?? "?")]"
                }
                .sorted()
                lines.append(([name + ":", text] + related).joined(separator: " "))
            }
        }
        return ["checksum \(layout.schema.checksum)"] + lines.sorted()
    }
}

/// The mapping Core Data infers between two schemas (docs/store-evidence.md, "Renaming
/// identifiers", "Optional to required, and defaults" and "Relationships: inverses, links and
/// cardinality"), applied in SQL as its in-place migration does: entities by name, properties by
/// renaming identifier; a property with no source starts at its default; a type change, a required
/// value with nothing to fill it, or a uniqueness conflict fails. New tables are built beside the
/// old, which are then dropped.
struct _StandInInference {
    let source: _StandInLayout
    let destination: _StandInLayout

    private static let prefix = "ZNEW_"

    func apply(to database: _StandInDatabase) throws {
        for statement in destination.createStatements(prefix: Self.prefix) { try database.execute(statement) }
        for name in destination.entityNames {
            guard let entity = destination.entity(name) else { continue }
            try copyRows(of: entity, in: database)
        }
        for name in destination.entityNames {
            guard let entity = destination.entity(name) else { continue }
            try copyToManys(of: entity, in: database)
        }
        for name in destination.entityNames {
            guard let entity = destination.entity(name) else { continue }
            try dropDanglingReferences(of: entity, in: database)
            try checkRequired(entity, in: database)
        }
        let oldTables = source.entityNames.map(source.table) + source.joinTables.map(\.table)
        for table in Set(oldTables).sorted() { try database.execute("DROP TABLE IF EXISTS \(table)") }
        let newTables = destination.entityNames.map(destination.table) + destination.joinTables.map(\.table)
        for table in Set(newTables).sorted() {
            try database.execute("ALTER TABLE \(Self.prefix)\(table) RENAME TO \(table)")
        }
        for statement in destination.indexStatements() {
            do {
                try database.execute(statement)
            } catch let error as _StandInError where error.code == 133021 {
                let group = statement.components(separatedBy: "_UNIQUE_").last?.components(separatedBy: " ON").first
                throw _StandInError(
                    code: 133021,
                    message:
                        "rows repeat (\(group ?? "?")), which must be unique: \(statement.components(separatedBy: " ON ").last ?? "")"
                )
            }
        }
    }

    /// The source property a destination property takes its values from: the one with its
    /// renaming identifier, checked as Core Data's inference checks it.
    private func source(of property: _StandInProperty, in entity: _StandInEntity, hasRows: Bool) throws
        -> _StandInProperty?
    {
        guard let old = source.entity(entity.name),
            let match = old.properties.first(where: { $0.identifier == property.identifier })
        else { return nil }
        guard hasRows else { return match }
        let path = "\(entity.name).\(property.name)"
        switch (match.shape, property.shape) {
        case (.attribute(let a, _), .attribute(let b, _)):
            guard a == b else {
                throw _StandInError(
                    code: 134110,
                    message:
                        "\(path): cannot infer a mapping from \(entity.name).\(match.name) of type \(a) to \(b); a renamed or kept property must have the same type"
                )
            }
        case (.relationship(let a, let aMany, _), .relationship(let b, let bMany, _)):
            guard a == b else {
                throw _StandInError(code: 134110, message: "\(path): its destination changed from \(a) to \(b)")
            }
            if aMany && !bMany {
                throw _StandInError(
                    code: 134110, message: "\(path): a to-many relationship cannot be inferred as to-one")
            }
        case (.unsupported(let type), _), (_, .unsupported(let type)):
            throw _StandInError(code: 134110, message: "\(path): values of \(type) are not simulated")
        default:
            throw _StandInError(
                code: 134110, message: "\(path): cannot infer a mapping between an attribute and a relationship")
        }
        return match
    }

    /// The rows the old store holds of an entity.
    private func rowCount(of entity: String, in database: _StandInDatabase) throws -> Int64 {
        guard source.entity(entity) != nil, try database.tableNames().contains(source.table(entity)) else { return 0 }
        let filter = source.entityFilter(entity).map { " WHERE " + $0 } ?? ""
        if case .integer(let count)? = try database.values("SELECT COUNT(*) FROM \(source.table(entity))\(filter)")
            .first
        {
            return count
        }
        return 0
    }

    /// `AND Z_ENT = n` for an entity whose new table it shares.
    private func newRows(of entity: String) -> String {
        destination.entityFilter(entity).map { " AND " + $0 } ?? ""
    }

    /// Each row of the entity's old table into its new one: kept columns by identifier, new ones at
    /// their default.
    private func copyRows(of entity: _StandInEntity, in database: _StandInDatabase) throws {
        let table = destination.table(entity.name)
        let number = destination.numbers[entity.name] ?? 0
        guard let old = source.entity(entity.name) else { return }
        let rows = try rowCount(of: entity.name, in: database)
        guard !entity.isSubclass else {
            // Subclass rows are not simulated; a store that has none maps to none.
            if rows > 0 {
                throw _StandInError(code: 134110, message: "\(entity.name): model inheritance is not simulated")
            }
            return
        }
        // Two destination properties with one identifier would both take one column: refused here,
        // though Core Data copies silently when the types agree (docs/store-evidence.md, "Renaming
        // identifiers").
        var identifiers: [String: String] = [:]
        for property in entity.properties {
            if let other = identifiers[property.identifier] {
                throw _StandInError(
                    code: 134110,
                    message:
                        "\(entity.name).\(property.name) and \(entity.name).\(other) share the renaming identifier '\(property.identifier)'"
                )
            }
            identifiers[property.identifier] = property.name
        }
        var targets = ["Z_PK", "Z_ENT", "Z_OPT"]
        var values = ["Z_PK", "\(number)", "Z_OPT"]
        for (property, column) in destination.columns(of: entity) {
            let match = try source(of: property, in: entity, hasRows: rows > 0)
            guard let match, case .column(let oldColumn)? = source.storage(of: match, in: old) else { continue }
            targets.append(column)
            values.append(oldColumn)
        }
        try database.execute(
            "INSERT INTO \(Self.prefix)\(table) (\(targets.joined(separator: ", "))) SELECT "
                + "\(values.joined(separator: ", ")) FROM \(source.table(entity.name))"
                + (source.entityFilter(entity.name).map { " WHERE " + $0 } ?? ""))
        // A value still missing takes the property's default, as a new or newly required one does.
        for (property, column) in destination.columns(of: entity) {
            guard case .attribute = property.shape, let make = property.defaultValue else { continue }
            let filled = _StandInColumnCodec.sql(_StandInCodec.encode(make()))
            guard filled != .null else { continue }
            try database.execute(
                "UPDATE \(Self.prefix)\(table) SET \(column) = ? WHERE \(column) IS NULL\(newRows(of: entity.name))",
                [filled])
        }
    }

    /// The pairs (owner, related) of a relationship as the old store keeps them.
    private func oldPairs(_ property: _StandInProperty, of entity: _StandInEntity) -> String? {
        switch source.storage(of: property, in: entity) {
        case .column(let column)?:
            return
                "SELECT Z_PK AS o, \(column) AS t FROM \(source.table(entity.name)) WHERE \(column) IS NOT NULL"
        case .inverseColumn(let table, let column)?:
            return "SELECT \(column) AS o, Z_PK AS t FROM \(table) WHERE \(column) IS NOT NULL"
        case .join(let table, let owner, let target)?:
            return "SELECT \(owner) AS o, \(target) AS t FROM \(table)"
        case nil:
            return nil
        }
    }

    /// To-manys kept in a join table, or in a to-one column the old store did not have, from what
    /// the old store kept (a to-one that became a to-many keeps its one related object).
    private func copyToManys(of entity: _StandInEntity, in database: _StandInDatabase) throws {
        guard let old = source.entity(entity.name) else { return }
        let hasRows = try rowCount(of: entity.name, in: database) > 0
        for property in entity.properties {
            guard case .relationship(_, true, _) = property.shape,
                let match = try source(of: property, in: entity, hasRows: hasRows),
                let pairs = oldPairs(match, of: old)
            else { continue }
            switch destination.storage(of: property, in: entity) {
            case .join(let table, let owner, let target)?:
                try database.execute(
                    "INSERT OR IGNORE INTO \(Self.prefix)\(table) (\(owner), \(target)) SELECT o, t FROM (\(pairs))")
            case .inverseColumn(let table, let column)?:
                // Already there when an inverse to-one was kept; written here when it is new, or
                // when there is no inverse and the column is the to-many's own.
                if let partner = destination.partner(of: property, in: entity),
                    case .relationship(let target, _, _) = property.shape,
                    source.entity(target)?.properties.contains(where: { $0.identifier == partner.identifier }) == true
                {
                    continue
                }
                try database.execute("DROP TABLE IF EXISTS temp.ZPAIRS")
                try database.execute("CREATE TEMP TABLE ZPAIRS (o INTEGER, t INTEGER PRIMARY KEY)")
                try database.execute("INSERT OR IGNORE INTO temp.ZPAIRS (o, t) SELECT o, t FROM (\(pairs))")
                try database.execute(
                    "UPDATE \(Self.prefix)\(table) SET \(column) = (SELECT o FROM temp.ZPAIRS WHERE t = "
                        + "\(Self.prefix)\(table).Z_PK) WHERE Z_PK IN (SELECT t FROM temp.ZPAIRS)")
                try database.execute("DROP TABLE temp.ZPAIRS")
            default:
                continue
            }
        }
    }

    /// References to rows that are gone (of an entity removed, or deleted) are dropped.
    private func dropDanglingReferences(of entity: _StandInEntity, in database: _StandInDatabase) throws {
        let table = Self.prefix + destination.table(entity.name)
        for property in entity.properties {
            guard case .relationship(let target, _, _) = property.shape else { continue }
            let targetTable = Self.prefix + destination.table(target)
            switch destination.storage(of: property, in: entity) {
            case .column(let column)?:
                try database.execute(
                    "UPDATE \(table) SET \(column) = NULL WHERE \(column) IS NOT NULL AND \(column) NOT IN "
                        + "(SELECT Z_PK FROM \(targetTable))")
            case .join(let join, let owner, let targetColumn)?:
                try database.execute(
                    "DELETE FROM \(Self.prefix)\(join) WHERE \(owner) NOT IN (SELECT Z_PK FROM \(table)) OR "
                        + "\(targetColumn) NOT IN (SELECT Z_PK FROM \(targetTable))")
            case .inverseColumn(_, let column)? where destination.partner(of: property, in: entity) == nil:
                try database.execute(
                    "UPDATE \(targetTable) SET \(column) = NULL WHERE \(column) IS NOT NULL AND \(column) NOT IN "
                        + "(SELECT Z_PK FROM \(table))")
            default:
                continue
            }
        }
    }

    /// A required attribute or to-one left without a value fails the stage.
    private func checkRequired(_ entity: _StandInEntity, in database: _StandInDatabase) throws {
        let table = Self.prefix + destination.table(entity.name)
        for (property, column) in destination.columns(of: entity) where !property.shape.isOptional {
            guard
                case .null? = try database.values(
                    "SELECT \(column) FROM \(table) WHERE \(column) IS NULL\(newRows(of: entity.name)) LIMIT 1"
                ).first
            else { continue }
            let kind = if case .relationship = property.shape { "relationship" } else { "attribute" }
            throw _StandInError(
                code: 134110,
                message:
                    "Validation error missing attribute values on mandatory destination \(kind): \(entity.name).\(property.name)"
            )
        }
    }
}
