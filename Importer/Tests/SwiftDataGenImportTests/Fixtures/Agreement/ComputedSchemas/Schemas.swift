import Foundation
import SwiftData

// A plan whose schemas and stages are computed, with a `return`.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { return Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { return [Dish.self] }

    @Model final class Dish {
        var name: String = ""
        init() {}
    }
}

enum V2: VersionedSchema {
    static var versionIdentifier: Schema.Version { return Schema.Version(1, 1, 0) }
    static var models: [any PersistentModel.Type] { return [Dish.self] }

    @Model final class Dish {
        var name: String = ""
        var spicy: Bool = false
        init() {}
    }
}

enum Plan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [V1.self] + [V2.self] }
    static var stages: [MigrationStage] { return [stage] }
    static let stage = MigrationStage.lightweight(fromVersion: V1.self, toVersion: V2.self)
}
