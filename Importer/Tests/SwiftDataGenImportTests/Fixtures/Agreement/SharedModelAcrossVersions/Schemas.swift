import Foundation
import SwiftData

// One module-scope class listed by two versions whose other model changes.
@Model final class Author {
    var name: String = ""
    init() {}
}

enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Author.self, Poem.self] }

    @Model final class Poem {
        var text: String = ""
        init() {}
    }
}

enum V2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Author.self, Poem.self] }

    @Model final class Poem {
        var text: String = ""
        var year: Int?
        init() {}
    }
}
