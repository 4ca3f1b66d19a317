import Foundation
import SwiftData

// Access modifiers, `private(set)`, `@Transient`, computed properties.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Account.self] }

    @Model final class Account {
        private(set) var balance: Int = 0
        fileprivate var secret: String = ""
        @Transient var cache: Int = 0
        var display: String { "\(balance)" }
        init() {}
    }
}
