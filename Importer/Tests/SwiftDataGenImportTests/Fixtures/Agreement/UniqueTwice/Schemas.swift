import Foundation
import SwiftData

// A property unique twice, by `@Attribute(.unique)` and by `#Unique`, as apps ship it: carried as
// written, so the generated class declares both.
@available(iOS 18, macOS 15, *)
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Badge.self] }

    @Model final class Badge {
        #Unique<Badge>([\.code])
        @Attribute(.unique) var code: String = ""
        var label: String = ""
        init() {}
    }
}
