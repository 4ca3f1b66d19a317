import Foundation
import SwiftData

// What a shipped iOS 18 app declares and Apple stores: a #Unique group holding a to-one
// relationship, a stored isDeleted, a dictionary of Codable values, an optional to-many that
// starts nil (and one that starts empty).

enum SocialSchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Identity.self, Profile.self] }

    struct Localization: Codable, Hashable {
        var title: String
        var body: String?
    }

    @Model
    final class Identity {
        var handle: String = ""
        @Relationship(inverse: \Profile.identity) var profiles: [Profile]?
        @Relationship(inverse: \Profile.owner) var owned: [Profile]? = []

        init() {}
    }

    @Model
    final class Profile {
        #Unique<Profile>([\.networkRaw, \.identity])

        var networkRaw: String = ""
        var identity: Identity?
        var owner: Identity?
        var isDeleted: Bool = false
        var localizations: [String: Localization]?

        init() {}
    }
}
