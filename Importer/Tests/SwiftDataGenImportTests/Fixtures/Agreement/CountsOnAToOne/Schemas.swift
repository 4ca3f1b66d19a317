import Foundation
import SwiftData

// Model counts written on a to-one, as apps ship them: carried as written.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Card.self, Deck.self] }

    @Model final class Card {
        var title: String = ""
        @Relationship(minimumModelCount: 1, maximumModelCount: 1, inverse: \Deck.cards) var deck: Deck?
        init() {}
    }

    @Model final class Deck {
        var name: String = ""
        var cards: [Card] = []
        init() {}
    }
}
