import SwiftDataGenDSL

/// One difference between consecutive versions, as a reviewer would name it.
public enum SchemaChange: Sendable, Equatable {
    case modelAdded(String)
    case modelRemoved(String)
    case modelRenamed(from: String, to: String)
    case superclassChanged(model: String, from: String?, to: String?)
    case propertyAdded(model: String, property: String)
    case propertyRemoved(model: String, property: String)
    case propertyRenamed(model: String, from: String, to: String)
    /// Another Swift property in front of the same stored column (a typed accessor adopting a
    /// raw column): the store does not change.
    case columnAdopted(model: String, from: String, to: String, column: String)
    /// The same property kept under another stored name (`storedName:`); its data moves with it.
    case storedNameChanged(model: String, property: String, from: String, to: String)
    case typeChanged(model: String, property: String, from: String, to: String)
    case optionalityChanged(model: String, property: String, nowOptional: Bool)
    case defaultChanged(model: String, property: String)
    case uniquenessAdded(model: String, properties: [String])
    case uniquenessRemoved(model: String, properties: [String])
    case indexAdded(model: String, properties: [String])
    case indexRemoved(model: String, properties: [String])
    case inverseChanged(model: String, property: String, from: String?, to: String?)
    case deleteRuleChanged(model: String, property: String, from: DeleteRule, to: DeleteRule)
    case cardinalityChanged(model: String, property: String, from: String, to: String)
    case attributeOptionsChanged(model: String, property: String, from: [String], to: [String])
    /// `hashModifier:` written, changed or dropped: the version hash changes, the data does not.
    case hashModifierChanged(model: String, property: String, from: String?, to: String?)
    case enumCasesAdded(enumeration: String, cases: [String])
    case enumCasesRemoved(enumeration: String, cases: [String])

    public var summary: String {
        func list(_ names: [String]) -> String { names.joined(separator: ", ") }
        switch self {
        case .modelAdded(let m): return "model \(m) added"
        case .modelRemoved(let m): return "model \(m) removed"
        case .modelRenamed(let from, let to): return "model \(from) renamed to \(to)"
        case .superclassChanged(let m, let from, let to):
            return "\(m)'s superclass changed from \(from ?? "none") to \(to ?? "none")"
        case .propertyAdded(let m, let p): return "\(m).\(p) added"
        case .propertyRemoved(let m, let p): return "\(m).\(p) removed"
        case .propertyRenamed(let m, let from, let to): return "\(m).\(from) renamed to \(to)"
        case .columnAdopted(let m, let from, let to, let column):
            return "\(m).\(to) takes over \(from)'s column \(column); its values stay"
        case .storedNameChanged(let m, let p, let from, let to): return "\(m).\(p) stored as \(to) instead of \(from)"
        case .typeChanged(let m, let p, let from, let to): return "\(m).\(p) changed type from \(from) to \(to)"
        case .optionalityChanged(let m, let p, let optional):
            return "\(m).\(p) became \(optional ? "optional" : "required")"
        case .defaultChanged(let m, let p): return "\(m).\(p) changed its default"
        case .uniquenessAdded(let m, let ps): return "\(m) became unique by (\(list(ps)))"
        case .uniquenessRemoved(let m, let ps): return "\(m) is no longer unique by (\(list(ps)))"
        case .indexAdded(let m, let ps): return "index on \(m) (\(list(ps))) added"
        case .indexRemoved(let m, let ps): return "index on \(m) (\(list(ps))) removed"
        case .inverseChanged(let m, let p, let from, let to):
            return "\(m).\(p) inverse changed from \(from ?? "none") to \(to ?? "none")"
        case .deleteRuleChanged(let m, let p, let from, let to):
            return "\(m).\(p) delete rule changed from \(from.rawValue) to \(to.rawValue)"
        case .cardinalityChanged(let m, let p, let from, let to): return "\(m).\(p) changed from \(from) to \(to)"
        case .attributeOptionsChanged(let m, let p, let from, let to):
            return "\(m).\(p) attribute options changed from [\(list(from))] to [\(list(to))]"
        case .hashModifierChanged(let m, let p, let from, let to):
            return "\(m).\(p) hash modifier changed from \(from.map { "\"\($0)\"" } ?? "none") to "
                + (to.map { "\"\($0)\"" } ?? "none")
        case .enumCasesAdded(let e, let cases): return "\(e) gained cases \(list(cases))"
        case .enumCasesRemoved(let e, let cases): return "\(e) lost cases \(list(cases))"
        }
    }
}
