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
        for model in models {
            guard let ast = modelASTs[model.name] else { continue }
            for property in model.properties {
                guard let relationship = property.relationship,
                    let inverseName = ast.properties.firstIndex(where: { $0.name.value == property.name }).flatMap({ ast.properties[$0].inverse })
                else { continue }
                let side = Side(model: model.name, property: property.name)
                let candidates = [self.model(named: relationship.target, in: models)].compactMap { $0 } + ancestors(of: relationship.target, in: models)
                guard let owner = candidates.first(where: { $0.property(named: inverseName.value) != nil }),
                    let other = owner.property(named: inverseName.value)
                else {
                    let names = candidates.flatMap { $0.properties.filter { $0.relationship != nil }.map { ($0.name, $0.location) } }
                    let notes = Diagnostic.Note.suggestion(for: inverseName.value, in: names)
                    diagnostics.append(.error(.inverseNotFound, "inverse '\(inverseName.value)' is not a property of \(relationship.target); add it there or fix the name", at: inverseName.location, notes: notes))
                    continue
                }
                guard let otherRelationship = other.relationship else {
                    diagnostics.append(.error(.inverseNotRelationship, "inverse '\(relationship.target).\(inverseName.value)' is an attribute, not a relationship back to \(model.name)", at: inverseName.location, notes: [.init("declared here", at: other.location)]))
                    continue
                }
                let selfAndAncestors = [model.name] + ancestors(of: model.name, in: models).map(\.name)
                guard selfAndAncestors.contains(otherRelationship.target) else {
                    diagnostics.append(.error(.inverseMismatch, "inverse '\(relationship.target).\(inverseName.value)' points to \(otherRelationship.target), not back to \(model.name); its type must be \(model.name), \(model.name)? or [\(model.name)]", at: inverseName.location, notes: [.init("declared here", at: other.location)]))
                    continue
                }
                let otherSide = Side(model: owner.name, property: other.name)
                if let existing = partner[otherSide], existing != side {
                    diagnostics.append(.error(.inverseMismatch, "'\(owner.name).\(other.name)' is already the inverse of '\(existing.model).\(existing.property)'; a relationship has one inverse", at: inverseName.location, notes: [.init("declared here", at: other.location)]))
                    continue
                }
                if let existing = partner[side], existing != otherSide { continue }
                partner[side] = otherSide
                partner[otherSide] = side
                declared.insert(side)
            }
        }
        for modelIndex in models.indices {
            for propertyIndex in models[modelIndex].properties.indices {
                let property = models[modelIndex].properties[propertyIndex]
                guard var relationship = property.relationship else { continue }
                let side = Side(model: models[modelIndex].name, property: property.name)
                if let other = partner[side] {
                    relationship.inverse = other.property
                    relationship.declaresInverse = Self.declaresInverse(side, other, declared: declared, models: models)
                    let otherProperty = Self.model(named: other.model, in: models)?.property(named: other.property)
                    if relationship.deleteRule == .nullify, let otherProperty, let otherRelationship = otherProperty.relationship,
                        !otherRelationship.isToMany, !otherProperty.isOptional
                    {
                        diagnostics.append(.error(
                            .nullifyOntoRequired,
                            "deleting a \(side.model) would set \(other.model).\(other.property) to nil, but it is not optional; make '\(other.property)' optional (\(side.model)?) or use deleteRule: cascade",
                            at: property.location, notes: [.init("'\(other.property)' is declared here", at: otherProperty.location)]))
                    }
                } else {
                    // SwiftData may pair two relationships that point at each other by itself; an
                    // inferred pair is still worth writing down, since the inverse is stored.
                    let target = Self.model(named: relationship.target, in: models)
                    let pointingBack = target?.properties.filter { other in
                        other.relationship?.target == side.model && partner[Side(model: relationship.target, property: other.name)] == nil
                            && !(relationship.target == side.model && other.name == property.name)
                    } ?? []
                    if pointingBack.count == 1, let other = pointingBack.first {
                        diagnostics.append(.warning(
                            .missingInverse,
                            "relationships '\(side.model).\(property.name)' and '\(relationship.target).\(other.name)' point at each other without an inverse; SwiftData may pair them by itself, but what it infers is not written down and the store's shape would depend on it; add inverse: \(other.name) (or, if they are unrelated, give \(relationship.target).\(other.name) its own inverse)",
                            at: property.location, notes: [.init("'\(relationship.target).\(other.name)' is declared here", at: other.location)]))
                    } else {
                        diagnostics.append(.warning(
                            .missingInverse,
                            "relationship '\(side.model).\(property.name)' has no inverse, so SwiftData cannot keep the other side in step; add inverse: <property of \(relationship.target)>",
                            at: property.location))
                    }
                }
                if config.cloudKit && relationship.deleteRule == .deny {
                    diagnostics.append(.error(.cloudKitDeny, "CloudKit does not support the deny delete rule on '\(side.model).\(property.name)'; use nullify or cascade", at: property.location))
                }
                models[modelIndex].properties[propertyIndex].kind = .relationship(relationship)
            }
        }
    }

    /// One side of a pair carries `@Relationship(inverse:)`: the side the user wrote it on, and when
    /// both did, the to-many side, then the first by name, so the choice is stable.
    static func declaresInverse(_ side: Side, _ other: Side, declared: Set<Side>, models: [ModelDecl]) -> Bool {
        let mine = declared.contains(side), theirs = declared.contains(other)
        if mine != theirs { return mine }
        if side == other { return true }
        func isToMany(_ s: Side) -> Bool {
            model(named: s.model, in: models)?.property(named: s.property)?.relationship?.isToMany ?? false
        }
        if isToMany(side) != isToMany(other) { return isToMany(side) }
        return (side.model, side.property) < (other.model, other.property)
    }
}
