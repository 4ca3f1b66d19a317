/// Uniqueness and index groups: they name stored attributes, and become `#Unique`/`#Index` on
/// the 18 releases or single-property `@Attribute(.unique)` before them.
extension VersionResolver {
    mutating func resolveKeyPathGroups(_ model: inout ModelDecl, all models: [ModelDecl]) {
        guard let ast = modelASTs[model.name] else { return }
        let inherited = ancestors(of: model.name, in: models)
        let visible = inherited.isEmpty ? model.properties : model.properties + inherited.flatMap(\.properties)
        func checked(_ groups: [Located<[Located<String>]>], what: String) -> [Located<[String]>] {
            var result: [Located<[String]>] = []
            var seen: Set<[String]> = []
            for group in groups {
                var names: [String] = []
                for name in group.value {
                    guard let property = visible.first(where: { $0.name == name.value }) else {
                        let notes = Diagnostic.Note.suggestion(
                            for: name.value, in: visible.map { ($0.name, $0.location) })
                        diagnostics.append(
                            .error(
                                .unknownKeyPathProperty,
                                "\(what) names '\(name.value)', which is not a property of \(model.name)",
                                at: name.location, notes: notes))
                        continue
                    }
                    if let refusal = Self.refusal(of: property, in: what) {
                        diagnostics.append(
                            .error(
                                .unknownKeyPathProperty, "\(what) cannot name '\(name.value)': \(refusal)",
                                at: name.location))
                        continue
                    }
                    names.append(storedName(property))
                }
                guard names.count == group.value.count else { continue }
                if !seen.insert(names).inserted {
                    diagnostics.append(
                        .error(
                            .duplicateKeyPathGroup, "this \(what) group repeats an earlier one; remove it",
                            at: group.location))
                    continue
                }
                result.append(Located(names, at: group.location))
            }
            return result
        }
        var unique = checked(ast.unique, what: "unique")
        let indexes = checked(ast.indexes, what: "indexes")
        let flagged = ast.properties.filter { $0.unique?.value == true && $0.transient?.value != true }
        // A property unique both ways (`unique: true` and a group of it alone), as apps ship
        // `@Attribute(.unique)` beside `#Unique`: both are kept, so the generated class declares
        // what the app's does (how SwiftData counts the two is not settled:
        // docs/version-hash-recipe.md).
        var uniqueTwice: Set<String> = []
        for propertyAST in flagged {
            guard let property = model.property(named: propertyAST.name.value), property.relationship == nil else {
                continue
            }
            let group = [storedName(property)]
            if !unique.contains(where: { $0.value == group }) {
                unique.append(Located(group, at: propertyAST.unique?.location ?? propertyAST.name.location))
            } else if config.supportsUniqueMacros {
                uniqueTwice.insert(property.name)
            }
        }
        if config.supportsUniqueMacros {
            model.uniqueGroups = unique.map(\.value)
            model.indexGroups = indexes.map(\.value)
            for index in model.properties.indices
            where model.properties[index].isUnique && !uniqueTwice.contains(model.properties[index].name) {
                model.properties[index].isUnique = false
            }
        } else {
            for group in unique {
                guard group.value.count == 1 else {
                    diagnostics.append(
                        .error(
                            .uniqueNeedsNewerPlatform,
                            "a compound unique constraint needs #Unique, which needs "
                                + "\(config.describe(GeneratorConfig.uniqueMacroReleases)); raise the platforms in the "
                                + "config or constrain one property",
                            at: group.location))
                    continue
                }
                let stored = group.value[0]
                if let related = model.properties.first(where: { storedName($0) == stored && $0.relationship != nil }) {
                    diagnostics.append(
                        .error(
                            .uniqueNeedsNewerPlatform,
                            "a unique relationship ('\(related.name)') needs #Unique, which needs "
                                + "\(config.describe(GeneratorConfig.uniqueMacroReleases)); raise the platforms in the "
                                + "config",
                            at: group.location))
                    continue
                }
                if let index = model.properties.firstIndex(where: { storedName($0) == stored }) {
                    model.properties[index].isUnique = true
                }
            }
            for group in indexes {
                diagnostics.append(
                    .error(
                        .indexNeedsNewerPlatform,
                        "indexes need #Index, which needs "
                            + "\(config.describe(GeneratorConfig.uniqueMacroReleases)); raise the platforms in the "
                            + "config or remove the index",
                        at: group.location))
            }
        }
        if syncsWithCloudKit {
            for group in unique {
                diagnostics.append(
                    .error(
                        .cloudKitUnique,
                        "CloudKit does not support unique constraints; remove this one from \(model.name) or turn "
                            + "CloudKit off",
                        at: group.location))
            }
        }
    }

    /// Why a group cannot hold `property`, or nil. A unique group holds plain attributes and to-one
    /// relationships (Core Data constrains one by its foreign key, and Apple's hash of a shipped
    /// app's entity holds such a group: docs/version-hash-recipe.md); Core Data refuses a composite
    /// (an enum stored as itself, a Codable struct) in a constraint when it loads the model. An
    /// index holds plain attributes.
    static func refusal(of property: Property, in what: String) -> String? {
        if property.isTransient { return "it is transient, so nothing is stored to compare" }
        guard property.isStored else { return "it is not stored" }
        switch property.kind {
        case .relationship(let r):
            if r.isToMany { return "it is a to-many relationship; a group can hold a to-one" }
            return what == "unique" ? nil : "it is a relationship; an index holds stored attributes"
        case .attribute(.composite, _), .attribute(.enumeration(_, _, .value), _):
            return "it is stored as a composite (a Codable struct or an enum stored as itself), which Core Data "
                + "refuses in a constraint when it loads the model; constrain a plain attribute"
        case .attribute:
            return nil
        }
    }

    /// The property the store holds: enums are stored through their raw value.
    func storedName(_ property: Property) -> String {
        config.naming.storedName(property)
    }
}
