import Foundation
import SwiftData

// Shapes real apps' model files have (Fixtures/Corpus in the main package): a schema that is a
// struct, a version written `.init(…)`, models in namespaces of their own, a later schema that
// reaches an earlier one's class through a module alias, value-type aliases, structs holding
// structs and keyword-named fields, a Codable type no model stores, two schemas with one number.

typealias Code = String
typealias Note = PatternsSchemaV1.Note

struct PatternsSchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version = .init(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self, ShelfV1.Shelf.self] }

    @Model
    final class Note {
        var code: Code = ""
        var box: Box? = nil
        var corners: [Point] = []

        init() {}
    }
}

enum ShelfV1 {
    @Model
    final class Shelf {
        var name: String = ""
        var notes: [PatternsSchemaV1.Note] = Array<PatternsSchemaV1.Note>()

        init() {}
    }
}

struct Box: Codable {
    var origin: Point
    var `private`: Bool
}

struct Point: Codable {
    var x: Double
    var y: Double
}

struct Payload: Codable {
    var counts: [String: Int]
}

enum PatternsSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Note.self] }
}
