import SwiftDataGenDSL

/// Resolves one version file into a `SchemaVersion`, enforcing the rules of a single version:
/// names, types, defaults and attribute options here; relationships, uniqueness and indexes,
/// inheritance and CloudKit in the extensions beside this file. Problems in one model never hide
/// problems in another.
struct VersionResolver {
    let file: VersionFile
    let config: GeneratorConfig
    var diagnostics: [Diagnostic] = []

    var enums: [String: EnumDecl] = [:]
    var structs: [String: StructDecl] = [:]
    var modelASTs: [String: ModelAST] = [:]
    /// Where each model is in the version being built, for lookups by name.
    var modelPositions: [String: Int] = [:]
    /// Every type name a property could hide (scalars, their spellings, the version's enums,
    /// structs and models), looked up once per property.
    private var typeNamesInScope: Set<String> = []

    init(file: VersionFile, config: GeneratorConfig) {
        self.file = file
        self.config = config
    }

    mutating func resolve() -> SchemaVersion {
        var typeNames: [String: SourceLocation] = [:]
        var enumDecls = file.enums.compactMap { ast -> EnumDecl? in
            guard claimTypeName(ast.name, in: &typeNames) else { return nil }
            return resolveEnum(ast)
        }
        enums = Dictionary(enumDecls.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let structNames = Set(file.structs.map(\.name.value))
        // Associated values name the version's enums and structs, so they are read once every name is known.
        // The first declaration of a name is the one resolved (`claimTypeName`).
        let enumASTs = Dictionary(file.enums.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        for index in enumDecls.indices {
            guard let ast = enumASTs[enumDecls[index].name] else { continue }
            resolveAssociatedValues(of: &enumDecls[index], from: ast, structNames: structNames)
            enums[enumDecls[index].name] = enumDecls[index]
        }
        let structDecls = file.structs.compactMap { ast -> StructDecl? in
            guard claimTypeName(ast.name, in: &typeNames) else { return nil }
            return resolveStruct(ast, structNames: structNames)
        }
        structs = Dictionary(structDecls.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        checkValueTypesDoNotHoldThemselves(structs: structDecls, enums: enumDecls)
        for model in file.models where claimTypeName(model.name, in: &typeNames) {
            modelASTs[model.name.value] = model
        }
        typeNamesInScope = Self.scalarTypeNames.union(typeNames.keys)
        let orderedModels = file.models.filter { modelASTs[$0.name.value]?.name.location == $0.name.location }
        var models: [ModelDecl] = []
        for ast in orderedModels { models.append(resolveModel(ast)) }
        modelPositions = Dictionary(
            models.indices.map { (models[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
        checkInheritance(&models)
        pairRelationships(&models)
        // Read from a snapshot: passing `models` itself while changing one of them would copy
        // the whole array for every model.
        let resolved = models
        for index in models.indices {
            resolveKeyPathGroups(&models[index], all: resolved)
        }
        if syncsWithCloudKit { checkCloudKit(models) }
        var version = SchemaVersion(
            version: file.version.value, file: file.file, location: file.version.location,
            enums: enumDecls, models: models)
        version.acknowledgedRemovals = Set(file.acknowledgedRemovals.map(\.value))
        version.carriedFrom = file.carriedFrom?.value
        version.customMigration = file.customMigration?.value ?? false || version.carriedFrom != nil
        version.typeName = file.typeName?.value
        version.structs = structDecls
        return version
    }

    private mutating func resolveModel(_ ast: ModelAST) -> ModelDecl {
        var properties: [Property] = []
        // Exact capacity: a history holds tens of thousands of these, and growth slack adds up.
        properties.reserveCapacity(ast.properties.count)
        var names: [String: SourceLocation] = [:]
        names.reserveCapacity(ast.properties.count)
        for propertyAST in ast.properties {
            guard let property = resolveProperty(propertyAST, in: ast) else { continue }
            let stored = config.naming.storedName(property)
            // Each name is claimed in the lookup that asks for it (one hash, not two), and given
            // back when the property is refused: a refused property claims nothing.
            let location = propertyAST.name.location
            let first = names.updateValue(location, forKey: property.name)
            if let first { names[property.name] = first }
            let firstStored = stored == property.name ? nil : names.updateValue(location, forKey: stored)
            if let firstStored { names[stored] = firstStored }
            guard first == nil && firstStored == nil else {
                for (name, earlier) in [(property.name, first), (stored, firstStored)] {
                    guard let earlier else { continue }
                    diagnostics.append(
                        .error(
                            .duplicateName, "'\(name)' is declared twice in model \(ast.name.value)",
                            at: location, notes: [.init("first declared here", at: earlier)]))
                }
                if first == nil { names[property.name] = nil }
                if firstStored == nil && stored != property.name { names[stored] = nil }
                continue
            }
            properties.append(property)
        }
        diagnostics += Self.backingStorageClashes(properties, naming: config.naming, model: ast.name.value)
        var dedupe: DedupePolicy?
        if let policy = ast.dedupe {
            let key = properties.first { $0.name == policy.orderBy.value }
            if let key, key.isSortableAttribute {
                dedupe = DedupePolicy(
                    keepLast: policy.keepLast.value, orderBy: key.name,
                    nilKeysAreEqual: policy.nilKeysAreEqual?.value ?? false,
                    location: policy.orderBy.location)
            } else {
                let sortable = properties.filter(\.isSortableAttribute).map(\.name)
                let why =
                    key == nil
                    ? "is not a property of \(ast.name.value)"
                    : "cannot order a sort (SortDescriptor needs a Comparable stored attribute: not Bool, Data, "
                        + "URL, an array, an enum or a relationship)"
                let choices =
                    sortable.isEmpty
                    ? "add a Date or number that says which object is newer"
                    : "use one of: \(sortable.joined(separator: ", "))"
                diagnostics.append(
                    .error(
                        .unknownKeyPathProperty, "dedupe.orderBy '\(policy.orderBy.value)' \(why); \(choices)",
                        at: policy.orderBy.location,
                        notes: key.map { [.init("'\($0.name)' is declared here", at: $0.location)] } ?? []))
            }
        }
        return ModelDecl(
            name: ast.name.value, renamedFrom: ast.renamedFrom?.value, dedupe: dedupe,
            superclass: ast.superclass?.value,
            properties: properties, uniqueGroups: [], indexGroups: [], doc: ast.doc, location: ast.name.location)
    }

    /// `@Model` keeps each stored property `x` in a member `_x` of its own; a declared `_x` beside
    /// a stored `x` is a redeclaration the compiler reports inside macro expansions.
    static func backingStorageClashes(_ properties: [Property], naming: NamingConfig, model: String) -> [Diagnostic] {
        // A clash needs a name `_<stored name>`: with no name starting with `_`, there is none.
        func startsWithUnderscore(_ name: String) -> Bool { name.utf8.first == UInt8(ascii: "_") }
        guard
            properties.contains(where: { startsWithUnderscore($0.name) || startsWithUnderscore(naming.storedName($0)) })
        else {
            return []
        }
        var declared: [String: Property] = [:]
        for property in properties {
            declared[naming.storedName(property)] = property
            declared[property.name] = property
        }
        return properties.compactMap { property in
            guard property.isStored, let other = declared["_" + naming.storedName(property)] else { return nil }
            return .error(
                .duplicateName,
                "'_\(naming.storedName(property))' in model \(model) is the name @Model gives the storage of "
                    + "'\(naming.storedName(property))'; rename one of them (storedName: keeps a stored name while the "
                    + "Swift name changes)",
                at: other.location,
                notes: [.init("'\(naming.storedName(property))' is stored here", at: property.location)])
        }
    }

    /// `storedName:` and `enumStorage:`: where the value is kept when that is not the property's
    /// own name and type, as apps that shipped before adopting the generator often have it.
    private mutating func resolveStorage(_ ast: PropertyAST, into property: inout Property) {
        if let storage = ast.enumStorage, !property.kind.isEnumeration {
            diagnostics.append(
                .error(
                    .invalidValue,
                    "enumStorage applies to properties of an enum type, and '\(ast.name.value)' is "
                        + "\(ast.type.value); remove it",
                    at: storage.location))
        }
        switch (ast.hashModifier, property.kind) {
        case (let modifier?, .attribute(.composite, isArray: false)),
            (let modifier?, .attribute(.enumeration(_, _, .value), isArray: false)):
            // Core Data hashes a composite attribute by its elements alone
            // (docs/version-hash-recipe.md, "The recipe", step 4).
            diagnostics.append(
                .warning(
                    .invalidValue,
                    "hashModifier on '\(ast.name.value)' does not reach SwiftData's checksum: a Codable struct or an "
                        + "enum stored as itself is hashed by its fields alone; put it on another stored property",
                    at: modifier.location))
        default:
            break
        }
        guard let stored = ast.storedName else { return }
        if property.relationship != nil || property.isTransient {
            let what =
                property.isTransient
                ? "a transient property is not stored" : "a relationship is stored under its own name"
            diagnostics.append(
                .error(.invalidValue, "storedName on '\(ast.name.value)': \(what); remove it", at: stored.location))
        } else if stored.value != property.name {
            property.storedName = stored.value
        }
    }

    private mutating func resolveProperty(_ ast: PropertyAST, in model: ModelAST) -> Property? {
        guard acceptsName(of: ast, in: model), let (kind, scalarSpelling) = resolveKind(of: ast) else { return nil }
        var property = Property(
            name: ast.name.value, kind: kind, isOptional: ast.type.value.isOptional, location: ast.name.location)
        // A key not written leaves the fresh property's value, so only the written ones are carried.
        for entry in ast.written { property.carry(entry.key, from: ast) }
        property.scalarSpelling = scalarSpelling
        resolveStorage(ast, into: &property)
        checkStoredName(of: property, ast)
        checkWitnessAccess(ast)
        resolveExpressions(ast, into: &property)
        switch kind {
        case .relationship(let relationship):
            checkRelationshipOptions(ast, relationship)
            checkLink(ast, relationship)
            if startsEmpty(ast, relationship) { property.defaultValue = .literal(.null) }
        case .attribute(let valueType, let isArray):
            checkAttributeOptions(ast, valueType: valueType, isArray: isArray)
            resolveAttribute(ast, valueType: valueType, isArray: isArray, into: &property)
        }
        return property
    }

    /// `id` meets `Identifiable`'s requirement, which every model conforms to through
    /// `PersistentModel`: in a public (or package) model it must be as visible as the model, or the
    /// generated class does not compile ("must be declared public because it matches a requirement").
    private mutating func checkWitnessAccess(_ ast: PropertyAST) {
        guard ast.name.value == "id", config.access != .internal, let written = ast.access,
            [.private, .fileprivate, .internal].contains(written.value)
        else { return }
        diagnostics.append(
            .error(
                .witnessLessVisible,
                "'id' meets Identifiable's requirement, and the models are \(config.access.rawValue): it must be "
                    + "\(config.access.rawValue) too; remove access: \(written.value.rawValue)",
                at: written.location))
    }

    /// Whether a property may have its name: not a reserved one, not a type's the code names.
    private mutating func acceptsName(of ast: PropertyAST, in model: ModelAST) -> Bool {
        let name = ast.name
        // `isDeleted: Bool` meets PersistentModel's requirement; any other type is refused by the
        // stored-name rule (`checkStoredName`).
        if meetsModelRequirement(ast) {
            diagnostics.append(
                .warning(
                    .replacesModelMember,
                    "'\(name.value)' is stored here and meets PersistentModel's requirement of that name, so app "
                        + "code reading \(model.name.value).\(name.value) gets this value, not SwiftData's flag for "
                        + "an object deleted from its context",
                    at: name.location))
            return true
        }
        if let refusal = NamePosition.property.refusal(of: name.value) {
            diagnostics.append(
                .error(
                    .reservedName,
                    "'\(name.value)' cannot name a property of a model: \(refusal.reason); rename the property",
                    at: name.location,
                    notes: [
                        .init(
                            "keep the stored data by adding renamedFrom: \(name.value) to the new name in a new version"
                        )
                    ]))
            return false
        }
        // Inside the class a property hides the type of its name, which the generated code names
        // (in its type, its initial value, the macro's metadata).
        if typeNamesInScope.contains(name.value) {
            diagnostics.append(
                .error(
                    .reservedName,
                    "property '\(name.value)' has the name of a type, which it would hide inside "
                        + "\(model.name.value); start it with a lowercase letter or choose another name",
                    at: name.location))
            return false
        }
        return true
    }

    static let scalarTypeNames = Set(ScalarType.allCases.map(\.rawValue)).union(ScalarType.spellings.keys)

    /// A property of the name and type of a PersistentModel requirement a stored property meets
    /// (the list holds one: compared, not hashed, for every property).
    func meetsModelRequirement(_ ast: PropertyAST) -> Bool {
        NamePosition.requirementsAStoredPropertyMeets.first { $0.key == ast.name.value }.map {
            ast.type.value == TypeSpelling(name: $0.value)
        }
            ?? false
    }

    /// What the property's type names: a value type (and the Swift spelling it was written with,
    /// where that is not the stored type's), an enum, a struct or a model; nil when none.
    private mutating func resolveKind(of ast: PropertyAST) -> (PropertyKind, scalarSpelling: String?)? {
        let name = ast.name
        let spelling = ast.type.value
        let kind: PropertyKind
        var scalarSpelling: String?
        if let key = spelling.dictionaryKey {
            // What an Apple-computed hash proves: `[String: Struct]` is one Binary attribute. Other
            // dictionaries (of values, enums or other keys) are not pinned yet.
            guard key == ScalarType.string.rawValue, structs[spelling.name] != nil else {
                diagnostics.append(
                    .error(
                        .invalidTypeSpelling,
                        "a dictionary property must be [String: <struct of this version>] (SwiftData stores it as one "
                            + "Binary attribute); '\(spelling)' is not, and how SwiftData stores it is not known yet",
                        at: ast.type.location))
                return nil
            }
            kind = .attribute(.dictionary(key: .string, value: spelling.name), isArray: false)
        } else if let scalar = ScalarType.named(spelling.name) {
            kind = .attribute(.scalar(scalar), isArray: spelling.isArray)
        } else if let scalar = ScalarType.spelled(spelling.name) {
            if spelling.name == "CGFloat", config.platforms[.watchOS] != nil {
                diagnostics.append(
                    .error(
                        .unknownType,
                        "CGFloat is 32 bits on watchOS, so it is not stored as a Double there; write Double (or "
                            + "Float, if the app stored that)",
                        at: ast.type.location))
                return nil
            }
            kind = .attribute(.scalar(scalar), isArray: spelling.isArray)
            scalarSpelling = spelling.name
        } else if let decl = enums[spelling.name] {
            guard !spelling.isArray else {
                diagnostics.append(
                    .error(
                        .invalidTypeSpelling,
                        "arrays of enums are not supported; store a [\(decl.rawType?.rawValue ?? "String")] or "
                            + "model the values as a relationship",
                        at: ast.type.location))
                return nil
            }
            // An enum without a raw type has no raw value to store: it is stored as itself.
            if decl.rawType == nil, let written = ast.enumStorage, written.value == .rawValue {
                diagnostics.append(
                    .error(
                        .invalidValue,
                        "\(decl.name) has no raw type, so it is stored as itself; remove enumStorage: rawValue",
                        at: written.location))
            }
            let storage = decl.rawType == nil ? .value : ast.enumStorage?.value ?? .rawValue
            kind = .attribute(.enumeration(name: decl.name, rawType: decl.rawType, storage: storage), isArray: false)
        } else if structs[spelling.name] != nil {
            kind = .attribute(.composite(name: spelling.name), isArray: spelling.isArray)
        } else if modelASTs[spelling.name] != nil {
            kind = .relationship(
                Relationship(
                    target: spelling.name, isToMany: spelling.isArray, deleteRule: ast.deleteRule?.value ?? .nullify,
                    inverse: nil, declaresInverse: false, minCount: ast.minCount?.value, maxCount: ast.maxCount?.value))
        } else {
            let known =
                ScalarType.allCases.map { ($0.rawValue, SourceLocation?.none) }
                + enums.values.sorted { $0.name < $1.name }.map { ($0.name, $0.location) }
                + modelASTs.keys.sorted().map { ($0, modelASTs[$0]?.name.location) }
            let notes = Diagnostic.Note.suggestion(for: spelling.name, in: known)
            diagnostics.append(
                .error(
                    .unknownType,
                    "unknown type '\(spelling.name)' for property '\(name.value)': declare it under models, enums "
                        + "or structs in this version, or use a supported value type",
                    at: ast.type.location,
                    notes: notes + [
                        .init(
                            "supported value types: "
                                + (ScalarType.allCases.map(\.rawValue) + ScalarType.spellings.keys.sorted())
                                .joined(separator: ", ") + "; write Name?, [Name] or [Name]?"
                        )
                    ]))
            return nil
        }

        return (kind, scalarSpelling)
    }

    /// `from.match` fills a to-one relationship from text; any other `from:` on a relationship is an error.
    private mutating func checkLink(_ ast: PropertyAST, _ relationship: Relationship) {
        let name = ast.name
        if let from = ast.from, let match = from.match {
            let target = modelASTs[relationship.target]?.properties.first { $0.name.value == match.value }
            if relationship.isToMany {
                diagnostics.append(
                    .error(
                        .invalidValue,
                        "from.match links each object to one related object, so '\(name.value)' must be a "
                            + "to-one relationship",
                        at: match.location))
            } else if target == nil || target?.type.value != TypeSpelling(name: "String") {
                diagnostics.append(
                    .error(
                        .unknownKeyPathProperty,
                        "from.match must name a String property of \(relationship.target) that holds the "
                            + "text; '\(match.value)' is not one",
                        at: match.location))
            }
        } else if let from = ast.from {
            diagnostics.append(
                .error(
                    .invalidValue,
                    "'\(name.value)' is a relationship: to fill it from text, name the related model's key "
                        + "with from.match",
                    at: from.location))
        }
    }

    /// `default: null` on an optional to-many: the app starts it nil rather than `[]`. No other
    /// initial value is written for a relationship.
    private func startsEmpty(_ ast: PropertyAST, _ relationship: Relationship) -> Bool {
        guard relationship.isToMany, ast.type.value.isOptional, let node = ast.defaultValue,
            let scalar = node.scalar
        else { return false }
        return scalar.isNull && node.tag == nil
    }

    private mutating func checkRelationshipOptions(_ ast: PropertyAST, _ relationship: Relationship) {
        let name = ast.name.value
        for (key, location) in ast.writtenKeys(for: .attribute) {
            if key == .default, startsEmpty(ast, relationship) { continue }
            diagnostics.append(
                .error(
                    .attributeOptionOnRelationship,
                    "'\(key.rawValue)' applies to attributes, but '\(name)' is a relationship to "
                        + "\(relationship.target); remove it",
                    at: location))
        }
        // On a to-one they are carried as written (apps ship `@Relationship(minimumModelCount: 1)` on
        // one); a to-one holds at most one model whatever they say.
        if !relationship.isToMany, let max = ast.maxCount, max.value != 1 {
            diagnostics.append(
                .error(
                    .invalidCount, "maxCount on the to-one '\(name)' can only be 1: it holds at most one model",
                    at: max.location))
        } else if let min = ast.minCount, let max = ast.maxCount, max.value > 0, min.value > max.value {
            diagnostics.append(
                .error(
                    .invalidCount, "minCount \(min.value) is greater than maxCount \(max.value)", at: min.location,
                    notes: [.init("maxCount is here", at: max.location)]))
        }
    }

}

extension Property {
    /// Puts a key's value where the IR keeps it. The switch is exhaustive so that a new key does not
    /// compile until it has a place here; keys that need checks against the rest of the version are
    /// resolved by the stage that can make them and say so.
    mutating func carry(_ key: PropertyKey, from ast: PropertyAST) {
        switch key {
        case .type, .deleteRule, .minCount, .maxCount, .inverse:
            return  // in `kind`; the inverse once both ends are known (VersionResolver+Relationships)
        case .default, .expression:
            return  // `resolveProperty`, once the type is known (`DefaultValueResolver` reads literals)
        case .storedName, .enumStorage:
            return  // `VersionResolver.resolveStorage`, which refuses them where nothing is stored
        case .renamedFrom: renamedFrom = ast.renamedFrom?.value
        case .transient: isTransient = ast.transient?.value ?? false
        case .unique: isUnique = ast.unique?.value ?? false
        case .externalStorage, .spotlight, .preserveValueOnDeletion, .allowsCloudEncryption, .ephemeral, .codable:
            flags = ast.flags.map(\.value)  // together, in the order written
        case .transformable: transformer = ast.transformer?.value
        case .from:
            conversion = ast.from.map {
                Conversion(
                    sourceProperty: $0.property.value, expression: $0.convert?.value, matchKey: $0.match?.value,
                    location: $0.location)
            }
        case .hashModifier: hashModifier = ast.hashModifier?.value
        case .access: access = ast.access?.value
        case .doc: carryAsWritten(key, from: ast)
        }
    }

    /// Keeps a key's value as written (`self[setting:]`), for a key the renderer reads as it is.
    mutating func carryAsWritten(_ key: PropertyKey, from ast: PropertyAST) {
        switch ast[key]?.value {
        case .flag(let flag): self[setting: key] = .flag(flag)
        case .text(let text): self[setting: key] = .text(text)
        case .integer(let number): self[setting: key] = .integer(number)
        case .literal, .conversion, .oneWay, nil: self[setting: key] = nil
        }
    }
}
