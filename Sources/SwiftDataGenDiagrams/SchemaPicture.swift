import SwiftDataGenCore

/// What a diagram shows, decided once for every format: the models of one version, or the step
/// between two with each change marked. The Mermaid and DOT renderers only lay it out.
public struct SchemaPicture: Sendable, Equatable {
    /// How a model, property or relationship fares in the step drawn; `.same` in a version's picture.
    public enum Mark: Sendable, Equatable {
        case same
        case added
        /// Drawn from the older version, with what happens to its data.
        case removed(String)
        case renamed(from: String)
        /// Stored values rewritten (`convert`, a link from text), in words.
        case converted(String)
        /// Anything else the step changes about it, in words.
        case changed([String])

        /// Words for a label; nil when there is nothing to say.
        public var words: String? {
            switch self {
            case .same: return nil
            case .added: return "added"
            case .removed(let fate): return "removed: " + fate
            case .renamed(let from): return "renamed from " + from
            case .converted(let how): return "converted: " + how
            case .changed(let what): return what.joined(separator: "; ")
            }
        }
    }

    /// How many objects of one end a single object of the other end relates to.
    public enum Multiplicity: Sendable, Equatable {
        case zeroOrOne, exactlyOne, zeroOrMore, oneOrMore
    }

    public struct Attribute: Sendable, Equatable {
        public var name: String
        /// The Swift spelling without `?`: `String`, `[String]`, `TripStatus`.
        public var type: String
        public var isOptional: Bool
        public var isUnique: Bool
        public var mark: Mark
    }

    public struct Entity: Sendable, Equatable {
        public var name: String
        public var attributes: [Attribute]
        /// Compound uniqueness and indexes, as `unique (a, b)`: what one attribute row cannot say.
        public var notes: [String]
        public var mark: Mark
    }

    /// One relationship, or an inverse pair drawn once.
    public struct Link: Sendable, Equatable {
        public struct End: Sendable, Equatable {
            public var entity: String
            /// The property of this end's entity that points at the other end; nil at the far end
            /// of a one-way relationship.
            public var property: String?
            /// How many objects of the other end that property holds.
            public var holds: Multiplicity?
            public var deleteRule: DeleteRule?
        }

        public var from: End
        public var to: End
        public var mark: Mark

        public var isOneWay: Bool { from.property == nil || to.property == nil }

        /// `stops (cascade) / trip (nullify)`, and what the step does to it.
        public var label: String {
            var sides: [String] = []
            for end in [from, to] {
                guard let property = end.property else { continue }
                sides.append("\(property) (\(end.deleteRule?.rawValue ?? "nullify"))")
            }
            var text = sides.joined(separator: " / ")
            if isOneWay { text += ", one-way" }
            if let words = mark.words { text += "; " + words }
            return text
        }

        /// How many objects of `end`'s entity one object of the other end relates to: what its
        /// property holds, or any number when nothing points back.
        public func multiplicity(at end: End) -> Multiplicity {
            let other = end == from ? to : from
            return other.holds ?? .zeroOrMore
        }
    }

    public struct Inheritance: Sendable, Equatable {
        public var subclass: String
        public var superclass: String
    }

    /// `Trips 3.0.0` or `Trips 2.0.0 → 3.0.0`.
    public var title: String
    public var entities: [Entity]
    public var links: [Link]
    public var inheritance: [Inheritance]
    /// For a step: the stages SwiftData runs, as the plan report says them.
    public var stages: [String]
    /// For a step: changes no model, property or relationship of the picture carries (enum
    /// cases), in words.
    public var otherChanges: [String]
}

extension SchemaPicture {
    /// One version as it is stored.
    public init(schema: String, version: SchemaVersion) {
        var builder = PictureBuilder()
        for model in version.models { builder.add(model, of: version) }
        self.init(
            title: "\(schema) \(version.version)", entities: builder.entities, links: builder.links,
            inheritance: builder.inheritance, stages: [], otherChanges: [])
    }

    /// The step from `old` to `new`: the new version's models, the removed ones from the old
    /// version, each change marked where it happens.
    public init(
        schema: String, from old: SchemaVersion, to new: SchemaVersion, step: MigrationPlan.Step, stages: [String]
    ) {
        let marks = StepMarks(step)
        var builder = PictureBuilder()
        builder.marks = marks
        for model in new.models { builder.add(model, of: new) }
        for model in old.models where marks.removedModels[model.name] != nil {
            builder.add(model, of: old, removed: marks.removedModels[model.name] ?? "")
        }
        for model in new.models {
            guard let before = SchemaDiff.counterpart(of: model, in: old) else { continue }
            for property in before.properties where property.isStored {
                guard let fate = marks.removedProperties["\(model.name).\(property.name)"] else { continue }
                builder.addRemoved(property, of: model.name, fate: fate)
            }
        }
        self.init(
            title: "\(schema) \(old.version) → \(new.version)", entities: builder.entities, links: builder.links,
            inheritance: builder.inheritance, stages: stages, otherChanges: marks.unplaced)
    }
}

/// The marks of one step, by `Model` and `Model.property` of the newer version (removed ones by
/// the older version's names).
struct StepMarks {
    var models: [String: SchemaPicture.Mark] = [:]
    var properties: [String: SchemaPicture.Mark] = [:]
    var removedModels: [String: String] = [:]
    var removedProperties: [String: String] = [:]
    var modelNotes: [String: [String]] = [:]
    var unplaced: [String] = []

    init() {}

    init(_ step: MigrationPlan.Step) {
        let conversions = StepConversions(step)
        func converted(_ key: String) -> String? {
            switch conversions.targets[key] {
            case .convert(let c)?:
                return
                    "from \(c.source) (\(c.sourceType == c.targetType ? c.targetType : "\(c.sourceType) → \(c.targetType)"))"
            case .link(let l)?: return "linked by \(l.source) to \(l.targetModel).\(l.matchKey)"
            case .relink?: return "its links moved to the renamed model's copies"
            case .deduplicate?, .copy?, .hook?, nil: return nil
            }
        }
        for change in step.changes {
            switch change {
            case .modelAdded(let m): models[m] = .added
            case .modelRemoved(let m): removedModels[m] = "its objects are deleted"
            case .modelRenamed(let from, let to): models[to] = .renamed(from: from)
            case .superclassChanged(let m, let from, let to):
                add(model: m, "superclass \(from ?? "none") → \(to ?? "none")")
            case .propertyAdded(let m, let p):
                properties["\(m).\(p)"] = converted("\(m).\(p)").map { .converted($0) } ?? .added
            case .propertyRemoved(let m, let p):
                removedProperties["\(m).\(p)"] =
                    conversions.sources.contains("\(m).\(p)")
                    ? "read by a conversion, then dropped" : "its values are dropped"
            case .propertyRenamed(let m, let from, let to): properties["\(m).\(to)"] = .renamed(from: from)
            case .columnAdopted(let m, let from, let to, let column):
                properties["\(m).\(to)"] = .changed(["takes over \(from)'s column \(column)"])
            case .storedNameChanged(let m, let p, let from, let to): add(m, p, "stored as \(to), was \(from)")
            case .typeChanged(let m, let p, let from, let to):
                properties["\(m).\(p)"] = .converted(converted("\(m).\(p)") ?? "\(from) → \(to)")
            case .optionalityChanged(let m, let p, let nowOptional):
                add(m, p, nowOptional ? "now optional" : "now required")
            case .defaultChanged(let m, let p): add(m, p, "new default")
            case .uniquenessAdded(let m, let ps):
                if ps.count == 1 { add(m, ps[0], "made unique") } else { add(model: m, "made unique by (\(list(ps)))") }
            case .uniquenessRemoved(let m, let ps):
                if ps.count == 1 {
                    add(m, ps[0], "no longer unique")
                } else {
                    add(model: m, "no longer unique by (\(list(ps)))")
                }
            case .indexAdded(let m, let ps): add(model: m, "index (\(list(ps))) added")
            case .indexRemoved(let m, let ps): add(model: m, "index (\(list(ps))) removed")
            case .inverseChanged(let m, let p, let from, let to):
                add(m, p, "inverse \(from ?? "none") → \(to ?? "none")")
            case .deleteRuleChanged(let m, let p, let from, let to):
                add(m, p, "delete rule \(from.rawValue) → \(to.rawValue)")
            case .cardinalityChanged(let m, let p, let from, let to): add(m, p, "\(from) → \(to)")
            case .attributeOptionsChanged(let m, let p, let from, let to):
                add(m, p, "options [\(list(from))] → [\(list(to))]")
            case .hashModifierChanged(let m, let p, let from, let to):
                add(m, p, "hash modifier \(from ?? "none") → \(to ?? "none")")
            case .enumCasesAdded, .enumCasesRemoved: unplaced.append(change.summary)
            }
        }
    }

    private func list(_ names: [String]) -> String { names.joined(separator: ", ") }

    private mutating func add(_ model: String, _ property: String, _ words: String) {
        let key = "\(model).\(property)"
        switch properties[key] {
        case .changed(let earlier)?: properties[key] = .changed(earlier + [words])
        case nil, .same?: properties[key] = .changed([words])
        case .renamed(let from)?: properties[key] = .renamed(from: from + "; " + words)
        case .converted(let how)?: properties[key] = .converted(how + "; " + words)
        // Everything about a new property is new; a removed one is drawn from the old version.
        case .added?, .removed?: break
        }
    }

    private mutating func add(model: String, _ words: String) {
        modelNotes[model, default: []].append(words)
    }
}

/// What a step's conversions and links read and fill, by the newer version's model names: the
/// actions name the older version's model, the changes the newer one's.
struct StepConversions {
    /// `Model.property` filled → the action that fills it.
    var targets: [String: MigrationPlan.Action] = [:]
    /// `Model.property` read: removed by the step, its values moved first.
    var sources: Set<String> = []

    init(_ step: MigrationPlan.Step) {
        var renamed: [String: String] = [:]
        for case .modelRenamed(let from, let to) in step.changes { renamed[from] = to }
        for action in step.stages.flatMap(\.actions) {
            switch action {
            case .convert(let c):
                targets["\(renamed[c.model] ?? c.model).\(c.property)"] = action
                sources.insert("\(renamed[c.model] ?? c.model).\(c.source)")
            case .link(let l):
                targets["\(renamed[l.model] ?? l.model).\(l.property)"] = action
                sources.insert("\(renamed[l.model] ?? l.model).\(l.source)")
            case .relink(let r) where r.copyLink == nil:
                for link in r.links { targets["\(renamed[r.model] ?? r.model).\(link.source)"] = action }
            case .deduplicate, .copy, .relink, .hook: break
            }
        }
    }
}

/// Turns models into entities, links and inheritance, each inverse pair once.
struct PictureBuilder {
    var marks = StepMarks()
    var entities: [SchemaPicture.Entity] = []
    var links: [SchemaPicture.Link] = []
    var inheritance: [SchemaPicture.Inheritance] = []
    private var drawn: Set<String> = []

    /// Adds `model` of `version` (where its relationships' inverses are looked up).
    mutating func add(_ model: ModelDecl, of version: SchemaVersion, removed fate: String? = nil) {
        let mark = fate.map { SchemaPicture.Mark.removed($0) } ?? marks.models[model.name] ?? .same
        var attributes: [SchemaPicture.Attribute] = []
        for property in model.properties where property.isStored && property.relationship == nil {
            attributes.append(
                SchemaPicture.Attribute(
                    name: property.name, type: Self.type(of: property), isOptional: property.isOptional,
                    isUnique: Self.isUnique(property, in: model),
                    mark: fate == nil ? marks.properties["\(model.name).\(property.name)"] ?? .same : .same))
        }
        var notes = model.uniqueGroups.filter { $0.count > 1 }.map { "unique (\($0.joined(separator: ", ")))" }
        notes += model.indexGroups.map { "index (\($0.joined(separator: ", ")))" }
        // A constraint the step adds is said in its own row.
        for note in fate == nil ? marks.modelNotes[model.name] ?? [] : [] {
            if let index = notes.firstIndex(where: { note == $0 + " added" }) {
                notes[index] = note
            } else {
                notes.append(note)
            }
        }
        entities.append(
            SchemaPicture.Entity(
                name: model.name, attributes: attributes, notes: notes, mark: mark))
        if let superclass = model.superclass {
            inheritance.append(SchemaPicture.Inheritance(subclass: model.name, superclass: superclass))
        }
        for property in model.properties where property.isStored {
            guard let relationship = property.relationship else { continue }
            let here = "\(model.name).\(property.name)"
            let there = relationship.inverse.map { "\(relationship.target).\($0)" }
            guard drawn.insert(here).inserted else { continue }
            if let there { drawn.insert(there) }
            let linkMark =
                fate.map { _ in SchemaPicture.Mark.removed("dropped with \(model.name)") }
                ?? marks.properties[here] ?? there.flatMap { marks.properties[$0] } ?? .same
            let inverse = relationship.inverse.flatMap {
                version.model(named: relationship.target)?.property(named: $0)
            }
            links.append(
                SchemaPicture.Link(
                    from: Self.end(model.name, property), to: Self.end(relationship.target, inverse), mark: linkMark))
        }
    }

    /// A property the step removes, drawn in its model with what happens to its values.
    mutating func addRemoved(_ property: Property, of model: String, fate: String) {
        if let relationship = property.relationship {
            // Drawn already when its inverse went with a removed model.
            guard drawn.insert("\(model).\(property.name)").inserted else { return }
            if let inverse = relationship.inverse { drawn.insert("\(relationship.target).\(inverse)") }
            links.append(
                SchemaPicture.Link(
                    from: Self.end(model, property), to: Self.end(relationship.target, nil), mark: .removed(fate)))
        } else if let index = entities.firstIndex(where: { $0.name == model }) {
            entities[index].attributes.append(
                SchemaPicture.Attribute(
                    name: property.name, type: Self.type(of: property), isOptional: property.isOptional,
                    isUnique: property.isUnique, mark: .removed(fate)))
        }
    }

    static func end(_ entity: String, _ property: Property?) -> SchemaPicture.Link.End {
        guard let property, let relationship = property.relationship else {
            return .init(entity: entity, property: nil, holds: nil, deleteRule: nil)
        }
        let holds: SchemaPicture.Multiplicity
        if relationship.isToMany {
            holds = (relationship.minCount ?? 0) > 0 ? .oneOrMore : .zeroOrMore
        } else {
            holds = property.isOptional ? .zeroOrOne : .exactlyOne
        }
        return .init(entity: entity, property: property.name, holds: holds, deleteRule: relationship.deleteRule)
    }

    static func type(of property: Property) -> String {
        let text = SchemaDiff.typeDescription(property)
        return property.isOptional && text.hasSuffix("?") ? String(text.dropLast()) : text
    }

    static func isUnique(_ property: Property, in model: ModelDecl) -> Bool {
        property.isUnique || model.uniqueGroups.contains([property.name])
    }
}

/// Why a picture cannot be drawn: a version or step the history does not have.
public struct PictureError: Error, Equatable, Sendable {
    public var message: String
}

extension SchemaPicture {
    /// The picture of `version` (the latest when nil) of a planned history.
    public static func version(_ version: SemanticVersion?, of history: SchemaHistory) -> Result<Self, PictureError> {
        guard let chosen = version.map({ number in history.versions.first { $0.version == number } }) ?? history.latest
        else {
            return .failure(
                PictureError(
                    message: "\(history.name) has no version \(version.map { "\($0)" } ?? "")"
                        + "; it has \(history.versions.map { "\($0.version)" }.joined(separator: ", "))"))
        }
        return .success(SchemaPicture(schema: history.name, version: chosen))
    }

    /// The step from `from` to `to` (the last step when nil), which must be consecutive versions.
    public static func step(
        _ range: (from: SemanticVersion, to: SemanticVersion)?, of history: SchemaHistory, plan: MigrationPlan
    ) -> Result<Self, PictureError> {
        let versions = history.versions
        let known = versions.map { "\($0.version)" }.joined(separator: ", ")
        guard versions.count > 1 else {
            return .failure(PictureError(message: "\(history.name) has one version (\(known)), so no step to draw"))
        }
        let index: Int
        if let range {
            guard let start = versions.firstIndex(where: { $0.version == range.from }),
                versions.contains(where: { $0.version == range.to })
            else {
                return .failure(
                    PictureError(
                        message: "\(history.name) has no step \(range.from)..\(range.to); its versions are \(known)"))
            }
            guard start + 1 < versions.count, versions[start + 1].version == range.to else {
                return .failure(
                    PictureError(
                        message: "\(range.from)..\(range.to) is not one step; a change diagram draws consecutive "
                            + "versions, one of: "
                            + zip(versions, versions.dropFirst()).map { "\($0.version)..\($1.version)" }
                            .joined(separator: ", ")))
            }
            index = start
        } else {
            index = versions.count - 2
        }
        let (old, new) = (versions[index], versions[index + 1])
        guard let step = plan.steps.first(where: { $0.from == old.version && $0.to == new.version }) else {
            return .failure(PictureError(message: "the plan has no step \(old.version)..\(new.version)"))
        }
        let stages =
            PlanReport(plans: [(history, plan)]).steps.first {
                $0.from == "\(old.version)" && $0.to == "\(new.version)"
            }?
            .stages ?? []
        return .success(SchemaPicture(schema: history.name, from: old, to: new, step: step, stages: stages))
    }
}
