import Foundation
import SwiftData

// A plan whose custom stage comes from a function in an extension of MigrationStage.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Counter.self] }

    @Model final class Counter {
        var value: Int = 0
        init() {}
    }
}

enum V2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Counter.self] }

    @Model final class Counter {
        var value: Int = 0
        var doubled: Int = 0
        init() {}
    }
}

extension MigrationStage {
    static func fillDoubled() -> MigrationStage {
        .custom(fromVersion: V1.self, toVersion: V2.self, willMigrate: nil) { context in
            for counter in try context.fetch(FetchDescriptor<V2.Counter>()) {
                counter.doubled = counter.value * 2
            }
            try context.save()
        }
    }
}

enum CounterPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
    static var stages: [MigrationStage] { [.fillDoubled()] }
}
