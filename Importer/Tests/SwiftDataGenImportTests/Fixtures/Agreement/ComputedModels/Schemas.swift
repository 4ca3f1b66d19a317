import Foundation
import SwiftData

// A version's models computed from the one before: `V1.models + [Extra.self]`.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self] }

    @Model final class Trip {
        var name: String = ""
        init() {}
    }
}

enum V2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { V1.models + [Stop.self] }

    @Model final class Stop {
        var place: String = ""
        init() {}
    }
}
