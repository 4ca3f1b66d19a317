import Foundation
import SwiftData

// Version enums named V1 and V2 with no alias for the current one: the derived schema name
// would be `App`, which a SwiftUI app's `@main struct …: App` needs.

enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model
    final class Item {
        var timestamp: Date = Date.distantPast

        init() {}
    }
}

enum V2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model
    final class Item {
        var timestamp: Date = Date.distantPast
        var note: String?

        init() {}
    }
}
