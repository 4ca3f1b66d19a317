/// Properties a step removes and adds in one model with the same stored type. Each may be a rename
/// written without `renamedFrom`, which SwiftData runs as a drop and an add: every value of the old
/// property is deleted. The advice that would make that deletion pass (a default for the new one,
/// `acknowledgedRemovals` for the old) leads with the question instead.
struct RenameHints {
    /// `Model.added` → the old names of removed properties of the same stored type.
    private var removedFor: [String: [String]] = [:]
    /// `OldModel.removed` → the properties added with the same stored type.
    private var addedFor: [String: [Property]] = [:]
    /// A removed model → the models added with the same stored properties.
    private var modelsAddedFor: [String: [String]] = [:]

    /// `changes` is the step's diff: a rename written without `renamedFrom` shows in it as a
    /// removal, so a step that removes nothing has nothing to ask and is not searched.
    init(from old: SchemaVersion, to new: SchemaVersion, changes: [SchemaChange], naming: NamingConfig) {
        let removes = changes.contains {
            switch $0 {
            case .propertyRemoved, .modelRemoved: true
            default: false
            }
        }
        guard removes else { return }
        let kept = Set(new.models.compactMap { SchemaDiff.counterpart(of: $0, in: old)?.name })
        let addedModels = new.models.filter { SchemaDiff.counterpart(of: $0, in: old) == nil }
        for gone in old.models where !kept.contains(gone.name) && !new.acknowledgedRemovals.contains(gone.name) {
            let shape = Self.shape(of: gone)
            let alike = addedModels.filter { Self.shape(of: $0) == shape }.map(\.name)
            if !shape.isEmpty && !alike.isEmpty { modelsAddedFor[gone.name] = alike }
        }
        for model in new.models {
            guard let before = SchemaDiff.counterpart(of: model, in: old) else { continue }
            var kept: Set<String> = []
            kept.reserveCapacity(model.properties.count)
            var added: [Property] = []
            for property in model.properties where property.isStored {
                if let previous = SchemaDiff.counterpart(of: property, in: before, within: model, naming: naming) {
                    kept.insert(previous.name)
                } else if property.conversion == nil {
                    added.append(property)
                }
            }
            let converted = Set(model.properties.compactMap { $0.conversion?.sourceProperty })
            let removed = before.properties.filter {
                $0.isStored && !kept.contains($0.name) && !converted.contains($0.name)
                    && !new.acknowledgedRemovals.contains("\(model.name).\($0.name)")
                    && !new.acknowledgedRemovals.contains("\(before.name).\($0.name)")
            }
            for property in added {
                let alike = removed.filter { SchemaDiff.sameStoredType($0, property, old: old, new: new) }
                guard !alike.isEmpty else { continue }
                removedFor["\(model.name).\(property.name)"] = alike.map(\.name)
                for gone in alike { addedFor["\(before.name).\(gone.name)", default: []].append(property) }
            }
        }
    }

    /// One possible rename, in words: the question, and what to write if the answer is yes.
    struct Question {
        var asked: String
        var write: String
    }

    /// For a property the step adds: "is `heading` `title` renamed?", or nil.
    func question(added property: Property, in model: ModelDecl) -> Question? {
        guard let old = removedFor["\(model.name).\(property.name)"], let first = old.first else { return nil }
        return Question(
            asked: "is `\(property.name)` \(Self.alternatives(old.map { "`\($0)`" })) renamed?",
            write: Self.rename(property, from: first)
                + (old.count > 1 ? " (or renamedFrom: \(old.dropFirst().joined(separator: " or ")))" : ""))
    }

    /// For a property the step removes (`OldModel.name`): "is `title` renamed to `heading`?", or nil.
    func question(removed name: String, of oldModel: String) -> Question? {
        guard let added = addedFor["\(oldModel).\(name)"], let first = added.first else { return nil }
        return Question(
            asked: "is `\(name)` renamed to \(Self.alternatives(added.map { "`\($0.name)`" }))?",
            write: Self.rename(first, from: name)
                + (added.count > 1
                    ? " (or the same on \(added.dropFirst().map(\.name).joined(separator: " or ")))" : ""))
    }

    /// For a model the step removes: is it renamed to a model added with the same properties? Then
    /// `renamedFrom` on the new model plans the copy of every row (`planModelRename`).
    func question(removedModel name: String) -> Question? {
        guard let added = modelsAddedFor[name], let first = added.first else { return nil }
        return Question(
            asked: "is `\(name)` renamed to \(Self.alternatives(added.map { "`\($0)`" }))?",
            write:
                "renamedFrom: \(name) on \(first) (the plan copies every \(name) into a \(first) and moves its links)"
                + (added.count > 1 ? " (or on \(added.dropFirst().joined(separator: " or ")))" : ""))
    }

    /// A model's stored properties by name and type, for telling a renamed model by its shape.
    private static func shape(of model: ModelDecl) -> Set<String> {
        Set(model.properties.filter(\.isStored).map { "\($0.name): \(SchemaDiff.typeDescription($0))" })
    }

    private static func rename(_ property: Property, from old: String) -> String {
        let type = SchemaDiff.typeDescription(property)
        return "\(property.name): { type: \(type.hasPrefix("[") ? "\"\(type)\"" : type), renamedFrom: \(old) }"
    }

    private static func alternatives(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}
