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
