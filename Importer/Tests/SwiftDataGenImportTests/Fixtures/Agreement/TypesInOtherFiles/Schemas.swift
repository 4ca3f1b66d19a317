import Foundation
import SwiftData

// The enum and struct a model stores are declared in other files, in extensions of the version.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Order.self] }

    @Model final class Order {
        var status: Status = Status.open
        var address: Address?
        init() {}
    }
}
