import Foundation
import SwiftData

// `models` built by a function the importer does not run: it stops here rather than guess.
func allModels() -> [any PersistentModel.Type] { [V1.Kite.self] }

enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { allModels() }

    @Model final class Kite {
        var color: String = ""
        init() {}
    }

    @Model final class Spare {
        var size: Int = 0
        init() {}
    }
}
