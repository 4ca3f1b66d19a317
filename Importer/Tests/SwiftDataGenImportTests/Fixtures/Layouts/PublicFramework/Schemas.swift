import Foundation
import SwiftData

// Models of a framework module: public classes, the public properties the app reads, one kept
// internal, and the framework's own public name for the current version.

public enum LibrarySchemaV1: VersionedSchema {
    public static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    public static var models: [any PersistentModel.Type] { [Book.self] }

    @Model
    public final class Book {
        public var title: String = ""
        var checksum: String = ""

        public init() {}
    }
}

public enum LibrarySchemaV2: VersionedSchema {
    public static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    public static var models: [any PersistentModel.Type] { [Book.self] }

    @Model
    public final class Book {
        public var title: String = ""
        public var author: String?
        var checksum: String = ""

        public init() {}
    }
}

public typealias LibrarySchema = LibrarySchemaV2
public typealias Book = LibrarySchemaV2.Book
