import Foundation
import SwiftData

// A model class nested inside another model class.
enum V1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Parent.self, Parent.Child.self] }

    @Model final class Parent {
        var name: String = ""
        var children: [Child] = []
        init() {}

        @Model final class Child {
            var age: Int = 0
            @Relationship(inverse: \Parent.children) var parent: Parent?
            init() {}
        }
    }
}
