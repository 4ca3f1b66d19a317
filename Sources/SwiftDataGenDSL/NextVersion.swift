/// What `new-version` does with a key when it writes the next version file from the latest: a key
/// that describes only the step into its own version is left out, since copied forward it would
/// describe the next step wrongly (a `renamedFrom` or `from` already applied is SDG614, a `dedupe`
/// with nothing to de-duplicate SDG633); the version number becomes the new one; the rest is
/// copied as written, comments included.
public enum NextVersionCopy: Sendable, Equatable {
    case copied
    case leftOut
    case renumbered
}

extension PropertyKey {
    public var nextVersion: NextVersionCopy {
        switch self {
        case .renamedFrom, .from: return .leftOut
        case .type, .default, .expression, .transient, .unique, .externalStorage, .spotlight,
            .preserveValueOnDeletion, .allowsCloudEncryption, .ephemeral, .codable, .transformable, .deleteRule,
            .inverse,
            .minCount, .maxCount, .hashModifier, .storedName, .enumStorage, .access, .doc:
            return .copied
        }
    }
}

extension ModelKey {
    public var nextVersion: NextVersionCopy {
        switch self {
        case .dedupe, .renamedFrom: return .leftOut
        case .properties, .unique, .indexes, .superclass, .doc: return .copied
        }
    }
}

extension VersionKey {
    public var nextVersion: NextVersionCopy {
        switch self {
        case .version: return .renumbered
        // A type name belongs to one version: the next one's is derived from its number.
        case .typeName, .acknowledgedRemovals, .customMigration, .carriedFrom: return .leftOut
        case .schema, .enums, .structs, .models: return .copied
        }
    }
}
