import Foundation
import SwiftData

// Stored static properties (Swift 5 mode) for the number and the list.
enum V1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static let models: [any PersistentModel.Type] = [Plant.self]

    @Model final class Plant {
        var species: String = ""
        var watered: Date?
        init() {}
    }
}
