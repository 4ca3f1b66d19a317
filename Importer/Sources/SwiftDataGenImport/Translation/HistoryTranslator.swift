import SwiftDataGenCore
import SwiftDataGenDSL

/// Turns what the extractor found into the YAML history: names the schema so the generator
/// derives the app's own type names (or says them with `typeName:`), states each stored property
/// in DSL words, and rebuilds `renamedFrom` from `originalName`. Whatever the DSL cannot say
/// becomes a note.
public enum HistoryTranslator {
    public struct Options: Sendable {
        /// The schema name for models that were never versioned.
        public var schema: String
        /// The version number of models that were never versioned.
        public var version: (Int, Int, Int)
        /// Every version syncs with CloudKit (a Core Data model's `usedWithCloudKit`).
        public var cloudKit = false

        public init(schema: String = "App", version: (Int, Int, Int) = (1, 0, 0)) {
            self.schema = schema
            self.version = version
        }
    }

    public struct Output: Sendable {
        /// File name in the schema folder → YAML text.
        public var files: [(name: String, text: String)]
        public var notes: [ImportNote]
        /// The versions read, in the order of the version files written.
        public var versions: [ImportedVersion] = []
        /// The app's custom stages whose code the hooks file carries, by the version each leads to.
        public var carried: [(version: String, stage: ImportedStage)] = []
        /// Version file → line → the Swift declaration that line states.
        public var origins: [String: [Int: SourcePosition]] = [:]

        /// The Swift declaration behind a place in a version file written: the line's own, else the
        /// nearest line above that has one.
        public func origin(file: String, line: Int) -> SourcePosition? {
            guard let lines = origins[file] else { return nil }
            return lines.filter { $0.key <= line }.max { $0.key < $1.key }?.value
                ?? lines.min { $0.key < $1.key }?.value
        }
    }

    public static func translate(_ project: ImportedProject, options: Options = Options()) -> Output {
        var notes = project.notes
        var versions = project.versions
        if versions.isEmpty, var loose = project.unversioned {
            loose.version = options.version
            versions = [loose]
        } else if let loose = project.unversioned {
            for model in loose.models {
                notes.append(
                    .init(
                        position: model.location,
                        message:
                            "@Model class \(model.name) is in no VersionedSchema; it is not imported (list it in "
                            + "a schema's models to import it)"
                    ))
            }
        }
        guard !versions.isEmpty else {
            return Output(
                files: [],
                notes: notes + [
                    .init(
                        position: SourcePosition(file: "-", line: 1, column: 1),
                        message: "no @Model classes found; name the Swift files or folders that declare them")
                ])
        }
        // Versions in number order; one without a readable number follows the one before it.
        var numbered: [(number: (Int, Int, Int), version: ImportedVersion)] = []
        for version in versions {
            // A number that cannot be followed (`Schema.Version(Int.max, 0, 0)`) is not imported.
            guard
                let number = version.version.map({ ($0.major, $0.minor, $0.patch) })
                    ?? Self.following(numbered.last?.number)
            else {
                notes.append(
                    .init(
                        position: version.location,
                        message:
                            "\(version.typeName ?? "this schema") has no number after the one before it; it cannot "
                            + "be imported", isError: true))
                continue
            }
            guard [number.0, number.1, number.2].allSatisfy({ $0 >= 0 && $0 < Int(Int32.max) }) else {
                notes.append(
                    .init(
                        position: version.location,
                        message:
                            "\(version.typeName ?? "this schema") is numbered "
                            + "\(number.0).\(number.1).\(number.2), beyond what a version file takes; it cannot be "
                            + "imported", isError: true))
                continue
            }
            // The generator needs a model in every version; an empty `models` list stores nothing.
            guard !version.models.isEmpty else {
                notes.append(
                    .init(
                        position: version.location,
                        message:
                            "\(version.typeName ?? "this schema") lists no @Model classes the importer could read, "
                            + "so it cannot be imported (a version of the YAML declares at least one model)",
                        isError: true))
                continue
            }
            numbered.append((number, version))
        }
        guard !numbered.isEmpty else { return Output(files: [], notes: notes) }
        numbered.sort {
            [$0.number.0, $0.number.1, $0.number.2].lexicographicallyPrecedes([$1.number.0, $1.number.1, $1.number.2])
        }
        // Two schemas with one number (apps have shipped that): SwiftData matches a store by its
        // checksum, never by this number, so the later one takes the next free patch number.
        for index in numbered.indices.dropFirst() {
            let before = numbered[index - 1].number
            guard
                [numbered[index].number.0, numbered[index].number.1, numbered[index].number.2]
                    .lexicographicallyPrecedes([before.0, before.1, before.2 &+ 1])
            else { continue }
            let written = numbered[index].number
            numbered[index].number = (before.0, before.1, before.2 + 1)
            let version = numbered[index].version
            notes.append(
                .init(
                    position: version.location,
                    message:
                        "\(version.typeName ?? "this schema") is numbered \(written.0).\(written.1).\(written.2), "
                        + "as the one before it is; the YAML numbers it \(before.0).\(before.1).\(before.2 + 1) "
                        + "(SwiftData matches stores by checksum, not by this number, so the store is the same)"
                ))
        }
        let naming = Naming(
            versions: numbered.map(\.version), fallback: options.schema, plan: project.migrationPlan,
            declared: project.moduleNames, notes: &notes)
        let access = moduleAccess(numbered.map(\.version), notes: &notes)
        let carried = CarriedStages.byTarget(project.stages, order: numbered.map(\.version), notes: &notes)
        var files: [(name: String, text: String)] = []
        var origins: [String: [Int: SourcePosition]] = [:]
        var previous: ImportedVersion?
        var needsMacros = false
        var needsInheritance = false
        for (number, version) in numbered {
            let name = "\(number.0).\(number.1).\(number.2).yaml"
            let text = versionText(
                version, number: number, previous: previous, naming: naming, access: access,
                carriedFrom: version.qualifiedName.flatMap { carried[$0] }?.location,
                origins: &origins[name, default: [:]],
                notes: &notes)
            files.append((name, text))
            needsMacros = needsMacros || version.models.contains { !$0.uniqueGroups.isEmpty || !$0.indexGroups.isEmpty }
            needsInheritance =
                needsInheritance
                || version.models.contains { model in version.models.contains { $0.name == model.superclass } }
            previous = version
        }
        files.insert(
            (
                "swiftdata-gen.yaml",
                configText(
                    naming: naming, access: access, macros: needsMacros, inheritance: needsInheritance,
                    cloudKit: options.cloudKit)
            ),
            at: 0)
        let stages = numbered.compactMap { number, version in
            version.qualifiedName.flatMap { carried[$0] }.map { ("\(number.0).\(number.1).\(number.2)", $0) }
        }
        return Output(files: files, notes: notes, versions: numbered.map(\.version), carried: stages, origins: origins)
    }

    /// The number after `previous` for a schema whose own cannot be read: the next major.
    static func following(_ previous: (Int, Int, Int)?) -> (Int, Int, Int)? {
        guard let previous else { return (1, 0, 0) }
        let (major, overflow) = previous.0.addingReportingOverflow(1)
        return overflow ? nil : (major, 0, 0)
    }

    static func versionText(
        _ version: ImportedVersion, number: (Int, Int, Int), previous: ImportedVersion?, naming: Naming,
        access: String, carriedFrom: SourcePosition? = nil, origins: inout [Int: SourcePosition],
        notes: inout [ImportNote]
    ) -> String {
        var lines: [String] = []
        // Each line's Swift declaration, so what the generator says of a line is said at the app's.
        func add(_ line: String, _ position: SourcePosition) {
            lines.append(line)
            origins[lines.count] = position
        }
        add("schema: \(YAMLText.scalar(naming.schema))", version.location)
        add("version: \(YAMLText.scalar("\(number.0).\(number.1).\(number.2)"))", version.location)
        if let typeName = version.typeName, typeName != naming.derived(number) {
            add("typeName: \(YAMLText.scalar(typeName))", version.location)
        }
        if let carriedFrom {
            add("carriedFrom: \(YAMLText.scalar(CarriedStages.place(carriedFrom)))", carriedFrom)
        }
        if !version.acknowledgedRemovals.isEmpty {
            add(
                "acknowledgedRemovals: [\(version.acknowledgedRemovals.map(YAMLText.scalar).joined(separator: ", "))]",
                version.location)
        }
        let enums = storableEnums(of: version)
        let enumNames = Set(enums.map(\.name))
        let modelNames = Set(version.models.map(\.name))
        if !enums.isEmpty {
            add("enums:", version.location)
            for enumeration in enums {
                add("  \(YAMLText.scalar(enumeration.name)): \(enumText(enumeration))", enumeration.location)
            }
        }
        let stored = storedStructs(of: version)
        let structNames = Set(stored.map(\.name))
        if !stored.isEmpty {
            add("structs:", version.location)
            for structure in stored {
                let fields = structure.fields.map { field -> String in
                    var type = field.isArray ? "[\(field.typeName)]" : field.typeName
                    if field.isOptional { type += "?" }
                    return "\(YAMLText.scalar(field.name)): \(YAMLText.scalar(type))"
                }
                add("  \(YAMLText.scalar(structure.name)): { \(fields.joined(separator: ", ")) }", structure.location)
            }
        }
        add("models:", version.location)
        for model in version.models {
            add("  \(YAMLText.scalar(model.name)):", model.location)
            if let doc = model.doc { add("    doc: \(YAMLText.scalar(doc))", model.location) }
            if let superclass = model.superclass {
                if modelNames.contains(superclass) {
                    add("    superclass: \(YAMLText.scalar(superclass))", model.location)
                } else if superclass != "PersistentModel" {
                    notes.append(
                        .init(
                            position: model.location,
                            message:
                                "\(model.name) inherits from \(superclass), which is not a model of this version; "
                                + "not carried"
                        ))
                }
            }
            if !model.uniqueGroups.isEmpty { add("    unique: \(groupsText(model.uniqueGroups))", model.location) }
            if !model.indexGroups.isEmpty { add("    indexes: \(groupsText(model.indexGroups))", model.location) }
            add("    properties:", model.location)
            let before = previous?.models.first { $0.name == model.name }
            var carried = 0
            for property in model.properties {
                guard
                    let text = propertyText(
                        property, in: model, before: before, isFirst: previous == nil, enums: enumNames,
                        structs: structNames, models: modelNames, version: version, access: access, notes: &notes)
                else { continue }
                add("      \(YAMLText.scalar(property.name)): \(text)", property.location)
                carried += 1
            }
            if carried == 0 {
                lines.removeLast()
                add("    properties: {}", model.location)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The Codable structs a model of the version stores, directly or inside another struct: an
    /// app's other Codable types (network payloads, snapshots) are not part of its store.
    /// Only structs the DSL can state whole are carried: one with a field of another kind (a
    /// dictionary, a class) is left out with the properties that store it.
    static func storedStructs(of version: ImportedVersion) -> [ImportedStruct] {
        let expressible = expressibleStructs(of: version)
        var names = Set<String>()
        var pending = version.models.flatMap { $0.properties.map(\.typeName) }
        var enums = Set<String>()
        while let name = pending.popLast() {
            // An enum's associated values may hold structs too.
            if let enumeration = version.enums.first(where: { $0.name == name }), enums.insert(name).inserted {
                pending += enumeration.cases.flatMap { $0.values.map(\.typeName) }
            }
            guard expressible.contains(name), let decl = version.structs.first(where: { $0.name == name }),
                names.insert(name).inserted
            else { continue }
            pending += decl.fields.map(\.typeName)
        }
        return version.structs.filter { names.contains($0.name) }
    }

    /// Enums with a case: one without (it compiles) has no value a property could hold.
    static func storableEnums(of version: ImportedVersion) -> [ImportedEnum] {
        version.enums.filter { !$0.cases.isEmpty }
    }

    /// Structs with fields, every one a value type, an enum or an expressible struct, found by
    /// striking out, until nothing changes, each struct with a field that is none of those.
    static func expressibleStructs(of version: ImportedVersion) -> Set<String> {
        let enums = Set(storableEnums(of: version).map(\.name))
        var candidates = Set(version.structs.filter { !$0.fields.isEmpty }.map(\.name))
        var changed = true
        while changed {
            changed = false
            for decl in version.structs where candidates.contains(decl.name) {
                let stateable = decl.fields.allSatisfy {
                    ModelExtractor.valueTypes.contains($0.typeName) || enums.contains($0.typeName)
                        || candidates.contains($0.typeName)
                }
                if !stateable {
                    candidates.remove(decl.name)
                    changed = true
                }
            }
        }
        return candidates
    }

    /// Why a struct is not carried: its first field the DSL cannot state.
    static func inexpressibleField(of name: String, in version: ImportedVersion) -> String? {
        let expressible = expressibleStructs(of: version)
        let enums = Set(storableEnums(of: version).map(\.name))
        guard let decl = version.structs.first(where: { $0.name == name }) else { return nil }
        if decl.fields.isEmpty { return "\(name) has no stored fields" }
        return decl.fields.first { field in
            !(ModelExtractor.valueTypes.contains(field.typeName) || enums.contains(field.typeName)
                || expressible.contains(field.typeName))
        }.map { "\(name).\($0.name) is a \($0.typeName)" }
    }

    /// `Status.queued` (or `Video.Status.queued`) as the case name `queued` of enum `Status`.
    static func caseName(_ expression: String, of enumName: String, in version: ImportedVersion) -> String? {
        let parts = expression.split(separator: ".").map(String.init)
        guard parts.count >= 2, parts[parts.count - 2] == enumName, let name = parts.last,
            version.enums.first(where: { $0.name == enumName })?.cases.contains(where: { $0.name == name }) == true
        else { return nil }
        return name
    }

    static func enumText(_ enumeration: ImportedEnum) -> String {
        if enumeration.rawType == "none" {
            // A case with values: `{ every: { days: Int } }`, or a list where one is unlabeled.
            let cases = enumeration.cases.map { item -> String in
                guard !item.values.isEmpty else { return YAMLText.scalar(item.name) }
                let values = item.values.enumerated().map { position, value in
                    (
                        label: value.name == "_\(position)" ? nil : YAMLText.scalar(value.name),
                        type: YAMLText.scalar(
                            (value.isArray ? "[\(value.typeName)]" : value.typeName) + (value.isOptional ? "?" : ""))
                    )
                }
                let written =
                    values.allSatisfy { $0.label != nil }
                    ? "{ " + values.map { "\($0.label ?? ""): \($0.type)" }.joined(separator: ", ") + " }"
                    : "["
                        + values.map { value in value.label.map { "{ \($0): \(value.type) }" } ?? value.type }
                        .joined(separator: ", ") + "]"
                return "{ \(YAMLText.scalar(item.name)): \(written) }"
            }
            return "{ rawType: none, cases: [\(cases.joined(separator: ", "))] }"
        }
        let plain =
            enumeration.rawType == "String"
            && enumeration.cases.allSatisfy { $0.rawValue == nil || $0.rawValue == $0.name }
        if plain {
            return
                "{ rawType: String, cases: "
                + "[\(enumeration.cases.map { YAMLText.scalar($0.name) }.joined(separator: ", "))] }"
        }
        var next = 0
        let cases = enumeration.cases.map { item -> String in
            if enumeration.rawType == "Int" {
                let value = item.rawValue.flatMap { Int($0) } ?? next
                next = value + 1
                return "\(YAMLText.scalar(item.name)): \(value)"
            }
            return "\(YAMLText.scalar(item.name)): \(YAMLText.scalar(item.rawValue ?? item.name))"
        }
        return "{ rawType: \(enumeration.rawType), cases: { \(cases.joined(separator: ", ")) } }"
    }

    static func groupsText(_ groups: [[String]]) -> String {
        "[" + groups.map { "[" + $0.map(YAMLText.scalar).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
    }

}
