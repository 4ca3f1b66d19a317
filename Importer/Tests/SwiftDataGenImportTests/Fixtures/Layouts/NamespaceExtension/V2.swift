import Foundation
import SwiftData

extension Schemas {
    enum V2: VersionedSchema {
        static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
        static var models: [any PersistentModel.Type] { [Document.self, Page.self] }

        @Model
        final class Document {
            var title: String = ""
            var createdAt: Date = Date.distantPast
            @Relationship(deleteRule: .cascade, inverse: \Schemas.V2.Page.document)
            var pages: [Page] = []

            init() {}
        }

        @Model
        final class Page {
            var number: Int = 0
            var text: String?
            var document: Document?

            init() {}
        }
    }
}
