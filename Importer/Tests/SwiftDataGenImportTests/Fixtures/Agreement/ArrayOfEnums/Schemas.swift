import Foundation
import SwiftData

// An array of enums, which the DSL does not store: the import stops at the property.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Ticket.self] }

    enum Area: String, Codable { case front, back }

    @Model final class Ticket {
        var areas: [Area] = []
        init() {}
    }
}
