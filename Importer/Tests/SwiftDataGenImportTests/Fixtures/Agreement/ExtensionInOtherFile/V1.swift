import Foundation
import SwiftData

// The version lists a model an extension of it declares in another file.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Habit.self, Log.self] }
}
