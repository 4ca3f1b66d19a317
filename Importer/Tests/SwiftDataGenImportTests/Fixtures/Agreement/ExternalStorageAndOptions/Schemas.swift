import Foundation
import SwiftData

// Attribute options in several spellings, and `preserveValueOnDeletion`.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Scan.self] }

    @Model final class Scan {
        @Attribute(.externalStorage) var image: Data?
        @Attribute(Schema.Attribute.Option.spotlight) var title: String = ""
        @Attribute(.preserveValueOnDeletion) var serial: String = ""
        @Attribute(.allowsCloudEncryption) var note: String?
        init() {}
    }
}
