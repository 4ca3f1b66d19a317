import Foundation
import SwiftData

// A unique attribute and #Unique and #Index groups with key paths in several spellings.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Member.self] }

    @Model final class Member {
        #Unique<Member>([\.email], [\Member.first, \V1.Member.last])
        #Index<Member>([\.last], [\.first, \.last])
        @Attribute(.unique) var code: String = ""
        var email: String = ""
        var first: String = ""
        var last: String = ""
        init() {}
    }
}
