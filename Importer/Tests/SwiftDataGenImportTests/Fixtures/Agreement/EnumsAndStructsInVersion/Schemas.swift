import Foundation
import SwiftData

// Raw-value enums of both kinds and a Codable struct holding one, stored by a model.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Ticket.self] }

    enum Priority: Int, Codable { case low = 0, high = 10 }
    enum Area: String, Codable { case front = "f", back = "b" }
    struct Place: Codable {
        var area: Area
        var row: Int
    }

    @Model final class Ticket {
        var priority: Priority = Priority.low
        var place: Place?
        init() {}
    }
}
