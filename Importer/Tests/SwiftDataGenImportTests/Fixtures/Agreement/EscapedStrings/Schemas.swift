import Foundation
import SwiftData

// String arguments with escapes and raw delimiters: what the compiler reads is what counts.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Book.self] }

    @Model final class Book {
        var title: String = ""
        init() {}
    }
}

enum V2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Book.self] }

    @Model final class Book {
        @Attribute(originalName: "ti\u{74}le", hashModifier: "v\u{32}") var heading: String = ""
        @Attribute(hashModifier: #"raw"#) var note: String = "a \"quoted\" word"
        init() {}
    }
}
