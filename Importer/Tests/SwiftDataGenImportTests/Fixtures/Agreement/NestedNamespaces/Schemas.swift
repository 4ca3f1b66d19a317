import Foundation
import SwiftData

// Versions two namespaces deep.
enum App {
    enum Store {
        enum V1: VersionedSchema {
            static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
            static var models: [any PersistentModel.Type] { [Card.self] }

            @Model final class Card {
                var front: String = ""
                init() {}
            }
        }

        enum V2: VersionedSchema {
            static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
            static var models: [any PersistentModel.Type] { [App.Store.V2.Card.self] }

            @Model final class Card {
                var front: String = ""
                var back: String = ""
                init() {}
            }
        }
    }
}
