import SwiftDataGenDSL

/// One property of a model. Its fields live in one shared box (`SharedStorage`): a history holds
/// tens of thousands of properties, every stage reads them by copying, and a copy is then one
/// reference count.
public struct Property: Sendable, Equatable {
    public var name: String {
        _read { yield fields.value.name }
        _modify { yield &fields.value.name }
    }
    public var defaultValue: DefaultValue? {
        _read { yield fields.value.defaultValue }
        _modify { yield &fields.value.defaultValue }
    }
    /// The `Schema.Attribute.Option` keys written `true` (`PropertyKey.Value.option`), in key order.
    public var flags: [PropertyKey] {
        _read { yield fields.value.flags }
        _modify { yield &fields.value.flags }
    }
    public var kind: PropertyKind {
        _read { yield fields.value.kind }
        _modify { yield &fields.value.kind }
    }
    public var isOptional: Bool {
        _read { yield fields.value.isOptional }
        _modify { yield &fields.value.isOptional }
    }
    public var isTransient: Bool {
        _read { yield fields.value.isTransient }
        _modify { yield &fields.value.isTransient }
    }
    /// Single-property uniqueness rendered as `@Attribute(.unique)` (platforms before `#Unique`).
    public var isUnique: Bool {
        _read { yield fields.value.isUnique }
        _modify { yield &fields.value.isUnique }
    }
    public var transformer: String? {
        get { fields.value.rare?.value.transformer }
        set { self[rare: \.transformer] = newValue }
    }
    /// The name in the previous version, as written (`renamedFrom`).
    public var renamedFrom: String? {
        get { fields.value.rare?.value.renamedFrom }
        set { self[rare: \.renamedFrom] = newValue }
    }
    /// `hashModifier:`, written in the YAML or added so that no two schemas share a checksum.
    public var hashModifier: String? {
        get { fields.value.rare?.value.hashModifier }
        set { self[rare: \.hashModifier] = newValue }
    }
    /// Where the value comes from in the previous version (`from:`), for the planner.
    public var conversion: Conversion? {
        get { fields.value.rare?.value.conversion }
        set { self[rare: \.conversion] = newValue }
    }
    public var doc: String? {
        guard case .text(let text) = self[setting: .doc] else { return nil }
        return text
    }
    /// `storedName:`: the name the model class stores the value under, when it is not `name`;
    /// `name` is then a computed accessor over it.
    public var storedName: String? {
        get { fields.value.rare?.value.storedName }
        set { self[rare: \.storedName] = newValue }
    }
    /// How the Swift type is spelled when not as its `ScalarType` (`TimeInterval`, `CGFloat`).
    public var scalarSpelling: String? {
        get { fields.value.rare?.value.scalarSpelling }
        set { self[rare: \.scalarSpelling] = newValue }
    }
    /// `access:`: the stored declaration's access, when not the config's.
    public var access: PropertyAccess? {
        get { fields.value.rare?.value.access }
        set { self[rare: \.access] = newValue }
    }
    public var location: SourceLocation {
        _read { yield fields.value.location }
        _modify { yield &fields.value.location }
    }
    /// The name first stored, through every rename; nil when never renamed. Also a generated
    /// identifier where the name alone would map another property's data (see `HistoryResolver`).
    public var originalName: String? {
        _read { yield fields.value.originalName }
        _modify { yield &fields.value.originalName }
    }

    /// Declared so the small fields fill each other's padding.
    private struct Fields: Sendable, Equatable {
        var name: String
        var defaultValue: DefaultValue?
        var flags: [PropertyKey]
        var kind: PropertyKind
        var isOptional: Bool
        var isTransient: Bool
        var isUnique: Bool
        var location: SourceLocation
        var originalName: String?
        var rare: OutOfLine<Rare>?
    }

    private var fields: SharedStorage<Fields>

    public static func == (a: Property, b: Property) -> Bool {
        a.fields.shares(with: b.fields) || a.fields.value == b.fields.value
    }

    /// Fields few properties set, kept out of line so `Property` stays small.
    private struct Rare: Sendable, Equatable {
        var conversion: Conversion?
        var hashModifier: String?
        var transformer: String?
        var renamedFrom: String?
        var storedName: String?
        var access: PropertyAccess?
        var scalarSpelling: String?
        var settings: [Setting]?
    }

    /// A key's value kept as written, for a key no stage resolves further: the renderer reads
    /// it by key, so such a key needs no field of its own.
    public struct Setting: Sendable, Equatable {
        public enum Value: Sendable, Equatable {
            case flag(Bool)
            case text(String)
            case integer(Int)
        }

        public var key: PropertyKey
        public var value: Value
    }

    public subscript(setting key: PropertyKey) -> Setting.Value? {
        get { fields.value.rare?.value.settings?.first { $0.key == key }?.value }
        set {
            var settings = (self[rare: \.settings] ?? []).filter { $0.key != key }
            if let newValue { settings.append(Setting(key: key, value: newValue)) }
            self[rare: \.settings] = settings.isEmpty ? nil : settings
        }
    }

    /// One out-of-line field; the box goes when its last field is cleared.
    private subscript<Value>(rare field: WritableKeyPath<Rare, Value?>) -> Value? {
        get { fields.value.rare?.value[keyPath: field] }
        set {
            // Most properties set no rare field: clearing one that was never set builds nothing.
            if case .none = newValue, fields.value.rare == nil { return }
            var value = fields.value.rare?.value ?? Rare()
            value[keyPath: field] = newValue
            fields.value.rare = value == Rare() ? nil : OutOfLine(value)
        }
    }

    /// A property with no key but its type; the resolver then carries each key written
    /// (`Property.carry`), so that adding a key is decided in one switch, not an initialiser.
    public init(name: String, kind: PropertyKind, isOptional: Bool, location: SourceLocation) {
        fields = SharedStorage(
            Fields(
                name: name, defaultValue: nil, flags: [], kind: kind, isOptional: isOptional, isTransient: false,
                isUnique: false, location: location, originalName: nil, rare: nil))
    }

    public var relationship: Relationship? {
        if case .relationship(let r) = kind { return r }
        return nil
    }

    public var isStored: Bool { !isTransient }

    /// The Swift type of one stored scalar value (not an array, enum or struct), without `?`: what a
    /// de-duplication remembers of this property.
    var scalarKeyType: String? {
        guard isStored, case .attribute(.scalar(let scalar), false) = kind else { return nil }
        return scalarSpelling ?? scalar.rawValue
    }

    /// A stored single value a `SortDescriptor` can order by (dedupe order, a walk in key order).
    var isSortableAttribute: Bool {
        guard isStored, case .attribute(.scalar(let scalar), false) = kind else { return false }
        return scalar.isSortable
    }

    var isStringAttribute: Bool {
        if case .attribute(.scalar(.string), false) = kind { return true }
        return false
    }
}

extension Property {
    /// The generated declaration carries `@Relationship(...)`: it has an argument to give
    /// (`SchemaRenderer` writes them in this order). Decides, with `relationshipHasInitialValue`,
    /// whether SwiftData pairs it with an undeclared inverse.
    public var declaresRelationshipAttribute: Bool {
        guard let r = relationship else { return false }
        return r.deleteRule != .nullify || r.minCount != nil || r.maxCount != nil || originalName != nil
            || (r.declaresInverse && r.inverse != nil) || hashModifier != nil
    }

    /// The generated declaration has an initial value: a to-many's `= []` (not kept nil by `default: null`).
    public var relationshipHasInitialValue: Bool {
        guard let r = relationship else { return false }
        return r.isToMany && defaultValue != .literal(.null)
    }
}
