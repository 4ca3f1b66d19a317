/// Relationship rules: inverses exist, point back and are declared on one side only; nullify
/// never targets a required to-one; CloudKit refuses deny.
extension VersionResolver {
    struct Side: Hashable {
        var model: String
        var property: String
    }

    mutating func pairRelationships(_ models: inout [ModelDecl]) {
        var partner: [Side: Side] = [:]
        var declared: Set<Side> = []
        // Sides whose `inverse:` is wrong (already said) or `false` (one-way on purpose): no
        // missing-inverse warning names them.
        var settled: Set<Side> = []
        var oneWay: Set<Side> = []
        for model in models {
            guard let ast = modelASTs[model.name] else { continue }
            for property in model.properties {
                guard property.relationship != nil,
                    let written = ast.properties.first(where: { $0.name.value == property.name })
                else { continue }
                if written.oneWay != nil { oneWay.insert(Side(model: model.name, property: property.name)) }
            }
        }
        settled.formUnion(oneWay)
        for model in models {
            guard let ast = modelASTs[model.name] else { continue }
            for property in model.properties {
                guard let relationship = property.relationship,
                    let inverseName = ast.properties.firstIndex(where: { $0.name.value == property.name }).flatMap({
                        ast.properties[$0].inverse
                    })
                else { continue }
                let side = Side(model: model.name, property: property.name)
                settled.insert(side)
                let candidates =
                    [self.model(named: relationship.target, in: models)].compactMap { $0 }
                    + ancestors(of: relationship.target, in: models)
                guard let owner = candidates.first(where: { $0.property(named: inverseName.value) != nil }),
                    let other = owner.property(named: inverseName.value)
                else {
                    let names = candidates.flatMap {
                        $0.properties.filter { $0.relationship != nil }.map { ($0.name, $0.location) }
                    }
                    var notes = Diagnostic.Note.suggestion(for: inverseName.value, in: names)
                    if let target = candidates.first {
                        notes.append(
                            .init(
                                "\(target.name) is declared here: add '\(inverseName.value): \(model.name)?' (or "
                                    + "[\(model.name)]) to it",
                                at: target.location))
                    }
                    diagnostics.append(
                        .error(
                            .inverseNotFound,
                            "inverse '\(inverseName.value)' is not a property of \(relationship.target); add it "
                                + "there or fix the name",
                            at: inverseName.location, notes: notes))
                    continue
                }
                guard let otherRelationship = other.relationship else {
                    diagnostics.append(
                        .error(
                            .inverseNotRelationship,
                            "inverse '\(relationship.target).\(inverseName.value)' is an attribute, not a "
                                + "relationship back to \(model.name)",
                            at: inverseName.location, notes: [.init("declared here", at: other.location)]))
                    continue
                }
                let selfAndAncestors = [model.name] + ancestors(of: model.name, in: models).map(\.name)
                guard selfAndAncestors.contains(otherRelationship.target) else {
                    diagnostics.append(
                        .error(
                            .inverseMismatch,
                            "inverse '\(relationship.target).\(inverseName.value)' points to "
                                + "\(otherRelationship.target), not back to \(model.name); its type must be "
                                + "\(model.name), \(model.name)? or [\(model.name)]",
                            at: inverseName.location, notes: [.init("declared here", at: other.location)]))
                    continue
                }
                let otherSide = Side(model: owner.name, property: other.name)
                // `@Relationship(inverse: \Node.parent) var parent` names its own key path inside its
                // own attribute: Swift stops at a circular reference (AppleSDKRefusalTests).
                guard otherSide != side else {
                    diagnostics.append(
                        .error(
                            .inverseMismatch,
                            "'\(model.name).\(property.name)' names itself as its inverse; an inverse is another "
                                + "property that points back (for example children: \"[\(model.name)]\" with inverse: "
                                + "\(property.name)), or leave inverse: out",
                            at: inverseName.location))
                    continue
                }
                if let existing = partner[otherSide], existing != side {
                    diagnostics.append(
                        .error(
                            .inverseMismatch,
                            "'\(owner.name).\(other.name)' is already the inverse of "
                                + "'\(existing.model).\(existing.property)'; a relationship has one inverse",
                            at: inverseName.location, notes: [.init("declared here", at: other.location)]))
                    continue
                }
                if let existing = partner[side], existing != otherSide { continue }
                partner[side] = otherSide
                partner[otherSide] = side
                declared.insert(side)
            }
        }
        // A pair pointing at each other without an inverse is warned once, from its first side.
        var warnedPairs: Set<[Side]> = []
        for modelIndex in models.indices {
            for propertyIndex in models[modelIndex].properties.indices {
                let property = models[modelIndex].properties[propertyIndex]
                guard var relationship = property.relationship else { continue }
                let side = Side(model: models[modelIndex].name, property: property.name)
                if let other = partner[side] {
                    relationship.inverse = other.property
                    relationship.declaresInverse = Self.declaresInverse(side, other, declared: declared, models: models)
                    let otherProperty = self.model(named: other.model, in: models)?.property(named: other.property)
                    if relationship.deleteRule == .nullify, let otherProperty,
                        let otherRelationship = otherProperty.relationship,
                        !otherRelationship.isToMany, !otherProperty.isOptional
                    {
                        diagnostics.append(
                            .error(
                                .nullifyOntoRequired,
                                "deleting a \(side.model) would set \(other.model).\(other.property) to nil, but "
                                    + "it is not optional; make '\(other.property)' optional (\(side.model)?) or use "
                                    + "deleteRule: cascade",
                                at: property.location,
                                notes: [.init("'\(other.property)' is declared here", at: otherProperty.location)]))
                    }
                } else if !settled.contains(side),
                    !Self.pointedAtByAnInverseInError(
                        side, relationship, models: models, settled: settled, oneWay: oneWay, partner: partner)
                {
                    // SwiftData may pair two relationships that point at each other by itself; an
                    // inferred pair is still worth writing down, since the inverse is stored.
                    let target = self.model(named: relationship.target, in: models)
                    let pointingBack =
                        target?.properties.filter { other in
                            let otherSide = Side(model: relationship.target, property: other.name)
                            return other.relationship?.target == side.model && partner[otherSide] == nil
                                && !settled.contains(otherSide)
                                && !(relationship.target == side.model && other.name == property.name)
                        } ?? []
                    if pointingBack.count == 1, let other = pointingBack.first {
                        let pair = [side, Side(model: relationship.target, property: other.name)].sorted {
                            ($0.model, $0.property) < ($1.model, $1.property)
                        }
                        if warnedPairs.insert(pair).inserted {
                            let what: String
                            switch Self.pairing(property, other) {
                            case .paired:
                                what =
                                    "SwiftData pairs them by itself (each is the other's only candidate and every "
                                    + "to-one end is optional), so they are one relationship and its store records it"
                            case .unpaired:
                                what = "SwiftData does not pair them by itself, so setting one does not set the other"
                            case .open:
                                what =
                                    "whether SwiftData pairs them by itself is not settled by any store seen (the "
                                    + "identity carries both readings)"
                            }
                            diagnostics.append(
                                .warning(
                                    .missingInverse,
                                    "relationships '\(side.model).\(property.name)' and "
                                        + "'\(relationship.target).\(other.name)' point at each other without an "
                                        + "inverse; \(what); add inverse: \(other.name) to say which it is (or, "
                                        + "if they "
                                        + "are unrelated, give each its own inverse or write inverse: false on each)",
                                    at: property.location,
                                    notes: [
                                        .init(
                                            "'\(relationship.target).\(other.name)' is declared here",
                                            at: other.location)
                                    ]))
                        }
                    } else {
                        diagnostics.append(
                            .warning(
                                .missingInverse,
                                "relationship '\(side.model).\(property.name)' has no inverse, so SwiftData "
                                    + "cannot keep the other side in step; add inverse: <property of "
                                    + "\(relationship.target)>, or inverse: false if it is one-way on purpose",
                                at: property.location))
                    }
                }
                // `inverse: false` on both ends says one-way, but SwiftData pairs such ends all the same.
                if oneWay.contains(side), let target = self.model(named: relationship.target, in: models) {
                    let back = target.properties.filter {
                        $0.relationship?.target == side.model
                            && partner[Side(model: target.name, property: $0.name)] == nil
                            && !(target.name == side.model && $0.name == property.name)
                    }
                    let mine = models[modelIndex].properties.filter {
                        $0.relationship?.target == target.name
                            && partner[Side(model: side.model, property: $0.name)] == nil
                    }
                    if back.count == 1, mine.count == 1, let other = back.first,
                        oneWay.contains(Side(model: target.name, property: other.name)),
                        Self.pairing(property, other) == .paired,
                        warnedPairs.insert(
                            [side, Side(model: target.name, property: other.name)].sorted {
                                ($0.model, $0.property) < ($1.model, $1.property)
                            }
                        ).inserted
                    {
                        diagnostics.append(
                            .warning(
                                .missingInverse,
                                "'\(side.model).\(property.name)' and '\(target.name).\(other.name)' say "
                                    + "inverse: false, but "
                                    + "SwiftData pairs them by itself (each is the other's only candidate and every "
                                    + "to-one end is optional): on every device they are one relationship; write "
                                    + "inverse: \(other.name) to say so",
                                at: property.location,
                                notes: [.init("'\(target.name).\(other.name)' is declared here", at: other.location)]))
                    }
                }
                if syncsWithCloudKit && relationship.deleteRule == .deny {
                    diagnostics.append(
                        .error(
                            .cloudKitDeny,
                            "CloudKit does not support the deny delete rule on '\(side.model).\(property.name)'; "
                                + "use nullify or cascade",
                            at: property.location))
                }
                models[modelIndex].properties[propertyIndex].kind = .relationship(relationship)
            }
        }
    }

    /// Whether a relationship of the target that points back at `side` names an inverse that is
    /// in error: that error is about this pair already.
    /// What SwiftData does with two relationships that point at each other without an inverse,
    /// as the generated Swift declares them (`UndeclaredInversePairing`).
    static func pairing(_ a: Property, _ b: Property) -> UndeclaredInversePairing {
        func end(_ property: Property) -> UndeclaredInversePairing.End {
            let r = property.relationship
            return .init(
                isToMany: r?.isToMany ?? false, isOptional: property.isOptional,
                isAnnotated: property.declaresRelationshipAttribute,
                hasInitialValue: property.relationshipHasInitialValue,
                isCounted: r?.minCount != nil || r?.maxCount != nil)
        }
        return UndeclaredInversePairing(end(a), end(b))
    }

    static func pointedAtByAnInverseInError(
        _ side: Side, _ relationship: Relationship, models: [ModelDecl], settled: Set<Side>, oneWay: Set<Side>,
        partner: [Side: Side]
    ) -> Bool {
        model(named: relationship.target, in: models)?.properties.contains { other in
            let otherSide = Side(model: relationship.target, property: other.name)
            return other.relationship?.target == side.model && settled.contains(otherSide)
                && !oneWay.contains(otherSide) && partner[otherSide] == nil
        } ?? false
    }

    /// One side of a pair carries `@Relationship(inverse:)`: the side the user wrote it on, and when
    /// both did, the to-many side, then the first by name, so the choice is stable.
    static func declaresInverse(_ side: Side, _ other: Side, declared: Set<Side>, models: [ModelDecl]) -> Bool {
        let mine = declared.contains(side)
        let theirs = declared.contains(other)
        if mine != theirs { return mine }
        if side == other { return true }
        func isToMany(_ s: Side) -> Bool {
            model(named: s.model, in: models)?.property(named: s.property)?.relationship?.isToMany ?? false
        }
        if isToMany(side) != isToMany(other) { return isToMany(side) }
        return (side.model, side.property) < (other.model, other.property)
    }
}
