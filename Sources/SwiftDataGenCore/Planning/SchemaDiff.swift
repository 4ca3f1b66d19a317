import SwiftDataGenDSL

/// Compares two consecutive versions into the list of changes between them. Models and
/// properties are matched by name, or through `renamedFrom`; renames are never guessed.
public struct SchemaDiff: Sendable {
    /// Decides the stored names of enum properties.
    public var naming: NamingConfig

    public init(naming: NamingConfig) {
        self.naming = naming
    }

    public func changes(from old: SchemaVersion, to new: SchemaVersion) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        let matchedOld = Set(new.models.compactMap { Self.counterpart(of: $0, in: old)?.name })
        for model in new.models {
            guard let before = Self.counterpart(of: model, in: old) else {
                changes.append(.modelAdded(model.name))
                continue
            }
            if before.name != model.name { changes.append(.modelRenamed(from: before.name, to: model.name)) }
            if before.superclass != model.superclass {
                changes.append(.superclassChanged(model: model.name, from: before.superclass, to: model.superclass))
            }
            changes += propertyChanges(before, model, old: old, new: new)
            changes += groupChanges(before, model, old: old, new: new)
        }
        for model in old.models where !matchedOld.contains(model.name) {
            changes.append(.modelRemoved(model.name))
        }
        for decl in new.enums {
            guard let before = old.enumeration(named: decl.name) else { continue }
            let added = decl.cases.filter { item in !before.cases.contains(item) }.map(\.name)
            let removed = before.cases.filter { item in !decl.cases.contains(item) }.map(\.name)
            if !added.isEmpty { changes.append(.enumCasesAdded(enumeration: decl.name, cases: added)) }
            if !removed.isEmpty { changes.append(.enumCasesRemoved(enumeration: decl.name, cases: removed)) }
        }
        return changes
    }

    public static func counterpart(of model: ModelDecl, in old: SchemaVersion) -> ModelDecl? {
        old.model(named: model.renamedFrom ?? model.name)
    }

    /// The previous version's property that `property` of `model` continues: by rename, by a
    /// same-name conversion, by name — unless another property renames from that name, which
    /// makes `property` a new one — or by the column it is stored in: a property that keeps the
    /// previous version's column behind another Swift name (`syncStatus` stored as
    /// `syncStatusRaw`, `status` by raw value in `statusRawValue`) continues it, since the store
    /// does not change.
    /// `position`, the property's place in `model`, is where the search in `before` starts.
    /// `renamedAway`, the names `model`'s properties rename from (`renamedAway(in:)`), is read
    /// from the model when not given: a walk over a model's properties passes it once for all.
    public static func counterpart(
        of property: Property, in before: ModelDecl, within model: ModelDecl, naming: NamingConfig,
        near position: Int = 0, renamedAway: [String]? = nil
    ) -> Property? {
        if let conversion = property.conversion, conversion.sourceProperty != property.name { return nil }
        if let renamedFrom = property.renamedFrom { return before.property(named: renamedFrom, near: position) }
        if renamedAway?.contains(property.name) ?? model.properties.contains(where: { $0.renamedFrom == property.name })
        {
            return nil
        }
        if let same = before.property(named: property.name, near: position) { return same }
        return sameColumn(as: property, in: before, within: model, naming: naming)
    }

    /// The names properties of `model` rename from: a property that keeps one of them is new.
    public static func renamedAway(in model: ModelDecl) -> [String] { model.properties.compactMap(\.renamedFrom) }

    /// A relationship of a model that is not renamed, whose destination is renamed in this
    /// version and whose previous version led to the old name: its links move to the copies.
    public static func followsRenamedDestination(
        _ property: Property, in before: ModelDecl, within model: ModelDecl, renamed: [String: String],
        naming: NamingConfig
    ) -> Bool {
        guard let now = property.relationship, let oldTarget = renamed[now.target],
            let was = counterpart(of: property, in: before, within: model, naming: naming)?.relationship
        else { return false }
        return was.target == oldTarget
    }

    /// The previous version's stored attribute with `property`'s stored name and stored type,
    /// when nothing in `model` continues it already under its own name, a rename or a conversion.
    static func sameColumn(as property: Property, in before: ModelDecl, within model: ModelDecl, naming: NamingConfig)
        -> Property?
    {
        guard property.isStored, property.relationship == nil else { return nil }
        let stored = naming.storedName(property)
        guard
            let column = before.properties.first(where: {
                $0.isStored && $0.relationship == nil && naming.storedName($0) == stored
            }),
            model.property(named: column.name) == nil,
            !model.properties.contains(where: {
                $0.renamedFrom == column.name || $0.conversion?.sourceProperty == column.name
            }),
            sameColumnType(column, property)
        else { return nil }
        return column
    }

    /// Two attributes whose values the store keeps alike: the same scalar, or a scalar and an
    /// enum stored by raw value of that type (what a typed accessor over a raw column reads).
    static func sameColumnType(_ a: Property, _ b: Property) -> Bool {
        switch (a.kind, b.kind) {
        case (.attribute(.scalar(let x), let xa), .attribute(.scalar(let y), let ya)): return x == y && xa == ya
        case (.attribute(.scalar(let x), let xa), .attribute(.enumeration(_, let y, .rawValue), let ya)),
            (.attribute(.enumeration(_, let y, .rawValue), let ya), .attribute(.scalar(let x), let xa)):
            return x == y && xa == ya
        case (.attribute(.enumeration(_, let x, let xs), let xa), .attribute(.enumeration(_, let y, let ys), let ya)):
            return x == y && xs == ys && xa == ya
        default: return false
        }
    }

    /// The default as the column holds it: a case of an enum stored by raw value is its raw
    /// value, so `default: pending` over a column that held `"pending"` is no change.
    static func storedDefault(_ property: Property, in version: SchemaVersion) -> DefaultValue? {
        guard case .literal(.enumCase(let name))? = property.defaultValue,
            case .attribute(.enumeration(let type, _, .rawValue), false) = property.kind,
            let raw = version.enumeration(named: type)?.cases.first(where: { $0.name == name })?.rawValue
        else { return property.defaultValue }
        return .literal(raw)
    }

    /// The same enum, stored once as itself and once by raw value (`enumStorage:`).
    static func onlyEnumStorageDiffers(_ a: Property, _ b: Property) -> Bool {
        guard case .attribute(.enumeration(let x, let xr, let xs), let xa) = a.kind,
            case .attribute(.enumeration(let y, let yr, let ys), let ya) = b.kind
        else { return false }
        return x == y && xr == yr && xa == ya && xs != ys
    }

    /// The type as people compare storage: an enum says how it is stored (`enumStorage:`), a
    /// struct whether it is stored as its encoding (`codable:`).
    public static func storageDescription(_ property: Property) -> String {
        if property.flags.contains(.codable) { return typeDescription(property) + " (stored .codable)" }
        guard case .attribute(.enumeration(_, _, let storage), _) = property.kind else {
            return typeDescription(property)
        }
        return typeDescription(property) + (storage == .value ? " (stored as itself)" : " (stored by raw value)")
    }

    /// How a property is spelled for people: `String?`, `[Stop]`, `TripStatus`.
    public static func typeDescription(_ property: Property) -> String {
        let base: String
        switch property.kind {
        case .attribute(.scalar(let scalar), let isArray):
            let name = property.scalarSpelling ?? scalar.rawValue
            base = isArray ? "[\(name)]" : name
        case .attribute(.enumeration(let name, _, _), _): base = name
        case .attribute(.composite(let name), let isArray): base = isArray ? "[\(name)]" : name
        case .attribute(.dictionary(let key, let value), _): base = "[\(key.rawValue): \(value)]"
        case .relationship(let r): base = r.isToMany ? "[\(r.target)]" : r.target
        }
        return base + (property.isOptional ? "?" : "")
    }

    private func propertyChanges(_ before: ModelDecl, _ model: ModelDecl, old: SchemaVersion, new: SchemaVersion)
        -> [SchemaChange]
    {
        var changes: [SchemaChange] = []
        let name = model.name
        // By position in `before`, whose names are distinct: marking one costs a lookup from where
        // its counterpart was found, where a set of names hashed each one.
        var continued = [Bool](repeating: false, count: before.properties.count)
        let renamedAway = Self.renamedAway(in: model)
        for position in model.properties.indices where model.properties[position].isStored {
            let property = model.properties[position]
            guard
                let previous = Self.counterpart(
                    of: property, in: before, within: model, naming: naming, near: position, renamedAway: renamedAway),
                previous.isStored
            else {
                changes.append(.propertyAdded(model: name, property: property.name))
                continue
            }
            if let index = before.propertyIndex(named: previous.name, near: position) { continued[index] = true }
            if previous.name != property.name, property.renamedFrom == nil {
                changes.append(
                    .columnAdopted(model: name, from: previous.name, to: property.name, column: storedName(property)))
            } else if previous.name != property.name {
                changes.append(.propertyRenamed(model: name, from: previous.name, to: property.name))
            } else if storedName(previous) != storedName(property)
                && Self.sameStoredType(previous, property, old: old, new: new)
            {
                changes.append(
                    .storedNameChanged(
                        model: name, property: property.name, from: storedName(previous), to: storedName(property)))
            }
            if !Self.sameStoredType(previous, property, old: old, new: new) {
                var oldType = previous
                var newType = property
                oldType.isOptional = false
                newType.isOptional = false
                let storageDiffers =
                    Self.onlyEnumStorageDiffers(oldType, newType)
                    || oldType.flags.contains(.codable) != newType.flags.contains(.codable)
                let describe = storageDiffers ? Self.storageDescription : Self.typeDescription
                changes.append(
                    .typeChanged(model: name, property: property.name, from: describe(oldType), to: describe(newType)))
            }
            if previous.isOptional != property.isOptional {
                changes.append(
                    .optionalityChanged(model: name, property: property.name, nowOptional: property.isOptional))
            }
            if Self.storedDefault(previous, in: old) != Self.storedDefault(property, in: new) {
                changes.append(.defaultChanged(model: name, property: property.name))
            }
            let oldOptions = Self.options(previous)
            let newOptions = Self.options(property)
            if oldOptions != newOptions {
                changes.append(
                    .attributeOptionsChanged(model: name, property: property.name, from: oldOptions, to: newOptions))
            }
            if previous.hashModifier != property.hashModifier {
                changes.append(
                    .hashModifierChanged(
                        model: name, property: property.name, from: previous.hashModifier, to: property.hashModifier))
            }
            if let a = previous.relationship, let b = property.relationship {
                if a.inverse != b.inverse {
                    changes.append(
                        .inverseChanged(model: name, property: property.name, from: a.inverse, to: b.inverse))
                }
                if a.deleteRule != b.deleteRule {
                    changes.append(
                        .deleteRuleChanged(model: name, property: property.name, from: a.deleteRule, to: b.deleteRule))
                }
                if a.isToMany != b.isToMany || a.minCount != b.minCount || a.maxCount != b.maxCount {
                    changes.append(
                        .cardinalityChanged(
                            model: name, property: property.name, from: Self.cardinality(a), to: Self.cardinality(b)))
                }
            }
        }
        for index in before.properties.indices where before.properties[index].isStored && !continued[index] {
            changes.append(.propertyRemoved(model: name, property: before.properties[index].name))
        }
        return changes
    }

    /// Same storage: the same scalar, the same enum raw type, or a relationship to the same model
    /// (following a model rename). A change between to-one and to-many is a cardinality change,
    /// planned on its own, not a type change.
    static func sameStoredType(_ a: Property, _ b: Property, old: SchemaVersion, new: SchemaVersion) -> Bool {
        let codable = a.flags.contains(.codable)
        guard codable == b.flags.contains(.codable) else { return false }
        // Stored as its encoding, a struct is one opaque value: SwiftData migrates nothing when its
        // fields change (the planner warns that old encodings must still decode).
        if codable, case .attribute(let x, let xa) = a.kind, case .attribute(let y, let ya) = b.kind {
            return Self.valueTypeName(x) == Self.valueTypeName(y) && xa == ya
        }
        switch (a.kind, b.kind) {
        case (.attribute(.scalar(let x), let xa), .attribute(.scalar(let y), let ya)): return x == y && xa == ya
        // An enum stored as itself and one stored by raw value are different Swift types: which
        // storage SwiftData gives the first is not documented, so a switch is a conversion.
        case (.attribute(.enumeration(_, let x, let xs), _), .attribute(.enumeration(_, let y, let ys), _)):
            return x == y && xs == ys
        // A typed accessor over a raw column: the column holds the same text or number. Where
        // the author converts the values (`from:`), it is a change of type all the same.
        case (.attribute(.scalar(let x), let xa), .attribute(.enumeration(_, let y, .rawValue), let ya)),
            (.attribute(.enumeration(_, let y, .rawValue), let ya), .attribute(.scalar(let x), let xa)):
            return x == y && xa == ya && a.conversion == nil && b.conversion == nil
        // A struct is the same storage while its fields are: a changed struct is a new type.
        case (.attribute(.composite(let x), let xa), .attribute(.composite(let y), let ya)):
            return x == y && xa == ya && old.compositeSignature(of: x) == new.compositeSignature(of: y)
        // A dictionary is encoded whole: the same while its key and its value struct's fields are.
        case (.attribute(.dictionary(let xk, let x), _), .attribute(.dictionary(let yk, let y), _)):
            return xk == yk && x == y && old.compositeSignature(of: x) == new.compositeSignature(of: y)
        case (.relationship(let x), .relationship(let y)):
            let target = new.model(named: y.target).flatMap { Self.counterpart(of: $0, in: old) }?.name ?? y.target
            return x.target == target
        default: return false
        }
    }

    /// The name a codable value's type is compared by; its fields are not.
    private static func valueTypeName(_ type: ValueType) -> String {
        switch type {
        case .scalar(let scalar): return scalar.rawValue
        case .enumeration(let name, _, _), .composite(let name): return name
        case .dictionary(let key, let value): return "[\(key.rawValue): \(value)]"
        }
    }

    /// The options compared as options; `codable` is a change of stored type (`sameStoredType`).
    static func options(_ property: Property) -> [String] {
        if property.flags.isEmpty && property.transformer == nil { return [] }
        var result = property.flags.filter { $0 != .codable }.map(\.rawValue).sorted()
        if let transformer = property.transformer { result.append("transformable(\(transformer))") }
        return result
    }

    private static func cardinality(_ r: Relationship) -> String {
        guard r.isToMany else { return "to-one" }
        let bounds = [r.minCount.map { "min \($0)" }, r.maxCount.map { "max \($0)" }].compactMap { $0 }
        return bounds.isEmpty ? "to-many" : "to-many (\(bounds.joined(separator: ", ")))"
    }

    /// Uniqueness and index groups, compared by the names the old version stored them under.
    private func groupChanges(_ before: ModelDecl, _ model: ModelDecl, old: SchemaVersion, new: SchemaVersion)
        -> [SchemaChange]
    {
        var changes: [SchemaChange] = []
        let oldUnique = Set(uniqueGroups(before))
        let newUnique = uniqueGroups(model)
        let newUniqueInOldNames = newUnique.map { ($0, $0.map { oldName(ofStored: $0, in: model, before: before) }) }
        for (group, oldNames) in newUniqueInOldNames where !oldUnique.contains(oldNames) {
            changes.append(.uniquenessAdded(model: model.name, properties: group))
        }
        let kept = Set(newUniqueInOldNames.map(\.1))
        for group in oldUnique.sorted(by: { $0.joined() < $1.joined() }) where !kept.contains(group) {
            changes.append(.uniquenessRemoved(model: model.name, properties: group))
        }
        let oldIndexes = Set(before.indexGroups)
        let newIndexes = model.indexGroups.map { ($0, $0.map { oldName(ofStored: $0, in: model, before: before) }) }
        for (group, oldNames) in newIndexes where !oldIndexes.contains(oldNames) {
            changes.append(.indexAdded(model: model.name, properties: group))
        }
        let keptIndexes = Set(newIndexes.map(\.1))
        for group in before.indexGroups where !keptIndexes.contains(group) {
            changes.append(.indexRemoved(model: model.name, properties: group))
        }
        return changes
    }

    /// Every uniqueness group of a model, whether spelled `#Unique` or `@Attribute(.unique)`.
    public func uniqueGroups(_ model: ModelDecl) -> [[String]] {
        model.uniqueGroups + model.properties.filter(\.isUnique).map { [storedName($0)] }
    }

    public func storedName(_ property: Property) -> String {
        naming.storedName(property)
    }

    /// The stored name a new-version stored name had in the old version, through a rename.
    public func oldName(ofStored stored: String, in model: ModelDecl, before: ModelDecl) -> String {
        guard let property = model.properties.first(where: { storedName($0) == stored }),
            let previous = Self.counterpart(of: property, in: before, within: model, naming: naming)
        else { return stored }
        return storedName(previous)
    }
}
