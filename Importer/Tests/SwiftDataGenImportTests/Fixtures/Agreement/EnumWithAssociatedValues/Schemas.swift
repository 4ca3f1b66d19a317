import Foundation
import SwiftData

// Enums whose cases carry values, in the forms Swift allows: labeled, unlabeled, a wildcard label,
// mixed, optional and array values, a struct and another such enum as a value, a default on a value
// (not stored). SwiftData keeps them through Codable; the history must store the same values.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Reminder.self] }

    struct Place: Codable {
        var name: String
        var radius: Double?
    }

    enum Snooze: Codable {
        case off
        case minutes(Int)
    }

    enum Repeat: Codable {
        case never
        case every(days: Int)
        case on(Date), at(_ place: Place)
        case between(Date, until: Date?)
        case weekdays([Int], snooze: Snooze = .off)
    }

    @Model final class Reminder {
        var title: String = ""
        var repeats: Repeat = Repeat.never
        var lastRepeat: Repeat?
        init() {}
    }
}
