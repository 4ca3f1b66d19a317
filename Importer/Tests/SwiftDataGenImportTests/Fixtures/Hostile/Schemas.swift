import SwiftData

// What the importer must not take lightly (written here): a version too large to follow, radix
// literals, a model inside `#if`, a macro that may add members, and a class declared twice.

enum HostileSchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(9223372036854775807, 0, 0) }
    static var models: [any PersistentModel.Type] { [Gadget.self] }

    @Model
    final class Gadget {
        var flags: Int = 0xFF
        init() {}
    }
}

enum HostileSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { currentVersion }
    static var models: [any PersistentModel.Type] { [Gadget.self, Widget.self] }

    @Model
    final class Gadget {
        var flags: Int = 0b101
        var mode: Int = 0o17
        init() {}
    }

    #if os(iOS)
        @Model
        final class Widget {
            var name: String = ""
            init() {}
        }
    #else
        @Model
        final class Widget {
            var title: String = ""
            init() {}
        }
    #endif
}

let currentVersion = Schema.Version(2, 0, 0)
