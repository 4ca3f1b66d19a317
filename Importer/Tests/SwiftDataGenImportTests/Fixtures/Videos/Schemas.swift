import Foundation
import SwiftData

// Every store shape of an app that shipped before adopting the generator: SchemaV1/SchemaV2
// names (SchemaV2 is version 1.5.0), enums stored as themselves, a private stored name with a
// leading underscore behind a typed accessor, TimeInterval and CGFloat, a MigrationPlan.
enum SchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Video.self, Channel.self] }

    @Model
    final class Video {
        enum Status: String, Codable, CaseIterable {
            case queued, watching, watched
        }

        var title: String
        var status: Status = Status.queued
        var quality: Quality?
        private var _videoPlacement: Int?
        var watchedFor: TimeInterval = 0
        var aspectRatio: CGFloat?
        var size: Dimensions?
        var channel: Channel?

        var placement: Placement? {
            get { _videoPlacement.flatMap(Placement.init(rawValue:)) }
            set { _videoPlacement = newValue?.rawValue }
        }

        init(title: String) {
            self.title = title
        }
    }

    @Model
    final class Channel {
        @Attribute(.unique) var handle: String
        @Relationship(deleteRule: .cascade, inverse: \Video.channel) var videos: [Video] = []

        init(handle: String) {
            self.handle = handle
        }
    }
}

enum SchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 5, 0) }
    static var models: [any PersistentModel.Type] { [Video.self, Channel.self] }

    @Model
    final class Video {
        enum Status: String, Codable, CaseIterable {
            case queued, watching, watched, skipped
        }

        struct Chapter: Codable, Hashable {
            var title: String
            var start: TimeInterval
        }

        var title: String
        var status: Status = Status.queued
        var quality: Quality?
        private var _videoPlacement: Int?
        var watchedFor: TimeInterval = 0
        var aspectRatio: CGFloat?
        var size: Dimensions?
        var chapters: [Chapter] = []
        var addedAt: Date = Date.now
        var channel: Channel?

        init(title: String) {
            self.title = title
        }
    }

    @Model
    final class Channel {
        @Attribute(.unique, originalName: "handle") var slug: String
        var displayName: String = ""
        @Relationship(deleteRule: .cascade, inverse: \Video.channel) var videos: [Video] = []

        init(slug: String) {
            self.slug = slug
        }
    }
}

struct Dimensions: Codable, Hashable {
    var width: Double
    var height: Double
}

enum Quality: String, Codable {
    case sd, hd
}

enum Placement: Int, Codable {
    case inline = 0, pictureInPicture = 1
}

enum MigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
}
