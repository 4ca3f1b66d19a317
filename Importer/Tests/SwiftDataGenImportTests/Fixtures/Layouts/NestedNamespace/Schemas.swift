import Foundation
import SwiftData

// Versions declared directly inside a namespace enum, and a shared enum and Codable struct kept
// in a second namespace (a struct) that both versions store.

enum Schemas {
    enum V1: VersionedSchema {
        static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
        static var models: [any PersistentModel.Type] { [Trip.self] }

        @Model
        final class Trip {
            var name: String = ""
            var kind: Shared.Kind = Shared.Kind.leisure
            var origin: Shared.Place?

            init() {}
        }
    }

    enum V2: VersionedSchema {
        static var versionIdentifier: Schema.Version { Schema.Version(1, 1, 0) }
        static var models: [any PersistentModel.Type] { [Trip.self, Stop.self] }

        @Model
        final class Trip {
            var name: String = ""
            var kind: Shared.Kind = Shared.Kind.leisure
            var origin: Shared.Place?
            @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []

            init() {}
        }

        @Model
        final class Stop {
            var title: String = ""
            var trip: Trip?

            init() {}
        }
    }
}

struct Shared {
    enum Kind: String, Codable {
        case leisure, business
    }

    struct Place: Codable {
        var latitude: Double
        var longitude: Double
    }
}
