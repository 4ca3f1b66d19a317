import Foundation
import SwiftData

// Initial values written as multi-line and raw string literals.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Letter.self] }

    @Model final class Letter {
        var greeting: String = """
            Dear friend,
            """
        var path: String = #"C:\letters"#
        init() {}
    }
}
