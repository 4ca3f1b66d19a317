import Foundation
import SwiftData

// Two different nested enums named Kind in one version: a version of the YAML holds one type per
// name, so the import stops at the second and asks to rename one (a type name is not stored).
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
