import Foundation
#if canImport(SwiftData)
import SwiftData
#endif

// Versions nested in a namespace that only list their models; the first version's model is a
// module-scope class, the second's is declared in an extension of the version in another file
// under the same name (inside V2 the nested one wins); numbers below 1.0.0, the later version
// written first; the plan in an extension of the namespace; everything behind #if and
// @available; the app's alias of the current version is `DBModel`.

#if canImport(SwiftData)
@available(iOS 17, *)
typealias DBModel = AppSchema.V2

@available(iOS 17, *)
enum AppSchema {
    enum V2: VersionedSchema {
        nonisolated(unsafe) static var versionIdentifier = Schema.Version(0, 0, 2)
        static var models: [any PersistentModel.Type] { [PetIdentity.self] }
    }

    enum V1: VersionedSchema {
        nonisolated(unsafe) static var versionIdentifier = Schema.Version(0, 0, 1)
        static var models: [any PersistentModel.Type] { [PetIdentity.self] }
    }
}

@available(iOS 17, *)
extension AppSchema {
    enum AppMigrationPlan: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] { [AppSchema.V1.self, AppSchema.V2.self] }
        static var stages: [MigrationStage] { [toV2] }
        static let toV2 = MigrationStage.custom(
            fromVersion: AppSchema.V1.self, toVersion: AppSchema.V2.self, willMigrate: nil, didMigrate: nil)
    }
}
#endif
