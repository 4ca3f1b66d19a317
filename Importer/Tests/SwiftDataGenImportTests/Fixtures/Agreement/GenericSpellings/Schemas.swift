import Foundation
import SwiftData

// Optional<T> and Array<T> spelled out.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Run.self] }

    @Model final class Run {
        var started: Optional<Date> = nil
        var laps: Array<Double> = []
        var names: Swift.Array<Swift.String> = []
        var distance: Swift.Double = 0
        init() {}
    }
}
