import Foundation
import SwiftData

// `Self.Item` inside the version means the version's own Item, though a module-scope Item exists.
@Model final class Item {
    var unrelated: Int = 0
    init() {}
}

enum SchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Self.Item.self] }

    @Model final class Item {
        var title: String = ""
        init() {}
    }
}

enum SchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [SchemaV2.Item.self] }

    @Model final class Item {
        var title: String = ""
        var count: Int = 0
        init() {}
    }
}
