/// Every key a property may have, declared once. Each stage decides what a key means through an
/// exhaustive switch on it, so a new key does not compile until decoding, where it may stand, store
/// identity, its documentation and the importer (which shares this module) have each said.
/// the documentation's key table and the JSON Schema's property keys are generated from it (DSLKeyTests).
public enum PropertyKey: String, CaseIterable, Sendable {
    case type, `default`, expression, renamedFrom, transient, unique
    case externalStorage, spotlight, preserveValueOnDeletion, allowsCloudEncryption, ephemeral, codable
    case transformable, deleteRule, inverse, minCount, maxCount, from, hashModifier, storedName
    case enumStorage, access, doc

    /// What kind of property may carry the key.
    public enum Position: Sendable {
        case attribute, relationship, any
    }

    public var position: Position {
        switch self {
        // storedName and enumStorage are attributes' too, each refused elsewhere with its own reason.
        case .type, .renamedFrom, .from, .hashModifier, .access, .doc, .storedName, .enumStorage: return .any
        case .default, .expression, .transient, .unique, .externalStorage, .spotlight, .preserveValueOnDeletion,
            .allowsCloudEncryption, .ephemeral, .codable, .transformable:
            return .attribute
        case .deleteRule, .inverse, .minCount, .maxCount: return .relationship
        }
    }

    /// How far a key reaches into a user's store; DSLKeyTests holds each key to its answer by
    /// writing it and comparing the version checksum, the lock's stored shape and the plan.
    public enum StoreEffect: Sendable {
        /// Can change the version checksum SwiftData identifies a store by (docs/store-evidence.md,
        /// "What the checksum holds").
        case checksum
        /// Outside the checksum, but decides how stored data is read, so the lock freezes it.
        case lock
        /// Says how data moves from the previous version; no one version's store changes.
        case migration
        /// Changes the generated code only.
        case code
    }

    /// Whether Core Data puts the key in a version hash (docs/version-hash-recipe.md): decide a new
    /// one from evidence. `StoreIdentity` builds the hashed model; a test holds the two in step.
    public var storeEffect: StoreEffect {
        switch self {
        case .type, .transient, .unique, .hashModifier, .storedName, .enumStorage, .minCount, .maxCount:
            return .checksum
        // Options in the hash, measured (docs/store-evidence.md, "What the checksum holds"); a
        // transformer makes the attribute Transformable; an inverse's name is in both ends' hashes.
        case .externalStorage, .preserveValueOnDeletion, .transformable, .inverse: return .checksum
        // Stores the value as its encoded form instead of a composite of its fields: a different
        // stored type, whose hash no store proves yet (StorageRow.codable).
        case .codable: return .checksum
        // Options not in the hash, measured (docs/store-evidence.md, "What the checksum holds");
        // ephemeral without evidence either way, left out.
        case .spotlight, .allowsCloudEncryption, .ephemeral: return .lock
        case .renamedFrom, .deleteRule: return .lock
        case .from: return .migration
        case .default, .expression, .access, .doc: return .code
        }
    }

    /// What in an app's Swift the importer reads the key from; nil where Swift has no spelling of
    /// it (the key says how a store changes between versions, not what one version is).
    public var importedFrom: String? {
        switch self {
        case .type: return "the property's type"
        case .default: return "a literal initial value"
        case .expression: return "any other initial value"
        case .renamedFrom: return "@Attribute(originalName:)"
        case .transient: return "@Transient"
        case .unique, .externalStorage, .spotlight, .preserveValueOnDeletion, .allowsCloudEncryption, .ephemeral,
            .codable:
            return "@Attribute(.\(attributeOption ?? rawValue))"
        case .transformable: return "@Attribute(.transformable(by:))"
        case .deleteRule: return "@Relationship(deleteRule:)"
        case .inverse: return "@Relationship(inverse:)"
        case .minCount: return "@Relationship(minimumModelCount:)"
        case .maxCount: return "@Relationship(maximumModelCount:)"
        case .hashModifier: return "@Attribute(hashModifier:) or @Relationship(hashModifier:)"
        case .enumStorage: return "an enum stored as itself"
        case .access: return "the declaration's access modifier"
        case .doc: return "a /// comment"
        case .from, .storedName: return nil
        }
    }

    /// The `@Attribute` option that spells the key in Swift (`.unique`), for keys that are one.
    public var attributeOption: String? {
        switch self {
        case .unique, .externalStorage, .spotlight, .preserveValueOnDeletion, .allowsCloudEncryption, .ephemeral,
            .codable:
            return rawValue
        case .type, .default, .expression, .renamedFrom, .transient, .transformable, .deleteRule, .inverse, .minCount,
            .maxCount, .from, .hashModifier, .storedName, .enumStorage, .access, .doc:
            return nil
        }
    }

    private static let deleteRules = DeleteRule.allCases.map(\.rawValue)
    private static let enumStorages = EnumStorage.allCases.map(\.rawValue)
    private static let accessLevels = PropertyAccess.allCases.map(\.rawValue)

    /// How the value is written; see `Value`.
    public var value: Value {
        switch self {
        case .type: return .typeSpelling
        case .default: return .literal
        case .expression: return .swiftCode
        case .doc: return .text
        case .renamedFrom, .storedName: return .identifier(called: rawValue)
        case .transformable: return .identifier(called: "transformable (a ValueTransformer name)")
        case .transient, .unique: return .flag
        case .externalStorage, .spotlight, .preserveValueOnDeletion, .allowsCloudEncryption, .ephemeral, .codable:
            return .option
        case .minCount, .maxCount: return .count
        case .deleteRule: return .choice(options: Self.deleteRules, called: "delete rule")
        case .enumStorage: return .choice(options: Self.enumStorages, called: rawValue)
        case .access: return .choice(options: Self.accessLevels, called: "access level")
        case .hashModifier:
            return .nonEmptyText(purpose: "the text SwiftData should mix into this property's version hash, such as v3")
        case .from: return .conversion
        case .inverse: return .inverse
        }
    }

    /// A property's type and the key's value on it, for the documentation's table; the tests write the key
    /// with this value on a property of this type (in a new model, whose `Item` has `news` to it).
    public var example: (type: String, value: String) {
        switch self {
        case .type: return ("String?", "String?")
        case .default: return ("Int", "3")
        case .expression: return ("Date", "\"Date.now\"")
        case .renamedFrom: return ("String", "title")
        case .transient: return ("Int?", "true")
        case .unique, .spotlight: return ("String?", "true")
        case .externalStorage, .preserveValueOnDeletion, .allowsCloudEncryption, .ephemeral: return ("Data?", "true")
        case .codable: return ("Spot?", "true")
        case .transformable: return ("Data?", "Reverser")
        case .deleteRule: return ("\"[Item]\"", "cascade")
        case .inverse: return ("Item?", "news")
        case .minCount: return ("\"[Item]\"", "1")
        case .maxCount: return ("\"[Item]\"", "9")
        case .from: return ("Int", "{ property: size }")
        case .hashModifier: return ("Int?", "v2")
        case .storedName: return ("Int?", "_count")
        case .enumStorage: return ("Kind?", "value")
        case .access: return ("Int?", "private")
        case .doc: return ("Int?", "\"Why it is kept.\"")
        }
    }

    /// What the key means, in Markdown: the documentation's property key table and, without the backticks,
    /// the JSON Schema's description are made from it.
    public var documentation: String {
        switch self {
        case .type:
            return "`String`, `Bool`, `Int`, `Int8`…`Int64`, `UInt`, `UInt8`…`UInt64`, `Double`, `Float`, `Decimal`, "
                + "`Date`, `Data`, `UUID`, `URL`, an enum, a struct or a model; as `Name`, `Name?`, `[Name]` or "
                + "`[Name]?`, and a dictionary of a struct as `[String: Name]` or `[String: Name]?` (stored as one "
                + "Binary attribute). Quote array types: `\"[Stop]\"`. A model type makes a relationship"
        case .default:
            return "a literal of the property's type, escaped by the generator: text, a number, `true`/`false`, "
                + "`null` (optional only), an enum case name, an ISO 8601 date (`2024-01-31T00:00:00Z`), a UUID or "
                + "URL string, a list for arrays. On a relationship only `null`, on an optional to-many: it starts "
                + "nil instead of `[]`"
        case .expression:
            return "raw Swift for the initial value, inserted **exactly as written**: the only verbatim Swift in the "
                + "DSL; for an enum, name the type (`TripStatus.done`)"
        case .renamedFrom:
            return "the name in the previous version; emitted as `originalName:` and kept in every later version, "
                + "resolved through rename chains to the name first stored"
        case .transient: return "`true`: `@Transient`, not stored; needs a default or an optional type"
        case .unique: return "`true`: single-property uniqueness"
        case .externalStorage: return "`true`: `.externalStorage`, the value is kept outside the database (`Data` only)"
        case .spotlight: return "`true`: `.spotlight`, indexed by Spotlight"
        case .preserveValueOnDeletion:
            return "`true`: `.preserveValueOnDeletion`, kept in the persistent history after the object is deleted"
        case .allowsCloudEncryption: return "`true`: `.allowsCloudEncryption`, encrypted in CloudKit"
        case .ephemeral: return "`true`: `.ephemeral`, tracked for changes but not saved"
        case .codable:
            return "`true`: `.codable` (iOS 27, macOS 27 and later), a struct stored as its `Codable` encoding instead "
                + "of a column per field: it cannot be sorted, filtered, indexed or unique, and a change to the "
                + "struct's fields is no migration, so old encodings must still decode"
        case .transformable: return "name of a registered `ValueTransformer`: `.transformable(by: \"Name\")`"
        case .deleteRule: return "relationships: `cascade`, `nullify` (default), `deny`, `noAction`"
        case .inverse:
            return "relationships: the property of the related model that points back. Write it on either side (or "
                + "both, if they agree); the generator emits `@Relationship(inverse:)` on one side only. "
                + "`inverse: false` says the relationship is one-way on purpose and quiets the missing-inverse "
                + "warning (SDG206), unless SwiftData pairs it all the same with the one relationship that points "
                + "back (both plain, every to-one end optional: <doc:StoreIdentity>)"
        case .minCount: return "relationships: `minimumModelCount` (on a to-one, carried as written)"
        case .maxCount: return "relationships: `maximumModelCount` (on a to-one, only 1)"
        case .from:
            return "where the value comes from in the previous version: `{ property: oldName, convert: \"Swift over "
                + "$0\" }` for a conversion (the same name converts in place), or `{ property: authorName, match: name "
                + "}` to turn text into a to-one relationship (one related object per distinct text, matched on its "
                + "`name`)"
        case .hashModifier:
            return "text mixed into the property's version hash (`@Attribute(hashModifier:)` or "
                + "`@Relationship(hashModifier:)`). The generator adds one by itself where needed (see "
                + "<doc:StoreIdentity>); write it only to reproduce an app's existing schema"
        case .storedName:
            return "the name the class stores the value under when it is not the property's (`_videoPlacement`; a "
                + "leading `_` is fine); the property becomes a typed accessor over it. Changing it in a later "
                + "version moves the data (`originalName`). Attributes only"
        case .enumStorage:
            return "enum properties: `rawValue` (default) stores `<name>RawValue` behind a typed accessor, which "
                + "`#Predicate` can filter on; `value` stores the enum itself (`var status: Status`), as most apps "
                + "declare it. Switching between the two copies the values through a bridge: write "
                + "`from: { property: <name> }`"
        case .access:
            return "`private`, `fileprivate`, `internal`, `package` or `public`: the stored declaration's access where "
                + "it is not the config's (`private var _videoPlacement`); a typed accessor over it keeps the config's"
        case .doc: return "a documentation comment for the property"
        }
    }
}
