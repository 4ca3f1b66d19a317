// Hand-written plans for the migration simulator: ones a device rejects (each must fail with
// SwiftData's error) and the Apple patterns that work (each must keep the data).
import Foundation
import SwiftData

enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model final class Item {
        var title: String
        var price: String
        var createdAt: Date
        init(title: String, price: String, createdAt: Date) {
            self.title = title
            self.price = price
            self.createdAt = createdAt
        }
    }
}

/// 1.0.0 plus an index only: the same checksum.
enum IndexOnly: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 1, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model final class Item {
        #Index<Item>([\.title])
        var title: String
        var price: String
        var createdAt: Date
        init(title: String, price: String, createdAt: Date) {
            self.title = title
            self.price = price
            self.createdAt = createdAt
        }
    }
}

/// `title` renamed to `name`, and a new `title` that reuses the old identifier.
enum SharedIdentifier: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model final class Item {
        @Attribute(originalName: "title") var name: String
        var title: String?
        var price: String
        var createdAt: Date
        init(name: String, price: String, createdAt: Date) {
            self.name = name
            self.price = price
            self.createdAt = createdAt
        }
    }
}

/// `price` from String to Double with no bridge.
enum TypeChanged: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model final class Item {
        var title: String
        var price: Double
        var createdAt: Date
        init(title: String, price: Double, createdAt: Date) {
            self.title = title
            self.price = price
            self.createdAt = createdAt
        }
    }
}

/// `title` unique.
enum UniqueTitle: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model final class Item {
        #Unique<Item>([\.title])
        var title: String
        var price: String
        var createdAt: Date
        init(title: String, price: String, createdAt: Date) {
            self.title = title
            self.price = price
            self.createdAt = createdAt
        }
    }
}

/// A required property with no default.
enum RequiredAdded: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model final class Item {
        var title: String
        var price: String
        var createdAt: Date
        var stock: Int
        init(title: String, price: String, createdAt: Date, stock: Int) {
            self.title = title
            self.price = price
            self.createdAt = createdAt
            self.stock = stock
        }
    }
}

/// `title` renamed to `name` the supported way.
enum Renamed: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model final class Item {
        @Attribute(originalName: "title") var name: String
        var price: String
        var createdAt: Date
        init(name: String, price: String, createdAt: Date) {
            self.name = name
            self.price = price
            self.createdAt = createdAt
        }
    }
}

/// The bridge of a two-stage conversion of `price`: old and new side by side.
enum Bridge: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 1) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model final class Item {
        var title: String
        var price: String
        var priceConverted: Double?
        var createdAt: Date
        init(title: String, price: String, createdAt: Date) {
            self.title = title
            self.price = price
            self.createdAt = createdAt
        }
    }
}

enum Converted: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model final class Item {
        var title: String
        @Attribute(originalName: "priceConverted") var price: Double = 0
        var createdAt: Date
        init(title: String, createdAt: Date) {
            self.title = title
            self.createdAt = createdAt
        }
    }
}

enum DuplicatePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self, IndexOnly.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: IndexOnly.self)] }
}

enum SharedIdentifierPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self, SharedIdentifier.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: SharedIdentifier.self)] }
}

enum TypeChangePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self, TypeChanged.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: TypeChanged.self)] }
}

enum UniqueLightweightPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self, UniqueTitle.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: UniqueTitle.self)] }
}

enum RequiredAddedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self, RequiredAdded.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: RequiredAdded.self)] }
}

/// willMigrate fetching the new version's types: SwiftData crashes ([S20]).
enum WrongTypesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self, UniqueTitle.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: V1.self, toVersion: UniqueTitle.self, willMigrate: { context in
            _ = try context.fetch(FetchDescriptor<UniqueTitle.Item>())
        }, didMigrate: nil)]
    }
}

/// WWDC23/WWDC25: de-duplicate in willMigrate on the old types.
enum DedupePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self, UniqueTitle.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: V1.self, toVersion: UniqueTitle.self, willMigrate: { context in
            var seen: Set<String> = []
            for item in try context.fetch(FetchDescriptor<V1.Item>(sortBy: [SortDescriptor(\.createdAt)])) where !seen.insert(item.title).inserted {
                context.delete(item)
            }
            try context.save()
        }, didMigrate: nil)]
    }
}

/// The rename of `Renamed` written without `originalName`: a property dropped and one added.
enum DroppedAndAdded: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model final class Item {
        var name: String = ""
        var price: String
        var createdAt: Date
        init(name: String, price: String, createdAt: Date) {
            self.name = name
            self.price = price
            self.createdAt = createdAt
        }
    }
}

enum DropAndAddPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self, DroppedAndAdded.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: DroppedAndAdded.self)] }
}

enum RenamePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self, Renamed.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: Renamed.self)] }
}

enum BridgePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self, Bridge.self, Converted.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: V1.self, toVersion: Bridge.self, willMigrate: nil, didMigrate: { context in
                for item in try context.fetch(FetchDescriptor<Bridge.Item>()) { item.priceConverted = Double(item.price) ?? -1 }
                try context.save()
            }),
            .lightweight(fromVersion: Bridge.self, toVersion: Converted.self),
        ]
    }
}

/// A plan that does not list the schema the store was written with.
enum WithoutV1Plan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [Bridge.self, Converted.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: Bridge.self, toVersion: Converted.self)] }
}

/// A store at 1.0.0 with two items that share a title.
func seededStore() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-scenario-\(UUID().uuidString).store")
    let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: V1.self), configurations: ModelConfiguration(url: url)))
    context.insert(V1.Item(title: "lamp", price: "12.5", createdAt: Date(timeIntervalSince1970: 1)))
    context.insert(V1.Item(title: "lamp", price: "3", createdAt: Date(timeIntervalSince1970: 2)))
    try context.save()
    return url
}

/// Opens the seeded store with `schema` and `plan`; prints what came through or the error. Runs
/// when the process is started with `name`: SwiftData binds a model name to the first class that
/// claims it in a process, so each scenario has a process of its own, and builds its latest schema
/// first, as the app does, unless `latestFirst` is false.
func scenario<T: PersistentModel>(_ name: String, _ schema: any VersionedSchema.Type, _ plan: any SchemaMigrationPlan.Type, _ type: T.Type, latestFirst: Bool = true, _ show: (T) -> String) {
    guard CommandLine.arguments.dropFirst().first == name else { return }
    do {
        if latestFirst {
            _ = try ModelContainer(for: Schema(versionedSchema: schema), configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        }
        let url = try seededStore()
        defer { try? FileManager.default.removeItem(at: url) }
        let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: schema), migrationPlan: plan, configurations: ModelConfiguration(url: url)))
        let rows = try context.fetch(FetchDescriptor<T>()).map(show).sorted()
        print("\(name): ok \(rows.joined(separator: ","))")
    } catch let error as _StandInError {
        print("\(name): error \(error.code) \(error.message)")
    } catch {
        print("\(name): error \(error)")
    }
}

scenario("duplicate checksum", IndexOnly.self, DuplicatePlan.self, IndexOnly.Item.self) { $0.title }
scenario("shared identifier", SharedIdentifier.self, SharedIdentifierPlan.self, SharedIdentifier.Item.self) { $0.name }
scenario("type change", TypeChanged.self, TypeChangePlan.self, TypeChanged.Item.self) { "\($0.price)" }
scenario("unique over duplicates", UniqueTitle.self, UniqueLightweightPlan.self, UniqueTitle.Item.self) { $0.title }
scenario("required added", RequiredAdded.self, RequiredAddedPlan.self, RequiredAdded.Item.self) { "\($0.stock)" }
scenario("new types in willMigrate", UniqueTitle.self, WrongTypesPlan.self, UniqueTitle.Item.self) { $0.title }
scenario("unknown model version", Converted.self, WithoutV1Plan.self, Converted.Item.self) { $0.title }
scenario("dedupe in willMigrate", UniqueTitle.self, DedupePlan.self, UniqueTitle.Item.self) { "\($0.title) \($0.price)" }
scenario("rename by originalName", Renamed.self, RenamePlan.self, Renamed.Item.self) { $0.name }
scenario("rename as a drop and an add", DroppedAndAdded.self, DropAndAddPlan.self, DroppedAndAdded.Item.self) { "[\($0.name)]" }
scenario("two-stage bridge", Converted.self, BridgePlan.self, Converted.Item.self) { "\($0.title) \($0.price)" }
scenario("older version first", Converted.self, BridgePlan.self, Converted.Item.self, latestFirst: false) { $0.title }
