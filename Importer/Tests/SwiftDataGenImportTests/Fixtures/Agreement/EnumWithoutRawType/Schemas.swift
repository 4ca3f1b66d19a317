import Foundation
import SwiftData

// An enum without a raw type, cases only, stored as a Codable value; a case added in the next
// version. Imported as `rawType: none`: the generated enum has the same cases and no raw values.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Entry.self] }

    enum Mood: Codable { case calm, busy }

    @Model final class Entry {
        var mood: Mood = Mood.calm
        var lastMood: Mood?
        init() {}
    }
}

enum V2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Entry.self] }

    enum Mood: Codable { case calm, busy, away }

    @Model final class Entry {
        var mood: Mood = Mood.calm
        var lastMood: Mood?
        var note: String?
        init() {}
    }
}
