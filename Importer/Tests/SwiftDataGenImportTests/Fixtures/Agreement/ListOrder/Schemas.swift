import Foundation
import SwiftData

// `models` lists classes in another order than they are declared.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Zebra.self, Ant.self, Moose.self] }

    @Model final class Ant {
        var legs: Int = 6
        init() {}
    }

    @Model final class Moose {
        var antlers: Bool = true
        init() {}
    }

    @Model final class Zebra {
        var stripes: Int = 0
        init() {}
    }
}
