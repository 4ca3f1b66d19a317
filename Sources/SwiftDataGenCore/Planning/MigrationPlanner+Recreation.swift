import SwiftDataGenDSL

/// Properties re-created empty through a bridge: a change of type or kind the author acknowledged,
/// and relationships whose destination changes.
extension MigrationPlanner {
    /// A change of type or kind the author acknowledged as a removal: the property is re-created
    /// empty, dropped by a bridge and added back by the target, since no schema step converts it.
    /// False when not acknowledged; true when planned or refused here.
    mutating func recreate(
        _ previous: Property, as property: Property, in model: ModelDecl, before: ModelDecl, new: SchemaVersion,
        work: inout StepWork
    ) -> Bool {
        let path = "\(model.name).\(property.name)"
        // Links to a model this version removes on purpose go with its rows: acknowledged with it.
        let destinationRemoved = previous.relationship.map {
            new.model(named: $0.target) == nil && new.acknowledgedRemovals.contains($0.target)
        }
        guard
            new.acknowledgedRemovals.contains(path)
                || new.acknowledgedRemovals.contains("\(before.name).\(previous.name)")
                || destinationRemoved == true
        else { return false }
        guard property.isOptional || property.defaultValue != nil || property.relationship?.isToMany == true else {
            diagnostics.append(
                .error(
                    .requiredPropertyAdded,
                    "\(path) is re-created empty (acknowledgedRemovals), but it is required and existing "
                        + "\(model.name) objects have no value for it; add default: … or make the type optional",
                    at: property.location))
            return true
        }
        work.recreated[before.name, default: []].insert(previous.name)
        return true
    }

    /// A relationship whose destination changes, or a property that turns from a relationship into
    /// an attribute or back: no conversion moves links. A destination replaced by a new model (the
    /// old one removed in this step, as apps rename model classes) is what shipped: its links go
    /// with the old model's rows, said as a loss; any other change is refused with what to write.
    mutating func planRelationshipChange(
        from previous: Property, to property: Property, in model: ModelDecl, before: ModelDecl,
        old: SchemaVersion, new: SchemaVersion, work: inout StepWork
    ) {
        let path = "\(model.name).\(property.name)"
        let declared = [Diagnostic.Note("\(before.name).\(previous.name) is declared here", at: previous.location)]
        guard let was = previous.relationship, let now = property.relationship else {
            let (from, to) = (SchemaDiff.typeDescription(previous), SchemaDiff.typeDescription(property))
            var isText = false
            if case .attribute(.scalar(.string), false) = previous.kind { isText = true }
            let link =
                isText
                ? "; to link each object by that text, add from: { property: \(previous.name), match: <key of "
                    + "\(property.relationship?.target ?? "the destination")> } to a relationship of another name"
                : ""
            diagnostics.append(
                .error(
                    .typeChangeLosesData,
                    "\(path) changes from \(from) to \(to): a relationship is never converted into an attribute or "
                        + "back; keep \(previous.name) as it is and add the new property under another name, or, to "
                        + "re-create it empty (its \(previous.relationship == nil ? "values" : "links") are dropped), "
                        + "add \"\(path)\" to acknowledgedRemovals\(link)",
                    at: property.location, notes: declared))
            return
        }
        let replaced = new.model(named: was.target) == nil && old.model(named: now.target) == nil
        guard replaced else {
            diagnostics.append(
                .error(
                    .typeChangeLosesData,
                    "\(path) changes its destination from \(was.target) to \(now.target); links cannot move to "
                        + "another model: keep the destination, add a relationship of another name to \(now.target), "
                        + "or, to re-create it empty (its links are dropped), add \"\(path)\" to acknowledgedRemovals",
                    at: property.location, notes: declared))
            return
        }
        // Dropped by the bridge and added back, so no schema step has to infer a relationship
        // that changes its destination.
        work.recreated[before.name, default: []].insert(previous.name)
        let acknowledged = [was.target, "\(before.name).\(previous.name)", path].contains {
            new.acknowledgedRemovals.contains($0)
        }
        guard !acknowledged else { return }
        diagnostics.append(
            .warning(
                .dataLoss,
                "\(path) now leads to \(now.target), which replaces \(was.target) in version \(new.version): its "
                    + "links to \(was.target) objects are deleted with them on upgrade; if \(now.target) is "
                    + "\(was.target) renamed, write renamedFrom: \(was.target) on \(now.target) (its objects are "
                    + "copied "
                    + "and these links moved to the copies); if the loss is what shipped, add \"\(was.target)\" to "
                    + "acknowledgedRemovals",
                at: property.location, notes: declared))
    }
}
