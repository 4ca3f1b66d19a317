import SwiftData

// Declarations that compile but store nothing the YAML could state (written here): a schema that
// lists no models, an enum without cases and a Codable struct without stored fields.

enum ShelfSchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [] }
}

enum ShelfSchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Shelf.self] }

    enum Mood: String, Codable {}

    struct Nothing: Codable {}

    @Model
    final class Shelf {
        var label: String = ""
        var mood: Mood?
        var nothing: Nothing?
        init() {}
    }
}
