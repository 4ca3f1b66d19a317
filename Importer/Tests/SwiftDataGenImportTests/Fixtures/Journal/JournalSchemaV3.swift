import Foundation
import SwiftData

enum JournalSchemaV3: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self, Tag.self, Attachment.self] }

    @Model
    final class Entry {
        var title: String
        @Attribute(originalName: "body") var text: String = ""
        var createdAt: Date
        var mood: Int?
        var pinned: Bool = false
        @Relationship(deleteRule: .nullify, inverse: \Tag.entries)
        var tags: [Tag] = []
        @Relationship(deleteRule: .cascade, inverse: \Attachment.entry)
        var attachments: [Attachment] = []

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

    @Model
    final class Attachment {
        @Attribute(.externalStorage) var data: Data
        var kind: String = "image"
        var entry: Entry?

        init(data: Data) {
            self.data = data
        }
    }
}
