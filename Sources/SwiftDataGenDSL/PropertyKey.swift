/// Every key a property may have, declared once. Each stage decides what a key means through an
/// exhaustive switch on it, so a new key does not compile until decoding, where it may stand, store
/// identity, its documentation and the importer (which shares this module) have each said;
/// README's key table and the JSON Schema are held to this list by tests (DSLKeyTests).
public enum PropertyKey: String, CaseIterable, Sendable {
    case type, `default`, expression, renamedFrom, transient, unique
    case externalStorage, spotlight, preserveValueOnDeletion, allowsCloudEncryption, ephemeral
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
            .allowsCloudEncryption, .ephemeral, .transformable:
            return .attribute
        case .deleteRule, .inverse, .minCount, .maxCount: return .relationship
        }
    }

    /// How far a key reaches into a user's store; DSLKeyTests holds each key to its answer by
    /// writing it and comparing the version checksum, the lock's stored shape and the plan.
    public enum StoreEffect: Sendable {
        /// Can change the version checksum SwiftData identifies a store by (evidence, "What is and
        /// is not in the version checksum").
        case checksum
        /// Outside the checksum, but decides how stored data is read, so the lock freezes it.
        case lock
        /// Says how data moves from the previous version; no one version's store changes.
        case migration
        /// Changes the generated code only.
        case code
    }

    public var storeEffect: StoreEffect {
        switch self {
        case .type, .transient, .unique, .externalStorage, .preserveValueOnDeletion, .hashModifier, .storedName,
            .enumStorage, .minCount, .maxCount:
            return .checksum
        case .renamedFrom, .spotlight, .allowsCloudEncryption, .ephemeral, .transformable, .deleteRule, .inverse:
            return .lock
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
        case .unique, .externalStorage, .spotlight, .preserveValueOnDeletion, .allowsCloudEncryption, .ephemeral:
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
        case .unique, .externalStorage, .spotlight, .preserveValueOnDeletion, .allowsCloudEncryption, .ephemeral:
            return rawValue
        case .type, .default, .expression, .renamedFrom, .transient, .transformable, .deleteRule, .inverse, .minCount,
            .maxCount, .from, .hashModifier, .storedName, .enumStorage, .access, .doc:
            return nil
        }
    }

    /// One line for editors (the JSON Schema's description) and people.
    public var summary: String {
        switch self {
        case .type: return "The type: a value type, an enum, a struct or a model, as Name, Name?, [Name] or [Name]?."
        case .default: return "A literal initial value of the property's type, escaped by the generator."
        case .expression: return "Raw Swift for the initial value, inserted exactly as written."
        case .renamedFrom: return "The name in the previous version; kept as originalName in every later version."
        case .transient: return "true: @Transient, not stored; needs a default or an optional type."
        case .unique: return "true: single-property uniqueness."
        case .externalStorage: return "true: stored outside the database (Data only)."
        case .spotlight: return "true: indexed by Spotlight."
        case .preserveValueOnDeletion: return "true: kept in the history after the object is deleted."
        case .allowsCloudEncryption: return "true: encrypted in CloudKit."
        case .ephemeral: return "true: tracked for changes but not saved."
        case .transformable: return "The name of a registered ValueTransformer."
        case .deleteRule: return "Relationships: cascade, nullify (default), deny or noAction."
        case .inverse:
            return "Relationships: the related model's property that points back, or false for one-way on purpose."
        case .minCount: return "To-many relationships: minimumModelCount."
        case .maxCount: return "To-many relationships: maximumModelCount."
        case .from:
            return "Where the value comes from in the previous version: a conversion or a text-to-relationship link."
        case .hashModifier: return "Text mixed into the property's version hash."
        case .storedName: return "The name the value is stored under when it is not the property's own."
        case .enumStorage: return "Enum properties: rawValue (default) or value (the enum stored as itself)."
        case .access: return "The stored declaration's access level where it is not the config's."
        case .doc: return "A documentation comment for the property."
        }
    }
}
