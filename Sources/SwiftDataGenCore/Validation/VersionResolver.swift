/// Resolves one version file into a `SchemaVersion`, enforcing the rules of a single version:
/// names, types, defaults, attribute options, relationships, uniqueness, indexes, inheritance and
/// CloudKit. Problems in one model never hide problems in another.
struct VersionResolver {
    let file: VersionFile
    let config: GeneratorConfig
    var diagnostics: [Diagnostic] = []

    private var enums: [String: EnumDecl] = [:]
    private var modelASTs: [String: ModelAST] = [:]

    init(file: VersionFile, config: GeneratorConfig) {
        self.file = file
        self.config = config
    }

    mutating func resolve() -> SchemaVersion {
        var typeNames: [String: SourceLocation] = [:]
        let enumDecls = file.enums.compactMap { ast -> EnumDecl? in
            guard claimTypeName(ast.name, in: &typeNames) else { return nil }
            return resolveEnum(ast)
        }
        enums = Dictionary(enumDecls.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for model in file.models where claimTypeName(model.name, in: &typeNames) {
            modelASTs[model.name.value] = model
        }
        let orderedModels = file.models.filter { modelASTs[$0.name.value]?.name.location == $0.name.location }
        var models: [ModelDecl] = []
        for ast in orderedModels { models.append(resolveModel(ast)) }
        checkInheritance(&models)
        pairRelationships(&models)
        for index in models.indices {
            resolveKeyPathGroups(&models[index], all: models)
        }
        if config.cloudKit { checkCloudKit(models) }
        var version = SchemaVersion(
            version: file.version.value, file: file.file, location: file.version.location,
            enums: enumDecls, models: models)
        version.acknowledgedRemovals = Set(file.acknowledgedRemovals.map(\.value))
        version.customMigration = file.customMigration?.value ?? false
        return version
    }

    private mutating func claimTypeName(_ name: Located<String>, in seen: inout [String: SourceLocation]) -> Bool {
        if let first = seen[name.value] {
            diagnostics.append(.error(.duplicateName, "'\(name.value)' is declared twice in this version", at: name.location, notes: [.init("first declared here", at: first)]))
            return false
        }
        if Identifier.reservedTypeNames.contains(name.value) {
            diagnostics.append(.error(
                .reservedName, "'\(name.value)' would clash with a type the generated code uses; rename it (for example \(file.schema.value)\(name.value))",
                at: name.location))
            return false
        }
        if name.value.hasPrefix("_") {
            diagnostics.append(.error(.reservedName, "type names may not start with '_'", at: name.location))
            return false
        }
        seen[name.value] = name.location
        return true
    }

    private mutating func resolveEnum(_ ast: EnumAST) -> EnumDecl? {
        guard let rawType = ScalarType(rawValue: ast.rawType.value) else { return nil }
        var cases: [EnumDecl.Case] = []
        var names: [String: SourceLocation] = [:]
        var raws: [LiteralValue: SourceLocation] = [:]
        for item in ast.cases {
            if let first = names[item.name.value] {
                diagnostics.append(.error(.duplicateName, "case '\(item.name.value)' appears twice in enum \(ast.name.value)", at: item.name.location, notes: [.init("first here", at: first)]))
                continue
            }
            names[item.name.value] = item.name.location
            let raw: LiteralValue
            if let written = item.rawValue {
                let scalar = YAMLScalar(value: written.value, style: rawType == .string ? .doubleQuoted : .plain)
                switch DefaultValueResolver.literal(written.value, scalar: scalar, as: rawType, at: written.location) {
                case .success(let value): raw = value
                case .failure(let diagnostic):
                    diagnostics.append(diagnostic)
                    continue
                }
            } else if rawType == .string {
                raw = .string(item.name.value)
            } else {
                diagnostics.append(.error(.invalidValue, "cases of an Int enum need raw values: write cases as a mapping, such as { \(item.name.value): 0 }", at: item.name.location))
                continue
            }
            if let first = raws[raw] {
                diagnostics.append(.error(.duplicateName, "case '\(item.name.value)' repeats a raw value of enum \(ast.name.value); raw values are what is stored, so they must differ", at: item.name.location, notes: [.init("same raw value here", at: first)]))
                continue
            }
            raws[raw] = item.name.location
            cases.append(.init(name: item.name.value, rawValue: raw))
        }
        return EnumDecl(name: ast.name.value, rawType: rawType, cases: cases, location: ast.name.location)
    }

    private mutating func resolveModel(_ ast: ModelAST) -> ModelDecl {
        var properties: [Property] = []
        var names: [String: SourceLocation] = [:]
        for propertyAST in ast.properties {
            guard let property = resolveProperty(propertyAST, in: ast) else { continue }
            var claimed = [property.name]
            if case .attribute(.enumeration, _) = property.kind { claimed.append(property.name + config.naming.rawValueSuffix) }
            var clash = false
            for name in claimed {
                if let first = names[name] {
                    diagnostics.append(.error(.duplicateName, "'\(name)' is declared twice in model \(ast.name.value)", at: propertyAST.name.location, notes: [.init("first declared here", at: first)]))
                    clash = true
                }
            }
            if clash { continue }
            for name in claimed { names[name] = propertyAST.name.location }
            properties.append(property)
        }
        var dedupe: DedupePolicy?
        if let policy = ast.dedupe {
            if let key = properties.first(where: { $0.name == policy.orderBy.value }), key.isStored, key.relationship == nil, !key.kind.isEnumeration {
                dedupe = DedupePolicy(keepLast: policy.keepLast.value, orderBy: key.name)
            } else {
                diagnostics.append(.error(
                    .unknownKeyPathProperty, "dedupe.orderBy must name a stored attribute of \(ast.name.value) (not an enum or relationship); '\(policy.orderBy.value)' is not one",
                    at: policy.orderBy.location))
            }
        }
        return ModelDecl(
            name: ast.name.value, renamedFrom: ast.renamedFrom?.value, dedupe: dedupe, superclass: ast.superclass?.value,
            properties: properties, uniqueGroups: [], indexGroups: [], doc: ast.doc, location: ast.name.location)
    }

    private mutating func resolveProperty(_ ast: PropertyAST, in model: ModelAST) -> Property? {
        let name = ast.name
        if Identifier.reservedPropertyNames.contains(name.value) || name.value.hasPrefix("_") {
            diagnostics.append(.error(
                .reservedName, "'\(name.value)' is reserved by SwiftData, Core Data or the @Model macro; rename the property",
                at: name.location, notes: [.init("keep the stored data by adding renamedFrom: \(name.value) to the new name in a new version")]))
            return nil
        }
        let spelling = ast.type.value
        let kind: PropertyKind
        if let scalar = ScalarType(rawValue: spelling.name) {
            kind = .attribute(.scalar(scalar), isArray: spelling.isArray)
        } else if let decl = enums[spelling.name] {
            guard !spelling.isArray else {
                diagnostics.append(.error(.invalidTypeSpelling, "arrays of enums are not supported; store a [\(decl.rawType.rawValue)] or model the values as a relationship", at: ast.type.location))
                return nil
            }
            kind = .attribute(.enumeration(name: decl.name, rawType: decl.rawType), isArray: false)
        } else if modelASTs[spelling.name] != nil {
            kind = .relationship(Relationship(
                target: spelling.name, isToMany: spelling.isArray, deleteRule: ast.deleteRule?.value ?? .nullify,
                inverse: nil, declaresInverse: false, minCount: ast.minCount?.value, maxCount: ast.maxCount?.value))
        } else {
            let known = ScalarType.allCases.map(\.rawValue) + enums.keys.sorted() + modelASTs.keys.sorted()
            let notes = Identifier.suggestion(for: spelling.name, in: known).map { [Diagnostic.Note("did you mean '\($0)'?")] } ?? []
            diagnostics.append(.error(
                .unknownType, "unknown type '\(spelling.name)' for property '\(name.value)': declare it under models or enums in this version, or use a supported value type",
                at: ast.type.location, notes: notes))
            return nil
        }

        var property = Property(
            name: name.value, kind: kind, isOptional: spelling.isOptional, defaultValue: nil,
            isTransient: ast.transient?.value ?? false, isUnique: ast.unique?.value ?? false,
            flags: ast.flags.map(\.value), transformer: ast.transformer?.value,
            renamedFrom: ast.renamedFrom?.value, originalName: nil,
            conversion: ast.from.map {
                Conversion(sourceProperty: $0.property.value, expression: $0.convert?.value, matchKey: $0.match?.value, location: $0.location)
            },
            doc: ast.doc, location: name.location)

        if let expression = ast.expression {
            property.defaultValue = .expression(expression.value)
            if let literal = ast.defaultValue {
                diagnostics.append(.error(.conflictingDefaults, "property '\(name.value)' has both default and expression; keep one", at: literal.location, notes: [.init("expression is here", at: expression.location)]))
            }
        }

        switch kind {
        case .relationship(let relationship):
            checkRelationshipOptions(ast, relationship)
            if let from = ast.from, let match = from.match {
                let target = modelASTs[relationship.target]?.properties.first { $0.name.value == match.value }
                if relationship.isToMany {
                    diagnostics.append(.error(.invalidValue, "from.match links each object to one related object, so '\(name.value)' must be a to-one relationship", at: match.location))
                } else if target == nil || target?.type.value != TypeSpelling(name: "String") {
                    diagnostics.append(.error(.unknownKeyPathProperty, "from.match must name a String property of \(relationship.target) that holds the text; '\(match.value)' is not one", at: match.location))
                }
            } else if let from = ast.from {
                diagnostics.append(.error(.invalidValue, "'\(name.value)' is a relationship: to fill it from text, name the related model's key with from.match", at: from.location))
            }
        case .attribute(let valueType, let isArray):
            checkAttributeOptions(ast, valueType: valueType, isArray: isArray)
            if let match = ast.from?.match {
                diagnostics.append(.error(.invalidValue, "from.match applies to relationships; '\(name.value)' is an attribute", at: match.location))
            }
            if property.defaultValue == nil, let node = ast.defaultValue {
                switch DefaultValueResolver.resolve(node, type: valueType, isArray: isArray, isOptional: spelling.isOptional, enums: enums) {
                case .success(let value): property.defaultValue = .literal(value)
                case .failure(let diagnostic): diagnostics.append(diagnostic)
                }
            }
            if property.isTransient && property.defaultValue == nil && !property.isOptional {
                diagnostics.append(.error(.transientNeedsDefault, "@Transient property '\(name.value)' needs a default: it is not stored, so nothing else can give it a value", at: ast.transient?.location ?? name.location))
            }
        }
        return property
    }

    private mutating func checkRelationshipOptions(_ ast: PropertyAST, _ relationship: Relationship) {
        let name = ast.name.value
        var misplaced: [(String, SourceLocation)] = []
        if let d = ast.defaultValue { misplaced.append(("default", d.location)) }
        if let e = ast.expression { misplaced.append(("expression", e.location)) }
        if let t = ast.transient { misplaced.append(("transient", t.location)) }
        if let u = ast.unique { misplaced.append(("unique", u.location)) }
        if let t = ast.transformer { misplaced.append(("transformable", t.location)) }
        misplaced += ast.flags.map { ($0.value.rawValue, $0.location) }
        for (key, location) in misplaced {
            diagnostics.append(.error(.attributeOptionOnRelationship, "'\(key)' applies to attributes, but '\(name)' is a relationship to \(relationship.target); remove it", at: location))
        }
        if !relationship.isToMany {
            for count in [ast.minCount, ast.maxCount].compactMap({ $0 }) {
                diagnostics.append(.error(.invalidCount, "minCount and maxCount apply to to-many relationships; '\(name)' is to-one", at: count.location))
            }
        } else if let min = ast.minCount, let max = ast.maxCount, max.value > 0, min.value > max.value {
            diagnostics.append(.error(.invalidCount, "minCount \(min.value) is greater than maxCount \(max.value)", at: min.location, notes: [.init("maxCount is here", at: max.location)]))
        }
    }

    private mutating func checkAttributeOptions(_ ast: PropertyAST, valueType: ValueType, isArray: Bool) {
        let name = ast.name.value
        var misplaced: [(String, SourceLocation)] = []
        if let d = ast.deleteRule { misplaced.append(("deleteRule", d.location)) }
        if let i = ast.inverse { misplaced.append(("inverse", i.location)) }
        if let m = ast.minCount { misplaced.append(("minCount", m.location)) }
        if let m = ast.maxCount { misplaced.append(("maxCount", m.location)) }
        for (key, location) in misplaced {
            diagnostics.append(.error(.relationshipOptionOnAttribute, "'\(key)' applies to relationships, but '\(name)' is an attribute of type \(ast.type.value); remove it or make the type a model", at: location))
        }
        if let flag = ast.flags.first(where: { $0.value == .externalStorage }), valueType != .scalar(.data) || isArray {
            diagnostics.append(.error(.externalStorageNeedsData, "externalStorage applies only to Data properties; '\(name)' is \(ast.type.value)", at: flag.location))
        }
        if ast.transient?.value == true {
            var stored: [(String, SourceLocation)] = ast.flags.map { ($0.value.rawValue, $0.location) }
            if let u = ast.unique, u.value { stored.append(("unique", u.location)) }
            if let r = ast.renamedFrom { stored.append(("renamedFrom", r.location)) }
            if let t = ast.transformer { stored.append(("transformable", t.location)) }
            for (key, location) in stored {
                diagnostics.append(.error(.transientOption, "'\(key)' describes stored data, but '\(name)' is transient and never stored; remove one of them", at: location))
            }
        }
    }

    private func ancestors(of name: String, in models: [ModelDecl]) -> [ModelDecl] {
        var chain: [ModelDecl] = []
        var current = models.first { $0.name == name }?.superclass
        while let next = current, let model = models.first(where: { $0.name == next }), !chain.contains(where: { $0.name == next }) {
            chain.append(model)
            current = model.superclass
        }
        return chain
    }

    private mutating func checkInheritance(_ models: inout [ModelDecl]) {
        for index in models.indices {
            guard let superName = models[index].superclass, let ast = modelASTs[models[index].name]?.superclass else { continue }
            guard models.contains(where: { $0.name == superName }) else {
                let notes = Identifier.suggestion(for: superName, in: models.map(\.name)).map { [Diagnostic.Note("did you mean '\($0)'?")] } ?? []
                diagnostics.append(.error(.unknownSuperclass, "superclass '\(superName)' is not a model of this version; list it under models", at: ast.location, notes: notes))
                models[index].superclass = nil
                continue
            }
            if !config.supportsInheritance {
                diagnostics.append(.error(
                    .inheritanceNeedsNewerPlatform,
                    "model inheritance needs \(config.describe(GeneratorConfig.inheritanceReleases)); raise the platforms in the config or flatten '\(models[index].name)' into one model",
                    at: ast.location))
            }
        }
        for index in models.indices {
            var seen: Set<String> = [models[index].name]
            var current = models[index].superclass
            while let next = current {
                if seen.contains(next) {
                    if let ast = modelASTs[models[index].name]?.superclass {
                        diagnostics.append(.error(.inheritanceCycle, "model '\(models[index].name)' inherits from itself through '\(next)'; break the cycle", at: ast.location))
                    }
                    models[index].superclass = nil
                    break
                }
                seen.insert(next)
                current = models.first { $0.name == next }?.superclass
            }
        }
        for model in models where model.superclass != nil {
            let inherited = ancestors(of: model.name, in: models)
            for property in model.properties {
                if let owner = inherited.first(where: { $0.property(named: property.name) != nil }), let original = owner.property(named: property.name) {
                    diagnostics.append(.error(.overridesInheritedProperty, "'\(property.name)' is already declared by superclass \(owner.name); remove it here", at: property.location, notes: [.init("declared here", at: original.location)]))
                }
            }
        }
    }

    private struct Side: Hashable {
        var model: String
        var property: String
    }

    private mutating func pairRelationships(_ models: inout [ModelDecl]) {
        var partner: [Side: Side] = [:]
        var declared: Set<Side> = []
        for model in models {
            guard let ast = modelASTs[model.name] else { continue }
            for property in model.properties {
                guard let relationship = property.relationship,
                    let inverseName = ast.properties.first(where: { $0.name.value == property.name })?.inverse
                else { continue }
                let side = Side(model: model.name, property: property.name)
                let candidates = [models.first { $0.name == relationship.target }].compactMap { $0 } + ancestors(of: relationship.target, in: models)
                guard let owner = candidates.first(where: { $0.property(named: inverseName.value) != nil }),
                    let other = owner.property(named: inverseName.value)
                else {
                    let names = candidates.flatMap { $0.properties.filter { $0.relationship != nil }.map(\.name) }
                    let notes = Identifier.suggestion(for: inverseName.value, in: names).map { [Diagnostic.Note("did you mean '\($0)'?")] } ?? []
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
                    let otherProperty = models.first { $0.name == other.model }?.property(named: other.property)
                    if relationship.deleteRule == .nullify, let otherProperty, let otherRelationship = otherProperty.relationship,
                        !otherRelationship.isToMany, !otherProperty.isOptional
                    {
                        diagnostics.append(.error(
                            .nullifyOntoRequired,
                            "deleting a \(side.model) would set \(other.model).\(other.property) to nil, but it is not optional; make '\(other.property)' optional (\(side.model)?) or use deleteRule: cascade",
                            at: property.location, notes: [.init("'\(other.property)' is declared here", at: otherProperty.location)]))
                    }
                } else {
                    diagnostics.append(.warning(
                        .missingInverse,
                        "relationship '\(side.model).\(property.name)' has no inverse, so SwiftData cannot keep the other side in step; add inverse: <property of \(relationship.target)>",
                        at: property.location))
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
    private static func declaresInverse(_ side: Side, _ other: Side, declared: Set<Side>, models: [ModelDecl]) -> Bool {
        let mine = declared.contains(side), theirs = declared.contains(other)
        if mine != theirs { return mine }
        if side == other { return true }
        func isToMany(_ s: Side) -> Bool {
            models.first { $0.name == s.model }?.property(named: s.property)?.relationship?.isToMany ?? false
        }
        if isToMany(side) != isToMany(other) { return isToMany(side) }
        return (side.model, side.property) < (other.model, other.property)
    }

    private mutating func resolveKeyPathGroups(_ model: inout ModelDecl, all models: [ModelDecl]) {
        guard let ast = modelASTs[model.name] else { return }
        let visible = model.properties + ancestors(of: model.name, in: models).flatMap(\.properties)
        func checked(_ groups: [Located<[Located<String>]>], what: String) -> [Located<[String]>] {
            var result: [Located<[String]>] = []
            var seen: Set<[String]> = []
            for group in groups {
                var names: [String] = []
                for name in group.value {
                    guard let property = visible.first(where: { $0.name == name.value }) else {
                        let notes = Identifier.suggestion(for: name.value, in: visible.map(\.name)).map { [Diagnostic.Note("did you mean '\($0)'?")] } ?? []
                        diagnostics.append(.error(.unknownKeyPathProperty, "\(what) names '\(name.value)', which is not a property of \(model.name)", at: name.location, notes: notes))
                        continue
                    }
                    guard property.isStored, property.relationship == nil else {
                        diagnostics.append(.error(.unknownKeyPathProperty, "\(what) can name only stored attributes; '\(name.value)' is \(property.isTransient ? "transient" : "a relationship")", at: name.location))
                        continue
                    }
                    names.append(storedName(property))
                }
                guard names.count == group.value.count else { continue }
                if !seen.insert(names).inserted {
                    diagnostics.append(.error(.duplicateKeyPathGroup, "this \(what) group repeats an earlier one; remove it", at: group.location))
                    continue
                }
                result.append(Located(names, at: group.location))
            }
            return result
        }
        var unique = checked(ast.unique, what: "unique")
        let indexes = checked(ast.indexes, what: "indexes")
        let flagged = ast.properties.filter { $0.unique?.value == true && $0.transient?.value != true }
        for propertyAST in flagged {
            guard let property = model.property(named: propertyAST.name.value), property.relationship == nil else { continue }
            let group = [storedName(property)]
            if !unique.contains(where: { $0.value == group }) {
                unique.append(Located(group, at: propertyAST.unique?.location ?? propertyAST.name.location))
            }
        }
        if config.supportsUniqueMacros {
            model.uniqueGroups = unique.map(\.value)
            model.indexGroups = indexes.map(\.value)
            for index in model.properties.indices { model.properties[index].isUnique = false }
        } else {
            for group in unique {
                guard group.value.count == 1 else {
                    diagnostics.append(.error(
                        .uniqueNeedsNewerPlatform,
                        "a compound unique constraint needs #Unique, which needs \(config.describe(GeneratorConfig.uniqueMacroReleases)); raise the platforms in the config or constrain one property",
                        at: group.location))
                    continue
                }
                let stored = group.value[0]
                if let index = model.properties.firstIndex(where: { storedName($0) == stored }) {
                    model.properties[index].isUnique = true
                }
            }
            for group in indexes {
                diagnostics.append(.error(
                    .indexNeedsNewerPlatform,
                    "indexes need #Index, which needs \(config.describe(GeneratorConfig.uniqueMacroReleases)); raise the platforms in the config or remove the index",
                    at: group.location))
            }
        }
        if config.cloudKit {
            for group in unique {
                diagnostics.append(.error(.cloudKitUnique, "CloudKit does not support unique constraints; remove this one from \(model.name) or turn CloudKit off", at: group.location))
            }
        }
    }

    /// The property the store holds: enums are stored through their raw value.
    private func storedName(_ property: Property) -> String {
        if case .attribute(.enumeration, _) = property.kind { return property.name + config.naming.rawValueSuffix }
        return property.name
    }

    private mutating func checkCloudKit(_ models: [ModelDecl]) {
        for model in models {
            for property in model.properties where property.isStored {
                switch property.kind {
                case .attribute:
                    if !property.isOptional && property.defaultValue == nil {
                        diagnostics.append(.error(.cloudKitRequiredAttribute, "CloudKit needs every attribute optional or defaulted; give '\(model.name).\(property.name)' a default or make it optional", at: property.location))
                    }
                case .relationship:
                    if !property.isOptional {
                        diagnostics.append(.error(.cloudKitRequiredRelationship, "CloudKit needs every relationship optional; make '\(model.name).\(property.name)' optional by adding '?' to its type", at: property.location))
                    }
                }
            }
        }
    }
}
