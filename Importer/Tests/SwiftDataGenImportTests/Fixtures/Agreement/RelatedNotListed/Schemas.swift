import Foundation
import SwiftData

// A model reached only through a relationship of a listed one: SwiftData stores it too.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Album.self] }

    @Model final class Album {
        var title: String = ""
        @Relationship(deleteRule: .cascade, minimumModelCount: 1, maximumModelCount: 30, inverse: \Track.album)
        var tracks: [Track] = []
        init() {}
    }

    @Model final class Track {
        var title: String = ""
        var album: Album?
        init() {}
    }
}
