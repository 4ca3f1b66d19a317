import Foundation
import SwiftData

// Property types reached through chains of typealiases, at module scope and in the version.
typealias Label = Text
typealias Text = String

enum V1: VersionedSchema {
    typealias Amount = Count
    typealias Count = Int
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Jar.self] }

    @Model final class Jar {
        var label: Label = ""
        var amount: Amount = 0
        var optionalAmount: Amount?
        init() {}
    }
}
