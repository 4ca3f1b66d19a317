import Foundation
import SwiftData

// An enum whose cases carry values: how SwiftData stores it is not shown by any hash or store, so
// the import stops at the case rather than write a history that might not read a device's store.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Reminder.self] }

    enum Repeat: Codable {
        case never
        case every(days: Int)
    }

    @Model final class Reminder {
        var title: String = ""
        var repeats: Repeat = Repeat.never
        init() {}
    }
}
