import Foundation
import SwiftData

// Every property key the importer reads back from Swift (`PropertyKey.importedFrom`), at least
// once, in two versions so a rename is among them.

enum KeysSchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Shelf.self, Book.self] }

    enum Kind: String, Codable {
        case paper, ebook
    }

    @Model
    final class Shelf {
        var label: String = ""
        @Relationship(deleteRule: .cascade, minimumModelCount: 1, maximumModelCount: 50, inverse: \Book.shelf)
        var books: [Book] = []
        init() {}
    }

    @Model
    final class Book {
        var title: String = ""
        var shelf: Shelf?
        init() {}
    }
}

enum KeysSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Shelf.self, Book.self] }

    enum Kind: String, Codable {
        case paper, ebook
    }

    @Model
    final class Shelf {
        var label: String = ""
        @Relationship(deleteRule: .cascade, minimumModelCount: 1, maximumModelCount: 50, inverse: \Book.shelf)
        var books: [Book] = []
        init() {}
    }

    @Model
    final class Book {
        /// The title as printed.
        @Attribute(originalName: "title", hashModifier: "2")
        var name: String = ""
        var shelf: Shelf?
        @Attribute(.unique) var isbn: String?
        @Attribute(.externalStorage) var cover: Data?
        @Attribute(.spotlight) var blurb: String?
        @Attribute(.preserveValueOnDeletion) var serial: String?
        @Attribute(.allowsCloudEncryption) var notes: String?
        @Attribute(.ephemeral) var isOpen: Bool = false
        @Attribute(.transformable(by: "ColorTransformer")) var color: Data?
        @Transient var isSelected: Bool = false
        var kind: Kind = Kind.paper
        var addedAt: Date = Date()
        private var secret: String = ""
        init() {}
    }
}
