import Foundation
import SwiftData

// A case whose value is a dictionary: the DSL writes a case's values as it writes a struct's fields
// (value types, enums, structs of the version), so the import stops at the value instead of
// dropping it, which would change what the store holds.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Tally.self] }

    enum Count: Codable {
        case none
        case byName([String: Int])
    }

    @Model final class Tally {
        var count: Count = Count.none
        init() {}
    }
}
