/// One `<model>` element into an `ImportedVersion`.
struct ModelVersionReader {
    var file: String
    /// Entities of the previous version this one renamed (renaming identifiers).
    var renamedEntities: Set<String> = []
    /// Each `<composite>`'s fields that Core Data stores required, by composite name.
    var requiredFields: [String: [String]] = [:]

    func position(_ element: XMLElement) -> SourcePosition {
        SourcePosition(file: file, line: element.line, column: element.column)
    }

    mutating func read(_ root: XMLElement, number: Int, into notes: inout [ImportNote])
        throws(CoreDataExtractor.Failure)
        -> ImportedVersion
    {
        var models: [ImportedModel] = []
        var structs: [ImportedStruct] = []
        requiredFields = [:]
        for composite in root.children(named: "composite") {
            guard let name = composite.attribute("name") else { continue }
            requiredFields[name] = composite.children(named: "attribute").filter { $0.attribute("optional") != "YES" }
                .compactMap { $0.attribute("name") }
        }
        for element in root.children {
            switch element.name {
            case "entity": models.append(try entity(element, notes: &notes))
            case "composite": structs.append(try composite(element, notes: &notes))
            case "elements": break
            case "fetchRequest":
                notes.append(
                    .init(
                        position: position(element),
                        message:
                            "fetch request \(element.attribute("name") ?? "") is not part of the store; write it as a "
                            + "FetchDescriptor in the app"))
            case "configuration":
                notes.append(
                    .init(
                        position: position(element),
                        message:
                            "configuration \(element.attribute("name") ?? "") is not carried; SwiftData chooses "
                            + "stores with ModelConfiguration(schema:…) in the app"))
            default:
                notes.append(
                    .init(position: position(element), message: "<\(element.name)> is not a model element; not read"))
            }
        }
        return ImportedVersion(
            typeName: nil, version: (number, 0, 0), enums: [], structs: structs, models: models,
            location: position(root))
    }

    mutating func entity(_ element: XMLElement, notes: inout [ImportNote]) throws(CoreDataExtractor.Failure)
        -> ImportedModel
    {
        let name = try identifier(element, "name", what: "entity")
        var model = ImportedModel(
            name: name, superclass: element.attribute("parentEntity"), properties: [], uniqueGroups: [],
            indexGroups: [], doc: nil, location: position(element))
        if let represented = element.attribute("representedClassName"), represented != name,
            !represented.hasSuffix("." + name)
        {
            notes.append(
                .init(
                    position: position(element),
                    message:
                        "entity \(name) is represented by class \(represented); SwiftData names the entity after its "
                        + "class, so the generated class is \(name) (a class named \(represented) would be another "
                        + "entity, and the store would not open)"))
        }
        if let parent = element.attribute("parentEntity") {
            notes.append(
                .init(
                    position: position(element),
                    message:
                        "entity \(name) inherits from \(parent); SwiftData stores model inheritance from iOS 26 and "
                        + "macOS 26, so the config asks for them: below that floor, flatten the hierarchy (each model "
                        + "with its own copy of \(parent)'s attributes is another store shape, planned as a migration)"
                ))
        }
        if element.attribute("isAbstract") == "YES" {
            notes.append(
                .init(
                    position: position(element),
                    message:
                        "entity \(name) is abstract; SwiftData has no abstract models, so \(name) is generated as an "
                        + "ordinary superclass: the version hash changes and the store takes a lightweight migration"
                ))
        }
        if let modifier = element.attribute("versionHashModifier") {
            notes.append(
                .init(
                    position: position(element),
                    message:
                        "entity \(name) has versionHashModifier \"\(modifier)\", which a @Model cannot state; its "
                        + "version hash differs, so the store takes a lightweight migration to open"))
        }
        if let renamed = element.attribute("elementID") ?? element.attribute("renamingIdentifier"), renamed != name {
            renamedEntities.insert(renamed)
            notes.append(
                .init(
                    position: position(element),
                    message:
                        "entity \(name) was \(renamed) (its renaming identifier); SwiftData cannot rename a model, "
                        + "so stores of the version before would lose every \(renamed) on upgrade: keep the entity "
                        + "name \(renamed) and rename the Swift type with a typealias in the app"))
        }
        for child in element.children {
            switch child.name {
            case "attribute":
                guard let property = try attribute(child, of: name, notes: &notes) else { continue }
                model.properties.append(property)
                // The index flag of models before fetch indexes (Xcode 8).
                if child.attribute("indexed") == "YES" && !property.isTransient {
                    model.indexGroups.append([property.name])
                }
            case "relationship": model.properties.append(try relationship(child, of: name, notes: &notes))
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    model.uniqueGroups.append(
                        constraint.children(named: "constraint").compactMap { $0.attribute("value") })
                }
            case "fetchIndex":
                let properties = child.children(named: "fetchIndexElement").compactMap { $0.attribute("property") }
                if !properties.isEmpty { model.indexGroups.append(properties) }
                if child.children(named: "fetchIndexElement").contains(where: { $0.attribute("expression") != nil }) {
                    notes.append(
                        .init(
                            position: position(child),
                            message: "fetch index \(child.attribute("name") ?? "") indexes an expression; only its "
                                + "properties are carried"))
                }
            case "compoundIndexes":
                for compound in child.children(named: "compoundIndex") {
                    model.indexGroups.append(compound.children(named: "index").compactMap { $0.attribute("value") })
                }
            case "fetchedProperty":
                notes.append(
                    .init(
                        position: position(child),
                        message:
                            "fetched property \(name).\(child.attribute("name") ?? "") is not stored; write it as a "
                            + "query in an extension"))
            case "userInfo": break
            default:
                notes.append(
                    .init(position: position(child), message: "<\(child.name)> in entity \(name) is not read"))
            }
        }
        return model
    }

    /// Core Data's attribute types and the Swift type SwiftData stores the same way.
    static let attributeTypes: [String: String] = [
        "Integer 16": "Int16", "Integer 32": "Int32", "Integer 64": "Int", "Double": "Double", "Float": "Float",
        "Decimal": "Decimal", "String": "String", "Boolean": "Bool", "Date": "Date", "Binary": "Data", "UUID": "UUID",
        "URI": "URL",
    ]

    func attribute(_ element: XMLElement, of entity: String, notes: inout [ImportNote]) throws(CoreDataExtractor
        .Failure)
        -> ImportedProperty?
    {
        let name = try identifier(element, "name", what: "attribute of \(entity)")
        let type = element.attribute("attributeType") ?? "Undefined"
        var property = ImportedProperty(
            name: name, typeName: "", isOptional: element.attribute("optional") == "YES", isArray: false,
            defaultValue: nil, location: position(element))
        if let swift = Self.attributeTypes[type] {
            property.typeName = swift
        } else if type == "Transformable" {
            property.typeName = "Data"
            property.isOptional = true
            // Without a name Core Data used its keyed-unarchiver transformer, which the name says.
            property.transformer =
                element.attribute("valueTransformerName").flatMap { $0.isEmpty ? nil : $0 }
                ?? "NSKeyedUnarchiveFromData"
            notes.append(
                .init(
                    position: position(element),
                    message:
                        "\(entity).\(name) is Transformable (\(element.attribute("customClassName") ?? "no class")); "
                        + "it is carried as optional Data with transformable: \(property.transformer ?? ""), which the "
                        + "generated model decodes itself. Check on a device that the store opens without a migration: "
                        + "if it does not, SwiftData migrates it lightweight and the values stay encoded as before"))
        } else if type == "Composite", element.attribute("composite") != nil {
            // A composite attribute is a Codable struct in SwiftData (`structs:`), read from the
            // model's <composite> of that name.
            property.typeName = try identifier(element, "composite", what: "composite of \(entity).\(name)")
            if let required = requiredFields[property.typeName], !required.isEmpty {
                notes.append(
                    .init(
                        position: position(element),
                        message:
                            "\(entity).\(name) holds composite \(property.typeName), whose "
                            + "\(required.joined(separator: ", ")) Core Data stores required; SwiftData stores every "
                            + "field of a Codable struct optional, so \(entity)'s version hash differs and the store "
                            + "takes a lightweight migration"))
            }
        } else {
            let why =
                type == "Composite"
                ? "it names no composite (composite=\"…\")"
                : type == "Object ID"
                    ? "an object ID is Core Data's own reference and SwiftData stores none"
                    : "an Undefined attribute is transient-only in Core Data and stores nothing"
            notes.append(
                .init(position: position(element), message: "\(entity).\(name) is \(type): not carried, because \(why)")
            )
            return nil
        }
        property.isTransient = element.attribute("transient") == "YES"
        // A transient value is never stored, so nothing encodes it.
        if property.isTransient { property.transformer = nil }
        for (key, flag) in [
            ("allowsExternalBinaryDataStorage", "externalStorage"), ("spotlightIndexingEnabled", "spotlight"),
            ("allowsCloudEncryption", "allowsCloudEncryption"), ("preserveAfterDeletion", "preserveValueOnDeletion"),
        ] where element.attribute(key) == "YES" {
            property.flags.append(flag)
        }
        property.hashModifier = element.attribute("versionHashModifier")
        if let renamed = element.attribute("elementID") ?? element.attribute("renamingIdentifier"), renamed != name {
            property.originalName = renamed
        }
        property.defaultValue = defaultValue(element, type: type, of: "\(entity).\(name)", notes: &notes)
        if element.attribute("derived") == "YES" {
            notes.append(
                .init(
                    position: position(element),
                    message:
                        "\(entity).\(name) is derived (\(element.attribute("derivationExpression") ?? "")); it is "
                        + "carried as a stored attribute, and the app must keep it up to date"))
        }
        return property
    }

    /// `<composite name="Address">` with its attributes: a struct of the version.
    func composite(_ element: XMLElement, notes: inout [ImportNote]) throws(CoreDataExtractor.Failure) -> ImportedStruct
    {
        let name = try identifier(element, "name", what: "composite")
        var fields: [ImportedStruct.Field] = []
        for child in element.children(named: "attribute") {
            let field = try identifier(child, "name", what: "field of composite \(name)")
            let type = child.attribute("attributeType") ?? "Undefined"
            guard let swift = Self.attributeTypes[type] else {
                notes.append(
                    .init(
                        position: position(child),
                        message: "field \(name).\(field) is \(type), which a composite cannot store here; not carried"))
                continue
            }
            fields.append(
                ImportedStruct.Field(
                    name: field, typeName: swift, isOptional: child.attribute("optional") == "YES", isArray: false))
        }
        return ImportedStruct(name: name, fields: fields, location: position(element))
    }

    func defaultValue(_ element: XMLElement, type: String, of path: String, notes: inout [ImportNote])
        -> ImportedProperty.DefaultValue?
    {
        if type == "Date", let interval = element.attribute("defaultDateTimeInterval") {
            guard Double(interval) != nil else { return nil }
            return .expression("Date(timeIntervalSinceReferenceDate: \(interval))")
        }
        guard let text = element.attribute("defaultValueString") else { return nil }
        switch type {
        case "String": return .string(text)
        case "Boolean":
            switch text {
            case "YES", "1", "true": return .bool(true)
            case "NO", "0", "false": return .bool(false)
            default: break
            }
        case "Integer 16", "Integer 32", "Integer 64":
            if Int(text) != nil { return .number(text) }
        case "Double", "Float", "Decimal":
            if Double(text) != nil { return .number(text) }
        default: break
        }
        notes.append(
            .init(
                position: position(element),
                message: "the default \"\(text)\" of \(path) (\(type)) is not carried; give it default: by hand"))
        return nil
    }

    func relationship(_ element: XMLElement, of entity: String, notes: inout [ImportNote])
        throws(CoreDataExtractor.Failure) -> ImportedProperty
    {
        let name = try identifier(element, "name", what: "relationship of \(entity)")
        guard let destination = element.attribute("destinationEntity") else {
            throw CoreDataExtractor.Failure(
                description: "\(file):\(element.line):\(element.column): error: relationship \(entity).\(name) has no "
                    + "destinationEntity")
        }
        let toMany = element.attribute("toMany") == "YES"
        // Optionality is in the version hash: a to-many is `[M]?` exactly where Core Data's is
        // optional (docs/version-hash-recipe.md). A to-one is carried optional, since deleting the
        // other side must nil it; a required one is noted below.
        var property = ImportedProperty(
            name: name, typeName: destination, isOptional: toMany ? element.attribute("optional") == "YES" : true,
            isArray: toMany, defaultValue: nil, location: position(element))
        if !toMany && element.attribute("optional") != "YES" {
            notes.append(
                .init(
                    position: position(element),
                    message:
                        "\(entity).\(name) is a required to-one relationship; it is carried as optional "
                        + "(\(destination)?) so that deleting \(destination) can nil it; optionality is in the "
                        + "entity's "
                        + "version hash, so the store takes a lightweight migration: check for nil where the app "
                        + "relied on Core Data's validation"))
        }
        property.deleteRule =
            ["Cascade": "cascade", "Deny": "deny", "No Action": "noAction"][
                element.attribute("deletionRule") ?? ""] ?? "nullify"
        property.inverse = element.attribute("inverseName")
        if toMany {
            property.minimumCount = element.attribute("minCount").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            property.maximumCount = element.attribute("maxCount").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        }
        property.isTransient = element.attribute("transient") == "YES"
        property.hashModifier = element.attribute("versionHashModifier")
        if let renamed = element.attribute("elementID") ?? element.attribute("renamingIdentifier"), renamed != name {
            property.originalName = renamed
        }
        if element.attribute("ordered") == "YES" {
            notes.append(
                .init(
                    position: position(element),
                    message:
                        "\(entity).\(name) is ordered; SwiftData has no ordered relationships, so it is carried "
                        + "unordered: the order is in the version hash, so the store takes a lightweight migration, "
                        + "and the order is lost (keep a position attribute to sort by)"))
        }
        return property
    }

    /// A name Swift can declare as written, or the import stops at it.
    func identifier(_ element: XMLElement, _ attribute: String, what: String) throws(CoreDataExtractor.Failure)
        -> String
    {
        let value = element.attribute(attribute) ?? ""
        let valid =
            value.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
            && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && value.count <= 128
        guard valid else {
            throw CoreDataExtractor.Failure(
                description: "\(file):\(element.line):\(element.column): error: \(what) is named \"\(value)\", "
                    + "which is not a Swift identifier (letters, digits and _); SwiftData names stored data after "
                    + "Swift names, so rename it in the Core Data model first")
        }
        return value
    }
}
