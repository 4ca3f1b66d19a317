/// `access:` on a property: its stored declaration's access, when not the config's.
public enum PropertyAccess: String, CaseIterable, Sendable {
    case `private`, `fileprivate`, `internal`, `package`, `public`
}

/// `deleteRule:` on a relationship.
public enum DeleteRule: String, CaseIterable, Sendable {
    case cascade, nullify, deny, noAction
}

/// How a property of enum type is stored (`enumStorage:`).
public enum EnumStorage: String, CaseIterable, Sendable {
    /// The raw value in a stored property of its own (`statusRawValue`), with a typed accessor:
    /// the one that works in `#Predicate`.
    case rawValue
    /// The enum itself (`var status: Status`), as most apps declare it.
    case value
}

extension PropertyKey {
    /// How a key's value is written. The decoder reads each kind one way and the JSON Schema
    /// describes it, so a key of an existing kind needs neither a decoding case nor a schema entry.
    public enum Value: Sendable, Equatable {
        /// `Name`, `Name?`, `[Name]` or `[Name]?`.
        case typeSpelling
        /// A YAML literal, read once the property's type is known.
        case literal
        /// Swift source, inserted as written.
        case swiftCode
        /// Any text.
        case text
        /// Text that may not be empty; an empty one is refused with "write <purpose>".
        case nonEmptyText(purpose: String)
        /// A name that becomes a Swift identifier; `called` names it in errors.
        case identifier(called: String)
        /// `true` or `false`.
        case flag
        /// `true` or `false`: the `Schema.Attribute.Option` of the key's name, which takes no
        /// argument. Such keys are carried, rendered, diffed and frozen as a set, each reaching the
        /// version checksum as its `storeEffect` says.
        case option
        /// A whole number from 0 to `Int32.max`.
        case count
        /// One of `options`; `called` names it in errors.
        case choice(options: [String], called: String)
        /// `{ property:, convert: | match: }`.
        case conversion
        /// A property name, or `false`.
        case inverse
    }
}

/// The keys of a property's `from:` (`PropertyKey.Value.conversion`).
public enum ConversionKey: String, CaseIterable, Sendable {
    case property, convert, match

    /// One line for editors (the JSON Schema's description).
    public var documentation: String {
        switch self {
        case .property: return "The property of the previous version the value comes from."
        case .convert: return "Swift expression over $0, the old value."
        case .match:
            return
                "For text turned into a to-one relationship: the related model's String property that holds the text."
        }
    }
}
