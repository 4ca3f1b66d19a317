import Foundation
import SwiftData

// Versions declared in an extension of a namespace, listing their models through `Self`.
enum Schemas {}

extension Schemas {
    enum V1: VersionedSchema {
        static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
        static var models: [any PersistentModel.Type] { [Self.Note.self] }

        @Model final class Note {
            var body: String = ""
            init() {}
        }
    }
}

extension Schemas {
    enum V2: VersionedSchema {
        static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
        static var models: [any PersistentModel.Type] { [Self.Note.self, Self.Tag.self] }

        @Model final class Note {
            var body: String = ""
            var tags: [Tag] = []
            init() {}
        }

        @Model final class Tag {
            var name: String = ""
            @Relationship(inverse: \Note.tags) var notes: [Note] = []
            init() {}
        }
    }
}
