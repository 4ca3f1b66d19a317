import Foundation
import SwiftData

extension Schemas {
    enum V3: VersionedSchema {
        static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
        static var models: [any PersistentModel.Type] { [Schemas.V3.Document.self, Schemas.V3.Page.self] }

        @Model
        final class Document {
            var title: String = ""
            var createdAt: Date = Date.distantPast
            @Relationship(deleteRule: .cascade, inverse: \NamespaceExtension.Schemas.V3.Page.document)
            var pages: [Page] = []

            init() {}
        }

        @Model
        final class Page {
            var number: Int = 0
            @Attribute(originalName: "text") var body: String?
            var document: Document?

            init() {}
        }
    }
}

enum NotebookMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [Schemas.V1.self, Schemas.V2.self, Schemas.V3.self] }
    static var stages: [MigrationStage] { [] }
}
