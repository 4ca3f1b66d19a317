import Foundation
import SwiftData

// Delete rules spelled with the type's name, and inverse key paths through the version.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Folder.self, File.self] }

    @Model final class Folder {
        var name: String = ""
        @Relationship(deleteRule: Schema.Relationship.DeleteRule.cascade, inverse: \V1.File.folder)
        var files: [File] = []
        init() {}
    }

    @Model final class File {
        var name: String = ""
        @Relationship(deleteRule: .noAction) var folder: Folder?
        init() {}
    }
}
