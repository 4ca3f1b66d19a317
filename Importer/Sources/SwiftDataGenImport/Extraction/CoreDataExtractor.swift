/// Reads the model versions of a `.xcdatamodeld` bundle into the same `ImportedProject` the Swift
/// importer builds, so one translator writes the YAML. SwiftData names an entity after its class,
/// so each model is named after the entity; everything the XML holds that the YAML cannot say is a
/// note at its `file:line`, with what it means for the store.
public enum CoreDataExtractor {
    public struct Result: Sendable {
        public var project: ImportedProject
        /// The version names, oldest first, as imported.
        public var order: [String]
        /// The bundle's current version, when `.xccurrentversion` names one.
        public var current: String?
        /// Any version is marked for CloudKit (`usedWithCloudKit`).
        public var cloudKit: Bool
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// `order` names the versions to import, oldest first (any left out are noted); nil takes
    /// every version, sorted by the numbers in their names.
    public static func extract(_ bundle: CoreDataBundle, order: [String]? = nil) throws(Failure) -> Result {
        let names = bundle.versions.map(\.name)
        let ordered: [String]
        if let order {
            guard Set(order).count == order.count, order.allSatisfy(names.contains), !order.isEmpty else {
                throw Failure(
                    description: "--order names versions of the bundle, each once: \(names.joined(separator: ", "))")
            }
            ordered = order
        } else {
            ordered = names.sorted(by: Self.versionOrder)
        }
        var models: [String: XMLElement] = [:]
        for version in bundle.versions where ordered.contains(version.name) {
            guard let bytes = version.bytes else {
                throw Failure(
                    description: "\(version.path): version \(version.name) is in Xcode 3's binary model format; "
                        + "open the model in Xcode once (it saves every version as XML), or leave the version out "
                        + "with --order")
            }
            switch XMLReader.parse(bytes, file: version.path) {
            case .success(let root):
                guard root.name == "model" else {
                    throw Failure(
                        description: "\(version.path):\(root.line):\(root.column): error: the root element is "
                            + "<\(root.name)>, not <model>: this is not a Core Data model")
                }
                models[version.name] = root
            case .failure(let error): throw Failure(description: error.description)
            }
        }
        var notes: [ImportNote] = []
        let left = names.filter { !ordered.contains($0) }
        if !left.isEmpty {
            notes.append(
                .init(
                    position: SourcePosition(file: bundle.path, line: 1, column: 1),
                    message:
                        "--order leaves out \(left.joined(separator: ", ")): not imported, so stores of those "
                        + "versions have no stage to upgrade from"))
        }
        let current = try currentVersion(bundle, names: names)
        if let current, let index = ordered.firstIndex(of: current), index + 1 < ordered.count {
            notes.append(
                .init(
                    position: SourcePosition(file: bundle.currentVersionFile?.path ?? bundle.path, line: 1, column: 1),
                    message:
                        "the current version is \(current), yet \(ordered[(index + 1)...].joined(separator: ", ")) "
                        + "sort after it and are imported as later versions; if they never shipped, leave them out "
                        + "with --order"))
        }
        for mapping in bundle.mappingModels { notes += mappingNotes(mapping) }
        var versions: [ImportedVersion] = []
        // Per version, the entities it renamed from (renaming identifiers): gone in SwiftData.
        var renamedEntities: [Set<String>] = []
        var cloudKit = false
        for (index, name) in ordered.enumerated() {
            guard let root = models[name], let version = bundle.versions.first(where: { $0.name == name }) else {
                continue
            }
            cloudKit = cloudKit || root.attribute("usedWithCloudKit") == "YES"
            var reader = ModelVersionReader(file: version.path)
            versions.append(try reader.read(root, number: index + 1, into: &notes))
            renamedEntities.append(reader.renamedEntities)
        }
        for index in versions.indices.dropFirst() {
            notes += typeChanges(from: versions[index - 1], to: versions[index])
            // A renamed entity's rows survived in Core Data; losing them is new, so it is not acknowledged.
            versions[index].acknowledgedRemovals = removals(from: versions[index - 1], to: versions[index]).filter {
                !renamedEntities[index].contains($0)
            }
        }
        return Result(
            project: ImportedProject(versions: versions, migrationPlan: nil, unversioned: nil, notes: notes),
            order: ordered, current: current, cloudKit: cloudKit)
    }

    /// A mapping model: each entity mapping with a custom `NSEntityMigrationPolicy` is code the
    /// team wrote for that step, which becomes a hook; the rest the plan's stages infer.
    static func mappingNotes(_ mapping: (path: String, bytes: [UInt8]?)) -> [ImportNote] {
        let file = mapping.path + "/xcmapping.xml"
        let general = ImportNote(
            position: SourcePosition(file: mapping.path, line: 1, column: 1),
            message:
                "a mapping model: the plan's stages do what its inferred mappings did; a custom "
                + "NSEntityMigrationPolicy becomes a hook you write (customMigration: true on the version it "
                + "leads into)"
        )
        guard let bytes = mapping.bytes else { return [general] }
        let root: XMLElement
        switch XMLReader.parse(bytes, file: file) {
        case .success(let parsed): root = parsed
        case .failure(let error):
            return [
                general,
                ImportNote(
                    position: SourcePosition(file: error.file, line: error.line, column: error.column),
                    message: "the mapping model could not be read (\(error.message)); check its policies by hand"),
            ]
        }
        var notes = [general]
        for object in root.children(named: "object") where object.attribute("type") == "XDDEVENTITYMAPPING" {
            func value(_ name: String) -> String? {
                object.children(named: "attribute").first { $0.attribute("name") == name }?.text
            }
            guard let policy = value("migrationpolicyclassname"), !policy.isEmpty else { continue }
            notes.append(
                ImportNote(
                    position: SourcePosition(file: file, line: object.line, column: object.column),
                    message:
                        "the mapping \(value("sourcename") ?? "?") → \(value("destinationname") ?? "?") runs the "
                        + "custom policy \(policy): write what it does as a hook (customMigration: true on the "
                        + "version it leads into), or as from: { convert: } where it converts values"))
        }
        return notes
    }

    /// A property that keeps its name but not its type: Core Data moved it with a mapping model
    /// or dropped its values; the YAML must say which (`from:` with `convert:`), or the generator
    /// refuses the step.
    static func typeChanges(from old: ImportedVersion, to new: ImportedVersion) -> [ImportNote] {
        var notes: [ImportNote] = []
        for model in new.models {
            guard let before = old.models.first(where: { $0.name == model.name }) else { continue }
            for property in model.properties {
                guard let previous = before.properties.first(where: { $0.name == property.name }),
                    previous.typeName != property.typeName || previous.isArray != property.isArray
                else { continue }
                let (was, now) = (
                    previous.isArray ? "[\(previous.typeName)]" : previous.typeName,
                    property.isArray ? "[\(property.typeName)]" : property.typeName
                )
                notes.append(
                    .init(
                        position: property.location,
                        message:
                            "\(model.name).\(property.name) changes from \(was) to \(now) here; Core Data needed a "
                            + "mapping model for that or dropped the values. Say which in this version's YAML: "
                            + "from: { property: \(property.name), convert: \"<Swift over $0>\" } under a new name, "
                            + "or remove it in one version and add it in the next"))
            }
        }
        return notes
    }

    /// What a shipped version dropped: Core Data's lightweight migration deleted it on every
    /// device, so the YAML acknowledges it rather than warn of a loss that already happened.
    static func removals(from old: ImportedVersion, to new: ImportedVersion) -> [String] {
        var removed: [String] = []
        for model in old.models {
            guard let kept = new.models.first(where: { $0.name == model.name }) else {
                removed.append(model.name)
                continue
            }
            for property in model.properties where !property.isTransient {
                let continued = kept.properties.contains {
                    $0.name == property.name || $0.originalName == property.name
                }
                if !continued { removed.append("\(model.name).\(property.name)") }
            }
        }
        return removed
    }

    /// `Model` before `Model 2` before `Model 10`: by the numbers in the names, then by name.
    public static func versionOrder(_ a: String, _ b: String) -> Bool {
        func numbers(_ name: String) -> [Int] {
            name.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        }
        let (x, y) = (numbers(a), numbers(b))
        return x == y ? a < b : x.lexicographicallyPrecedes(y)
    }

    /// `_XCCurrentVersionName` of the bundle's property list, checked against its versions.
    static func currentVersion(_ bundle: CoreDataBundle, names: [String]) throws(Failure) -> String? {
        guard let file = bundle.currentVersionFile else { return nil }
        let root: XMLElement
        switch XMLReader.parse(file.bytes, file: file.path) {
        case .success(let parsed): root = parsed
        case .failure(let error): throw Failure(description: error.description)
        }
        let entries = root.children(named: "dict").first?.children ?? []
        guard let key = entries.firstIndex(where: { $0.name == "key" && $0.text == "_XCCurrentVersionName" }),
            key + 1 < entries.count, entries[key + 1].name == "string"
        else {
            throw Failure(
                description: "\(file.path):\(root.line):\(root.column): error: names no _XCCurrentVersionName")
        }
        let value = entries[key + 1].text
        let name = value.hasSuffix(".xcdatamodel") ? String(value.dropLast(".xcdatamodel".count)) : value
        guard names.contains(name) else {
            throw Failure(
                description: "\(file.path):\(entries[key + 1].line):\(entries[key + 1].column): error: the current "
                    + "version \(value) is not in the bundle (it has \(names.joined(separator: ", ")))")
        }
        return name
    }
}

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
        // optional (coredata-version-hash.md). A to-one is carried optional, since deleting the
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
