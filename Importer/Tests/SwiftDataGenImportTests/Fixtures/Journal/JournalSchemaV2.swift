import Foundation
import SwiftData

enum JournalSchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 1, 0)
    static var models: [any PersistentModel.Type] { [Entry.self, Tag.self] }

    @Model
    final class Entry {
        var title: String
        @Attribute(originalName: "body") var text: String = ""
        var createdAt: Date
        var mood: Int?
        @Relationship(deleteRule: .nullify, inverse: \Tag.entries)
        var tags: [Tag] = []

        init(title: String, createdAt: Date) {
            self.title = title
            self.createdAt = createdAt
        }
    }

    @Model
    final class Tag {
        @Attribute(.unique) var name: String
        var entries: [Entry] = []

        init(name: String) {
            self.name = name
        }
    }
}
