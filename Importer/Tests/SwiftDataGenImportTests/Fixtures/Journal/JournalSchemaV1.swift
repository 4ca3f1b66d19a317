import Foundation
import SwiftData

// Four shipped versions and a hand-written plan, written the way apps write them (Swift 5 style
// `static var` identifiers included).
enum JournalSchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self, Tag.self] }

    @Model
    final class Entry {
        var title: String
        var body: String = ""
        var createdAt: Date
        @Relationship(deleteRule: .nullify, inverse: \Tag.entries)
        var tags: [Tag] = []

        init(title: String, createdAt: Date) {
            self.title = title
            self.createdAt = createdAt
        }

        var isEmpty: Bool { body.isEmpty }
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
