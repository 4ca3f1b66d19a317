import Foundation
import SwiftData

extension Schemas {
    enum V1: VersionedSchema {
        static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
        static var models: [any PersistentModel.Type] { [Document.self, Page.self] }

        @Model
        final class Document {
            var title: String = ""
            @Relationship(deleteRule: .cascade, inverse: \Schemas.V1.Page.document)
            var pages: [Page] = []

            init() {}
        }

        @Model
        final class Page {
            var number: Int = 0
            var document: Document?

            init() {}
        }
    }
}
