import Foundation
import SwiftData

enum V2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Song.self] }

    @Model final class Song {
        @Attribute(originalName: "title") var name: String = ""
        var plays: Int = 0
        init() {}
    }
}
