import Foundation
import SwiftData

// A model declared inside `#if canImport(SwiftData)`, which holds wherever the app builds.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Photo.self] }

    #if canImport(SwiftData)
    @Model final class Photo {
        var caption: String = ""
        var width: Int = 0
        init() {}
    }
    #else
    @Model final class Photo {
        var caption: String = ""
        init() {}
    }
    #endif
}
