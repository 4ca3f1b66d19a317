import Foundation
import SwiftData

// Versions declared newest first; the numbers order them.
enum V2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 2, 0) }
    static var models: [any PersistentModel.Type] { [Lamp.self] }

    @Model final class Lamp {
        var watts: Int = 0
        var color: String?
        init() {}
    }
}

enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Lamp.self] }

    @Model final class Lamp {
        var watts: Int = 0
        init() {}
    }
}
