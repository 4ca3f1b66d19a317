import Foundation
import SwiftData

// A class and properties written with backticks around ordinary names.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [`Entry`.self] }

    @Model final class `Entry` {
        var `title`: String = ""
        var `count`: Int = 0
        init() {}
    }
}
