import Foundation
import SwiftData

// Each version in its own file declares a class of the same name.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Song.self] }

    @Model final class Song {
        var title: String = ""
        init() {}
    }
}
