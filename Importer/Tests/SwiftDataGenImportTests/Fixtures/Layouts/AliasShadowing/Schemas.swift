import Foundation
import SwiftData

// A module-scope alias for the current version's model, and a nested alias of the same name in
// the older version: inside `V1`, `PinEntity` is `V1.PinEntity` (the nested one), whatever the
// module-scope alias says.

typealias PinEntity = V2.Pin
typealias BoardEntity = V2.Board

enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Board.self, PinEntity.self] }

    typealias PinEntity = Pin

    @Model
    final class Board {
        var title: String = ""
        @Relationship(deleteRule: .cascade, inverse: \PinEntity.board) var pins: [PinEntity] = []

        init() {}
    }

    @Model
    final class Pin {
        var label: String = ""
        var board: Board?

        init() {}
    }
}

enum V2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Board.self, Pin.self] }

    @Model
    final class Board {
        var title: String = ""
        @Relationship(deleteRule: .cascade, inverse: \Pin.board) var pins: [Pin] = []

        init() {}
    }

    @Model
    final class Pin {
        var label: String = ""
        var color: String?
        var board: Board?

        init() {}
    }
}

typealias CurrentSchema = V2
