import Foundation
import SwiftData

// Two nested enums named Kind in different scopes: each property stores its own.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Pet.self, Toy.self] }

    @Model final class Pet {
        enum Kind: String, Codable { case cat, dog }
        var kind: Kind = Kind.cat
        init() {}
    }

    @Model final class Toy {
        enum Kind: Int, Codable { case ball = 1, rope = 2 }
        var kind: Kind = Kind.ball
        init() {}
    }
}
