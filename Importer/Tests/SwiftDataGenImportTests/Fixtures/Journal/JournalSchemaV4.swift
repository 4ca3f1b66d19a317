import Foundation
import SwiftData

enum JournalSchemaV4: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 1, 0)
    static var models: [any PersistentModel.Type] { [Entry.self, Tag.self, Attachment.self] }

    @Model
    final class Entry {
        @Attribute(originalName: "title") var headline: String
        @Attribute(originalName: "body") var text: String = ""
        var createdAt: Date
        var mood: Int?
        var pinned: Bool = false
        var wordCount: Int = 0
        @Relationship(deleteRule: .nullify, inverse: \Tag.entries)
        var tags: [Tag] = []
        @Relationship(deleteRule: .cascade, inverse: \Attachment.entry)
        var attachments: [Attachment] = []

        init(headline: String, createdAt: Date) {
            self.headline = headline
            self.createdAt = createdAt
        }
    }

    @Model
    final class Tag {
        @Attribute(.unique) var name: String
        var colorHex: String?
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

typealias Entry = JournalSchemaV4.Entry
typealias Tag = JournalSchemaV4.Tag

enum JournalMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [JournalSchemaV1.self, JournalSchemaV2.self, JournalSchemaV3.self, JournalSchemaV4.self]
    }

    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: JournalSchemaV1.self, toVersion: JournalSchemaV2.self),
            .lightweight(fromVersion: JournalSchemaV2.self, toVersion: JournalSchemaV3.self),
            .custom(
                fromVersion: JournalSchemaV3.self, toVersion: JournalSchemaV4.self,
                willMigrate: nil,
                didMigrate: { context in
                    for entry in try context.fetch(FetchDescriptor<JournalSchemaV4.Entry>()) {
                        entry.wordCount = entry.text.split(separator: " ").count
                    }
                    try context.save()
                }
            ),
        ]
    }
}
