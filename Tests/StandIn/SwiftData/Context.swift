// The context: objects over a store's rows, read as a fetch asks for them and faulted in as a
// relationship is first used, as Core Data's context does.

import Foundation

/// A reference the context does not keep alive: a clean object is freed when nothing else holds it.
final class _StandInWeakObject {
    weak var object: AnyObject?

    init(_ object: AnyObject) { self.object = object }
}

/// Objects of one schema over a store's rows: insert, fetch with predicates and sorts, walk in
/// batches, delete, save. A save writes what changed in one transaction, keeps both sides of each
/// relationship in step, and fails on a broken uniqueness as the store's unique index does.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public final class ModelContext {
    private let containerReference: ModelContainer?
    let layout: _StandInLayout
    let database: _StandInDatabase
    var schema: _StandInSchemaInfo { layout.schema }
    /// Clean objects read from the store, by entity and key, held weakly.
    private var registered: [String: [Int: _StandInWeakObject]] = [:]
    /// Objects inserted and not yet saved, in the order they were inserted.
    private var inserted: [any PersistentModel] = []
    private var insertedIDs: Set<ObjectIdentifier> = []
    /// Objects changed or deleted and not yet saved: held until the save.
    private var changed: [ObjectIdentifier: any PersistentModel] = [:]
    private var deleted: [ObjectIdentifier: any PersistentModel] = [:]
    public private(set) var _saveCount = 0
    /// Set by an insert, a delete or a value set through a model; cleared by a save.
    public internal(set) var hasChanges = false
    /// A type from another schema used here: what SwiftData crashes with (docs/store-evidence.md,
    /// "Uniqueness over existing rows").
    var misuse: _StandInError?
    /// The migration run this context belongs to, which may end at the points it passes, and the
    /// phase it runs in, for the points' names.
    var runControl: _StandInRunControl?
    var phase = "a context"

    public init(_ container: ModelContainer) {
        containerReference = container
        layout = container.layout
        database = container.database
    }

    init(layout: _StandInLayout, database: _StandInDatabase) {
        containerReference = nil
        self.layout = layout
        self.database = database
    }

    public var container: ModelContainer {
        guard let containerReference else { fatalError("a migration stage's context has no container in the stand-in") }
        return containerReference
    }

    /// The schema's entity of a model class; `_$entity` builds it anew on each call.
    private func entity(of type: any PersistentModel.Type) -> _StandInEntity {
        layout.entity(ofClass: type) ?? type._$entity
    }

    private func check(_ type: Any.Type) -> Bool {
        guard layout.entityName(ofClass: type) == nil else { return true }
        let name = String(describing: type)
        guard let known = schema.types[name], ObjectIdentifier(known) == ObjectIdentifier(type) else {
            misuse =
                misuse
                ?? _StandInError(
                    code: 0,
                    message:
                        "What kind of backing data is this? \(String(reflecting: type)) is not a model of this context's schema"
                )
            return false
        }
        return true
    }

    // MARK: reading

    /// The object of a row, the one already registered when it is alive.
    private func object(_ entity: _StandInEntity, key: Int, row: [_SQLValue]?) throws -> (any PersistentModel)? {
        if let alive = registered[entity.name]?[key]?.object as? any PersistentModel { return alive }
        guard let type = schema.types[entity.name] else { return nil }
        let columns = layout.columns(of: entity)
        var values = row
        if values == nil {
            let list = columns.map { ", " + $0.column }.joined()
            var found: [_SQLValue]?
            try database.query(
                "SELECT Z_PK\(list) FROM \(layout.table(entity.name)) WHERE Z_PK = ?", [.integer(Int64(key))]
            ) { found = $0 }
            values = found
        }
        guard let values else { return nil }
        let backing = _StandInBacking()
        backing.rowID = key
        backing.entityName = entity.name
        for (index, (property, _)) in columns.enumerated() {
            switch property.shape {
            case .attribute(let kind, _):
                let stored = _StandInColumnCodec.stored(values[index + 1], kind: kind)
                if let value = _StandInCodec.decode(stored, as: property.type) { backing.values[property.name] = value }
            case .relationship:
                if case .integer(let other) = values[index + 1] {
                    backing.references[property.name] = Int(other)
                } else {
                    backing.references[property.name] = .some(nil)
                }
            case .unsupported:
                break
            }
        }
        guard let object = type._$make(backing) as? any PersistentModel else { return nil }
        backing.context = self
        backing.object = object
        registered[entity.name, default: [:]][key] = _StandInWeakObject(object)
        return object
    }

    /// Rows of an entity as objects, in key order: all, those of `keys`, or the first `limit`.
    private func rows(of entity: _StandInEntity, keys: [Int]? = nil, limit: Int? = nil) throws
        -> [any PersistentModel]
    {
        let list = layout.columns(of: entity).map { ", " + $0.column }.joined()
        // Keys are bound, so a batch's statement is prepared once and reused by the next batch.
        let conditions = [
            keys.map { "Z_PK IN (\($0.map { _ in "?" }.joined(separator: ", ")))" }, layout.entityFilter(entity.name),
        ]
        .compactMap { $0 }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let bound = (keys ?? []).map { _SQLValue.integer(Int64($0)) }
        var result: [any PersistentModel] = []
        try database.query(
            "SELECT Z_PK\(list) FROM \(layout.table(entity.name))\(filter) ORDER BY Z_PK"
                + (limit.map { " LIMIT \($0)" } ?? ""), bound
        ) { row in
            guard case .integer(let key) = row[0], let object = try object(entity, key: Int(key), row: row) else {
                return
            }
            result.append(object)
        }
        return result
    }

    /// A relationship's value, read the first time it is used (a fault, in Core Data's words).
    func fault(_ backing: _StandInBacking, _ name: String) {
        guard let entityName = backing.entityName, let entity = schema.entities[entityName],
            let property = entity.properties.first(where: { $0.name == name }),
            case .relationship(let target, let isToMany, _) = property.shape,
            let targetEntity = schema.entities[target]
        else { return }
        var related: [any PersistentModel] = []
        if let key = backing.rowID {
            switch layout.storage(of: property, in: entity) {
            case .column(let column)?:
                var other = backing.references[name] ?? nil
                if backing.references[name] == nil,
                    case .integer(let stored)? = try? database.values(
                        "SELECT \(column) FROM \(layout.table(entity.name)) WHERE Z_PK = ?",
                        [.integer(Int64(key))]
                    ).first
                {
                    other = Int(stored)
                }
                if let other, let found = try? object(targetEntity, key: other, row: nil) { related = [found] }
            case .inverseColumn(let table, let column)?:
                let keys =
                    (try? database.values(
                        "SELECT Z_PK FROM \(table) WHERE \(column) = ? ORDER BY Z_PK", [.integer(Int64(key))])) ?? []
                related = keys.compactMap { value in
                    guard case .integer(let other) = value else { return nil }
                    return try? object(targetEntity, key: Int(other), row: nil)
                }
            case .join(let table, let owner, let targetColumn)?:
                let keys =
                    (try? database.values(
                        "SELECT \(targetColumn) FROM \(table) WHERE \(owner) = ? ORDER BY \(targetColumn)",
                        [.integer(Int64(key))])) ?? []
                related = keys.compactMap { value in
                    guard case .integer(let other) = value else { return nil }
                    return try? object(targetEntity, key: Int(other), row: nil)
                }
            case nil:
                break
            }
        }
        related = related.filter { deleted[ObjectIdentifier($0)] == nil }
        backing.values[name] =
            isToMany
            ? Self.list(related, as: property.type)
            : (property.type as? any _StandInOptional.Type)?._make(related.first) ?? related.first as Any
    }

    static func list(_ objects: [Any], as type: Any.Type) -> Any {
        if let optional = type as? any _StandInOptional.Type,
            let sequence = optional._wrapped as? any _StandInSequence.Type
        {
            return optional._make(sequence._make(objects))
        }
        return (type as? any _StandInSequence.Type)?._make(objects) ?? objects
    }

    static func models(in value: Any?) -> [any PersistentModel] {
        guard let value else { return [] }
        if let optional = value as? any _StandInOptional { return models(in: optional._unwrapped) }
        if let model = value as? any PersistentModel { return [model] }
        if let sequence = value as? any _StandInSequence {
            return sequence._elements.compactMap { $0 as? any PersistentModel }
        }
        return []
    }

    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        guard check(T.self) else { throw misuse! }
        let entity = entity(of: T.self)
        var result = try rows(of: entity).compactMap { $0 as? T }.filter { deleted[ObjectIdentifier($0)] == nil }
        result += inserted.compactMap { $0 as? T }
        result = try result.filter { try descriptor.predicate?.evaluate($0) ?? true }
        if !descriptor.sortBy.isEmpty {
            result.sort { a, b in
                for sort in descriptor.sortBy {
                    switch sort.compare(a, b) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return false
            }
        }
        let offset = min(descriptor.fetchOffset ?? 0, result.count)
        result = Array(result[offset...])
        if let limit = descriptor.fetchLimit { result = Array(result.prefix(limit)) }
        return result
    }

    /// Without a predicate, `COUNT(*)` and the objects inserted and deleted since the last save, as a
    /// count costs in SQL; with one, the objects that match.
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        guard descriptor.predicate == nil, descriptor.fetchLimit == nil, descriptor.fetchOffset == nil else {
            return try fetch(descriptor).count
        }
        guard check(T.self) else { throw misuse! }
        guard
            case .integer(let stored)? = try database.values(
                "SELECT COUNT(*) FROM \(layout.table(entity(of: T.self).name))"
                    + (layout.entityFilter(entity(of: T.self).name).map { " WHERE " + $0 } ?? "")
            ).first
        else { return 0 }
        return Int(stored) + inserted.filter { $0 is T }.count - deleted.values.filter { $0 is T }.count
    }

    /// Identities first, then the objects in batches, as Core Data's batched fetch walks a store
    /// (docs/batched-walks.md): the stored rows when the walk starts, in the order of the
    /// descriptor's sorts as SQLite orders their columns; an object inserted and not yet saved is
    /// not walked, one deleted on the way is skipped, and the predicate is applied batch by batch.
    /// After each batch, changes not yet saved end the walk unless `allowEscapingMutations`, as
    /// SwiftData's mutation guard does. Objects of a walked batch that nothing holds are freed.
    public func enumerate<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (T) throws -> Void
    ) throws {
        guard check(T.self) else { throw misuse! }
        let entity = entity(of: T.self)
        guard let order = try sqlOrder(of: descriptor.sortBy, in: entity) else {
            // A sort no column orders: every object fetched at once, sorted as fetch sorts.
            for object in try fetch(descriptor) where object._$backing.rowID != nil { try block(object) }
            return
        }
        var keys: [Int] = []
        let filter = layout.entityFilter(entity.name).map { " WHERE " + $0 } ?? ""
        try database.query("SELECT Z_PK FROM \(layout.table(entity.name))\(filter) ORDER BY \(order)") { row in
            if case .integer(let key) = row[0] { keys.append(Int(key)) }
        }
        let size = max(batchSize, 1)
        var start = 0
        while start < keys.count {
            let end = min(start + size, keys.count)
            let batch = Array(keys[start..<end])
            try walk(batch, of: entity, descriptor, block)
            // The batch's objects that nothing holds are gone: forget their keys.
            for key in batch where registered[entity.name]?[key]?.object == nil { registered[entity.name]?[key] = nil }
            start = end
            try runControl?.pass("\(phase): after a batch of \(T.self) walked by enumerate")
            if hasChanges && !allowEscapingMutations {
                throw _StandInError(
                    code: 0,
                    message:
                        "enumerate found unsaved changes after a batch of \(T.self); save them in the block or pass allowEscapingMutations: true"
                )
            }
        }
    }

    private func walk<T: PersistentModel>(
        _ batch: [Int], of entity: _StandInEntity, _ descriptor: FetchDescriptor<T>, _ block: (T) throws -> Void
    ) throws {
        let found = Dictionary(
            try rows(of: entity, keys: batch).compactMap { object in object._$backing.rowID.map { ($0, object) } },
            uniquingKeysWith: { first, _ in first })
        for key in batch {
            guard let object = found[key] as? T, deleted[ObjectIdentifier(object)] == nil,
                try descriptor.predicate?.evaluate(object) ?? true
            else { continue }
            try block(object)
        }
    }

    /// `ORDER BY` for sorts, each read off a stored property's column (then `Z_PK`, so ties keep
    /// one order); nil when a sort names no column of the entity.
    private func sqlOrder<T: PersistentModel>(of sorts: [SortDescriptor<T>], in entity: _StandInEntity) throws
        -> String?
    {
        guard !sorts.isEmpty else { return "Z_PK" }
        guard let sample = try rows(of: entity, limit: 1).first as? T else { return "Z_PK" }
        let columns = Dictionary(
            layout.columns(of: entity).map { ($0.property.name, $0) }, uniquingKeysWith: { first, _ in first })
        var terms: [String] = []
        for sort in sorts {
            guard let keyPath = sort.keyPath else { return nil }
            sample._$backing.readNames = []
            _ = sample[keyPath: keyPath]
            let read = sample._$backing.readNames ?? []
            sample._$backing.readNames = nil
            guard read.count == 1, let (property, column) = columns[read[0]], case .attribute = property.shape else {
                return nil
            }
            terms.append(column + (sort.order == .reverse ? " DESC" : " ASC"))
        }
        return (terms + ["Z_PK"]).joined(separator: ", ")
    }

    // MARK: changing

    public func insert<T: PersistentModel>(_ model: T) {
        guard check(T.self) else { return }
        let backing = model._$backing
        guard backing.rowID == nil, insertedIDs.insert(ObjectIdentifier(model)).inserted else { return }
        backing.context = self
        backing.object = model
        backing.entityName = entity(of: T.self).name
        inserted.append(model)
        hasChanges = true
    }

    /// A value set through a registered object: it is held, and saved, with the next save.
    func noteChange(_ backing: _StandInBacking) {
        hasChanges = true
        guard backing.rowID != nil, let object = backing.object as? any PersistentModel else { return }
        changed[ObjectIdentifier(object)] = object
    }

    public func delete<T: PersistentModel>(_ model: T) {
        if insertedIDs.remove(ObjectIdentifier(model)) != nil {
            inserted.removeAll { $0 === model }
        } else if model._$backing.rowID != nil {
            deleted[ObjectIdentifier(model)] = model
        }
        hasChanges = true
    }

    public func delete<T: PersistentModel>(
        model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true
    ) throws {
        for object in try fetch(FetchDescriptor<T>(predicate: predicate)) { delete(object) }
    }

    public func save() throws {
        if let misuse { throw misuse }
        forgetFreedObjects()
        try runControl?.pass("\(phase): a save, before it commits")
        let written = try database.transaction { () throws -> [any PersistentModel] in
            let written = try writeChanges()
            try runControl?.commit()
            return written
        }
        for object in written {
            let backing = object._$backing
            backing.changed = []
            if let entity = backing.entityName, let key = backing.rowID {
                registered[entity, default: [:]][key] = _StandInWeakObject(object)
            }
        }
        inserted = []
        insertedIDs = []
        changed = [:]
        for object in deleted.values {
            if let entity = object._$backing.entityName, let key = object._$backing.rowID {
                registered[entity]?[key] = nil
            }
        }
        deleted = [:]
        forgetRelationships()
        _saveCount += 1
        hasChanges = false
        try runControl?.pass("\(phase): a save, after it committed")
    }

    /// Keys of objects that nothing holds any more, so the registry stays as small as what is alive.
    private func forgetFreedObjects() {
        for (name, objects) in registered {
            registered[name] = objects.filter { $0.value.object != nil }
        }
    }

    /// After a save, every object's relationships are read again from the store when next used,
    /// so both sides agree with what was written.
    private func forgetRelationships() {
        for (name, objects) in registered {
            guard let entity = schema.entities[name] else { continue }
            let relationships = entity.properties.filter {
                if case .relationship = $0.shape { return true }
                return false
            }
            for reference in objects.values {
                guard let object = reference.object as? any PersistentModel else { continue }
                let backing = object._$backing
                for property in relationships {
                    backing.references[property.name] = nil
                    backing.values[property.name] = nil
                }
            }
        }
    }

    /// Inserts, updates and deletes in the store; returns the objects written.
    private func writeChanges() throws -> [any PersistentModel] {
        // Objects reachable from the ones inserted or changed that were never saved are inserted too.
        var newObjects: [any PersistentModel] = []
        var seen: Set<ObjectIdentifier> = []
        var pending = inserted + Array(changed.values)
        while let object = pending.popLast() {
            guard seen.insert(ObjectIdentifier(object)).inserted else { continue }
            guard check(type(of: object)) else { throw misuse! }
            if object._$backing.rowID == nil && deleted[ObjectIdentifier(object)] == nil {
                newObjects.append(object)
            }
            pending += related(object).filter { $0._$backing.rowID == nil }
        }
        let position = Dictionary(
            inserted.enumerated().map { (ObjectIdentifier($1), $0) }, uniquingKeysWith: { first, _ in first })
        newObjects.sort { (position[ObjectIdentifier($0)] ?? Int.max) < (position[ObjectIdentifier($1)] ?? Int.max) }
        let updated = changed.values.filter { deleted[ObjectIdentifier($0)] == nil }
        connectInverses(newObjects + updated)
        // Keys are numbered per table: the entities of a hierarchy share their root's.
        var counts: [String: Int] = [:]
        for object in newObjects { counts[layout.rootName(entity(of: type(of: object)).name), default: 0] += 1 }
        var nextKeys: [String: Int] = [:]
        for (name, count) in counts { nextKeys[name] = try _StandInMetadata.takeKeys(count, of: name, in: database) }
        for object in newObjects {
            let backing = object._$backing
            let entity = entity(of: type(of: object))
            backing.entityName = entity.name
            backing.context = self
            backing.object = object
            let root = layout.rootName(entity.name)
            backing.rowID = nextKeys[root]
            nextKeys[root, default: 0] += 1
        }
        for object in newObjects { try insertRow(object) }
        for object in newObjects { try writeToManys(object, all: true) }
        for object in updated { try writeToManys(object, all: false) }
        for object in updated { try updateRow(object) }
        for object in deleted.values { try deleteRow(object) }
        return newObjects + updated
    }

    /// SwiftData keeps both sides of a relationship with an inverse in step before it saves: each
    /// related object's side names this one too, where that side is in memory.
    private func connectInverses(_ objects: [any PersistentModel]) {
        for object in objects {
            let entity = entity(of: type(of: object))
            for property in entity.properties {
                guard case .relationship = property.shape, let value = object._$backing.values[property.name],
                    let partner = layout.partner(of: property, in: entity)
                else { continue }
                for other in Self.models(in: value) {
                    let backing = other._$backing
                    guard backing.rowID == nil || backing.values[partner.name] != nil else { continue }
                    let current = Self.models(in: backing.values[partner.name])
                    guard !current.contains(where: { $0 === object }) else { continue }
                    if case .relationship(_, true, _) = partner.shape {
                        backing.values[partner.name] = Self.list(current + [object], as: partner.type)
                    } else if current.isEmpty {
                        backing.values[partner.name] =
                            (partner.type as? any _StandInOptional.Type)?._make(object) ?? object
                    }
                }
            }
        }
    }

    private func related(_ object: any PersistentModel) -> [any PersistentModel] {
        entity(of: type(of: object)).properties.flatMap { property -> [any PersistentModel] in
            guard case .relationship = property.shape else { return [] }
            return Self.models(in: object._$backing.values[property.name])
        }
    }

    private func columnValue(_ property: _StandInProperty, of backing: _StandInBacking) -> _SQLValue {
        switch property.shape {
        case .attribute:
            return _StandInColumnCodec.sql(backing.values[property.name].map(_StandInCodec.encode) ?? .null)
        case .relationship:
            let key: Int?
            if let value = backing.values[property.name] {
                key = Self.models(in: value).first { deleted[ObjectIdentifier($0)] == nil }?._$backing.rowID
            } else {
                key = backing.references[property.name] ?? nil
            }
            return key.map { .integer(Int64($0)) } ?? .null
        case .unsupported:
            return .null
        }
    }

    private func insertRow(_ object: any PersistentModel) throws {
        let entity = entity(of: type(of: object))
        let backing = object._$backing
        let columns = layout.columns(of: entity)
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns.map(\.column)
        var values: [_SQLValue] = [
            .integer(Int64(backing.rowID ?? 0)), .integer(Int64(layout.numbers[entity.name] ?? 0)), .integer(1),
        ]
        values += columns.map { columnValue($0.property, of: backing) }
        try database.execute(
            "INSERT INTO \(layout.table(entity.name)) (\(names.joined(separator: ", "))) VALUES "
                + "(\(names.map { _ in "?" }.joined(separator: ", ")))", values)
        try writeOneToOnes(object, names: Set(columns.map(\.property.name)))
    }

    private func updateRow(_ object: any PersistentModel) throws {
        let entity = entity(of: type(of: object))
        let backing = object._$backing
        let columns = layout.columns(of: entity).filter { backing.changed.contains($0.property.name) }
        guard let key = backing.rowID else { return }
        let sets = ["Z_OPT = Z_OPT + 1"] + columns.map { "\($0.column) = ?" }
        try database.execute(
            "UPDATE \(layout.table(entity.name)) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ?",
            columns.map { columnValue($0.property, of: backing) } + [.integer(Int64(key))])
        try writeOneToOnes(object, names: Set(columns.map(\.property.name)))
    }

    /// A to-one whose inverse is a to-one: the other side's column follows, and the object it
    /// pointed at before lets go.
    private func writeOneToOnes(_ object: any PersistentModel, names: Set<String>) throws {
        let entity = entity(of: type(of: object))
        let backing = object._$backing
        guard let key = backing.rowID else { return }
        for property in entity.properties where names.contains(property.name) {
            guard case .relationship(let target, false, _) = property.shape,
                let partner = layout.partner(of: property, in: entity),
                case .relationship(_, false, _) = partner.shape
            else { continue }
            let table = layout.table(target)
            let column = _StandInLayout.column(partner.name)
            try database.execute("UPDATE \(table) SET \(column) = NULL WHERE \(column) = ?", [.integer(Int64(key))])
            guard case .integer(let other) = columnValue(property, of: backing) else { continue }
            try database.execute(
                "UPDATE \(table) SET \(column) = ? WHERE Z_PK = ?", [.integer(Int64(key)), .integer(other)])
            try database.execute(
                "UPDATE \(layout.table(entity.name)) SET \(_StandInLayout.column(property.name)) = NULL "
                    + "WHERE \(_StandInLayout.column(property.name)) = ? AND Z_PK != ?",
                [.integer(other), .integer(Int64(key))])
        }
    }

    /// A to-many set on this object, written where the store keeps it: the related rows' to-one
    /// column, or the join table. `all`: every to-many the object holds (a new object's).
    private func writeToManys(_ object: any PersistentModel, all: Bool) throws {
        let entity = entity(of: type(of: object))
        let backing = object._$backing
        guard let key = backing.rowID.map({ Int64($0) }) else { return }
        for property in entity.properties {
            guard case .relationship(_, true, _) = property.shape, all || backing.changed.contains(property.name),
                let value = backing.values[property.name]
            else { continue }
            let keys = Self.models(in: value).filter { deleted[ObjectIdentifier($0)] == nil }.compactMap {
                $0._$backing.rowID.map { Int64($0) }
            }
            switch layout.storage(of: property, in: entity) {
            case .inverseColumn(let table, let column)?:
                let kept = Set(keys)
                for case .integer(let other) in try database.values(
                    "SELECT Z_PK FROM \(table) WHERE \(column) = ?", [.integer(key)])
                where !kept.contains(other) {
                    try database.execute("UPDATE \(table) SET \(column) = NULL WHERE Z_PK = ?", [.integer(other)])
                }
                for other in keys {
                    try database.execute(
                        "UPDATE \(table) SET \(column) = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?",
                        [.integer(key), .integer(other)])
                }
            case .join(let table, let owner, let target)?:
                try database.execute("DELETE FROM \(table) WHERE \(owner) = ?", [.integer(key)])
                for other in keys {
                    try database.execute(
                        "INSERT OR IGNORE INTO \(table) (\(owner), \(target)) VALUES (?, ?)",
                        [.integer(key), .integer(other)])
                }
            default:
                continue
            }
        }
    }

    /// A deleted row, and every reference to it: to-one columns set to NULL, join rows removed.
    private func deleteRow(_ object: any PersistentModel) throws {
        let entity = entity(of: type(of: object))
        guard let key = object._$backing.rowID.map({ Int64($0) }) else { return }
        try database.execute("DELETE FROM \(layout.table(entity.name)) WHERE Z_PK = ?", [.integer(key)])
        for name in layout.entityNames {
            guard let other = layout.entity(name) else { continue }
            for property in other.properties {
                guard case .relationship(let target, _, _) = property.shape else { continue }
                switch layout.storage(of: property, in: other) {
                case .column(let column)? where target == entity.name:
                    try database.execute(
                        "UPDATE \(layout.table(name)) SET \(column) = NULL WHERE \(column) = ?", [.integer(key)]
                    )
                case .inverseColumn(let table, let column)? where name == entity.name:
                    try database.execute("UPDATE \(table) SET \(column) = NULL WHERE \(column) = ?", [.integer(key)])
                case .join(let table, let owner, let targetColumn)?:
                    if name == entity.name {
                        try database.execute("DELETE FROM \(table) WHERE \(owner) = ?", [.integer(key)])
                    }
                    if target == entity.name {
                        try database.execute("DELETE FROM \(table) WHERE \(targetColumn) = ?", [.integer(key)])
                    }
                default:
                    continue
                }
            }
        }
    }
}
