/// Every key a model may have, declared once: the decoder reads each through an exhaustive
/// switch, and the documentation's model key table is generated from it (DSLKeyTests).
public enum ModelKey: String, CaseIterable, Sendable {
    case properties, unique, indexes, dedupe, renamedFrom, superclass, doc

    /// What the key means, in Markdown (the documentation's model key table).
    public var documentation: String {
        switch self {
        case .properties: return "mapping of property name → type spelling or property mapping (required)"
        case .unique: return "key-path groups: `[[remoteID], [name, startDate]]`; a bare name is a group of one"
        case .indexes: return "key-path groups, as for `unique` (needs the 18 floor)"
        case .dedupe:
            return "`{ keep: first | last, orderBy: property, nilKeys: distinct | equal }`: when uniqueness is added "
                + "over existing data, which duplicate survives (required then; SDG624). `orderBy` names a stored "
                + "attribute a sort can order (not `Bool`, `Data`, `URL`, an array, an enum or a relationship). "
                + "`nilKeys: distinct` (the default) keeps every object whose key holds nil, as a SQLite unique index "
                + "allows; `equal` keeps one of them. A `dedupe` the step into this version does not need is a "
                + "warning (SDG633): remove it"
        case .renamedFrom:
            return "the model's name in the previous version. SwiftData has no renaming identifier for a model, so "
                + "the plan copies it: a bridge holds both classes, the next stage copies every object and moves "
                + "every link to the copies, then drops the old class. Refused with the reason (SDG631) under "
                + "CloudKit, with inheritance, or when the same step adds uniqueness to it or changes one of its "
                + "relationships' destination or cardinality"
        case .superclass:
            return "another model of the same version (needs the 26 floor); the subclass gets `@available(… 26 …)` "
                + "and an init that calls `super.init`"
        case .doc: return "documentation comment for the class"
        }
    }
}

/// The keys of a model's `dedupe:` policy.
public enum DedupeKey: String, CaseIterable, Sendable {
    case keep, orderBy, nilKeys
}

/// The keys of an enum in a version file's `enums:`.
public enum EnumKey: String, CaseIterable, Sendable {
    case rawType, cases
}
