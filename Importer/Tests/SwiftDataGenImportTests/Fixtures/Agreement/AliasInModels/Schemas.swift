import Foundation
import SwiftData

// `models` names classes through typealiases, one in the version, one at module scope.
typealias CurrentBox = V1.BoxV1

enum V1: VersionedSchema {
    typealias Lid = LidV1
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [CurrentBox.self, Lid.self] }

    @Model final class BoxV1 {
        var size: Int = 0
        var lid: LidV1?
        init() {}
    }

    @Model final class LidV1 {
        var color: String = ""
        @Relationship(inverse: \BoxV1.lid) var box: BoxV1?
        init() {}
    }
}
