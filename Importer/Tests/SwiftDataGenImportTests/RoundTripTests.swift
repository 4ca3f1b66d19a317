import Foundation
import SwiftDataGenCore
import SwiftDataGenDSL
import SwiftDataGenImport
import XCTest

/// Import, generate, and compare what SwiftData's checksum sees of every entity of every version:
/// the app's own Swift and the generated Swift are each compiled against the SwiftData stand-in,
/// whose checksum text follows the evidence's rules (the generator's own definition is kept equal
/// to it by the main package's SimulatorTests). Equal, or the test names the entity and property.
final class RoundTripTests: XCTestCase {
    /// Four versions and a hand-written plan.
    func testJournalRoundTrips() throws {
        try roundTrip("Journal", versions: 4)
    }

    /// Every store shape of README's adoption section: enums stored as themselves, a private
    /// underscored stored name, TimeInterval and CGFloat, SchemaV1/SchemaV2 names, a plan's name.
    func testVideosRoundTrips() throws {
        try roundTrip("Videos", versions: 2)
    }

    /// Twelve plain models of an app that never versioned.
    func testFleetRoundTrips() throws {
        try roundTrip("Fleet", versions: 1, schema: "Fleet")
    }

    /// What real apps write (the main package's corpus): see the fixture's comment.
    func testPatternsOfRealAppsRoundTrip() throws {
        try roundTrip("Patterns", versions: 2)
        let project = ModelExtractor.extract(
            try SwiftSourceLoader.read([Self.fixtures.appendingPathComponent("Patterns").path]))
        let translated = HistoryTranslator.translate(project)
        let notes = translated.notes.map(\.message)
        XCTAssertEqual(translated.files.map(\.name), ["swiftdata-gen.yaml", "1.0.0.yaml", "1.0.1.yaml"])
        XCTAssertTrue(
            notes.contains {
                $0.contains("PatternsSchemaV2 is numbered 1.0.0, as the one before it is; the YAML numbers it 1.0.1")
            }, notes.joined(separator: "\n"))
        XCTAssertTrue(
            notes.contains { $0.contains("Note.code is a Code, an alias of String") }, notes.joined(separator: "\n"))
        let first = try XCTUnwrap(translated.files.first { $0.name == "1.0.0.yaml" }?.text)
        XCTAssertTrue(first.contains("Box: { origin: Point, private: Bool }"), first)
        XCTAssertFalse(first.contains("Payload"), "a Codable type no model stores is not part of the store")
        XCTAssertTrue(first.contains("Shelf:"), "a model in a namespace of its own is found")
    }

    /// Hostile or odd input: never a crash, and everything not carried is said.
    func testHostileInputIsNotedNeverACrash() throws {
        let folder = Self.fixtures.appendingPathComponent("Hostile")
        let versioned = HistoryTranslator.translate(
            ModelExtractor.extract(
                try SwiftSourceLoader.read(
                    ["Schemas.swift", "Deep.swift"].map { folder.appendingPathComponent($0).path })))
        let notes = versioned.notes.map(\.description)
        func noted(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertTrue(
                notes.contains { $0.contains(text) }, "no note says '\(text)':\n\(notes.joined(separator: "\n"))",
                file: file, line: line)
        }
        noted("Deep.swift:6:1: note: generic types are nested more than 256 levels deep")
        noted("error: HostileSchemaV1 is numbered 9223372036854775807.0.0, beyond what a version file takes; it cannot")
        noted("members inside #if os(iOS) are imported as if it holds; its other branches are not imported")
        XCTAssertEqual(versioned.files.map(\.name), ["swiftdata-gen.yaml", "1.0.0.yaml"])
        let yaml = try XCTUnwrap(versioned.files.last?.text)
        XCTAssertTrue(
            yaml.contains("flags: { type: Int, default: 5 }") && yaml.contains("mode: { type: Int, default: 15 }"), yaml
        )
        XCTAssertTrue(yaml.contains("Widget:") && yaml.contains("name:") && !yaml.contains("title:"), yaml)

        let loose = HistoryTranslator.translate(
            ModelExtractor.extract(
                try SwiftSourceLoader.read(
                    ["Loose.swift", "Stale.swift"].map { folder.appendingPathComponent($0).path })))
        let looseNotes = loose.notes.map(\.description)
        XCTAssertTrue(
            looseNotes.contains { $0.contains("Stale.swift:4:13: note: Part is declared again here; only the one at") },
            looseNotes.joined(separator: "\n"))
        XCTAssertTrue(
            looseNotes.contains { $0.contains("@Tracked on Gear may add stored members the importer cannot see") },
            looseNotes.joined(separator: "\n"))
        XCTAssertFalse(try XCTUnwrap(loose.files.last?.text).contains("legacy"), "the second Part is not imported")
        XCTAssertTrue(
            looseNotes.contains { $0.contains("Gear.default is named with a Swift keyword in backticks") },
            looseNotes.joined(separator: "\n"))
    }

    /// A schema that compiles yet holds no model is an error (the command writes nothing); an enum
    /// or a struct with nothing to store is noted and left out; what is imported generates.
    func testDeclarationsThatStoreNothingAreNotedAndLeftOut() throws {
        let translated = HistoryTranslator.translate(
            ModelExtractor.extract(try SwiftSourceLoader.read([Self.fixtures.appendingPathComponent("Empty").path])))
        let notes = translated.notes.map(\.description)
        for text in [
            "Schemas.swift:6:6: error: ShelfSchemaV1 lists no @Model classes the importer could read, so it cannot be "
                + "imported",
            "Shelf.mood is a Mood, an enum without cases, which has no value to store; it is not carried",
            "Shelf.nothing is a Nothing, a Codable struct the DSL cannot state whole (Nothing has no stored fields)",
        ] {
            XCTAssertTrue(
                notes.contains { $0.contains(text) }, "no note says '\(text)':\n\(notes.joined(separator: "\n"))")
        }
        XCTAssertEqual(translated.files.map(\.name), ["swiftdata-gen.yaml", "2.0.0.yaml"])
        let sources = translated.files.map {
            SourceFile(displayPath: $0.name, relativePath: $0.name, bytes: Array($0.text.utf8))
        }
        let generated = Generator.generate(
            SchemaSources(config: sources.first, versions: Array(sources.dropFirst())),
            templates: try SchemaLoader.templates(overrideDirectory: nil).get())
        XCTAssertFalse(generated.diagnostics.hasErrors, generated.diagnostics.map(\.rendered).joined(separator: "\n"))
    }

    /// Every key the DSL declares as readable from Swift (`PropertyKey.importedFrom`) comes back
    /// from the importer: the YAML it writes decodes with the key written on some property, and the
    /// history generates and stores what the Swift declares.
    func testEveryImportableKeyRoundTrips() throws {
        try roundTrip("Keys", versions: 2)
        let project = ModelExtractor.extract(
            try SwiftSourceLoader.read([Self.fixtures.appendingPathComponent("Keys").path]))
        var decoded: Set<PropertyKey> = []
        for file in HistoryTranslator.translate(project).files + (try Self.attributeOptionsProject().files)
        where file.name != "swiftdata-gen.yaml" {
            let (node, parseDiagnostics) = YAMLParser.parse(Array(file.text.utf8), file: file.name)
            let (version, diagnostics) = DSLDecoder.decodeVersion(try XCTUnwrap(node), file: file.name)
            XCTAssertEqual((parseDiagnostics + diagnostics).map(\.rendered), [], file.text)
            for model in try XCTUnwrap(version).models {
                for property in model.properties { decoded.formUnion(property.written.map(\.key)) }
            }
        }
        for key in PropertyKey.allCases where key.importedFrom != nil {
            XCTAssertTrue(
                decoded.contains(key), "no imported property decodes with '\(key.rawValue)' (\(key.importedFrom ?? ""))"
            )
        }
        for key in PropertyKey.allCases where key.importedFrom == nil {
            XCTAssertFalse(
                decoded.contains(key), "'\(key.rawValue)' is declared as not in Swift, yet the importer wrote it")
        }
    }

    /// What the YAML cannot carry is listed with its position, never dropped silently.
    func testWhatCannotBeCarriedIsNoted() throws {
        let project = ModelExtractor.extract(
            try SwiftSourceLoader.read([Self.fixtures.appendingPathComponent("Journal").path]))
        let notes = HistoryTranslator.translate(project).notes.map(\.description)
        XCTAssertTrue(
            notes.contains {
                $0.hasSuffix(
                    "JournalSchemaV1.swift:23:13: note: computed property Entry.isEmpty is not stored and is not "
                        + "carried; keep it in an extension of the current type"
                )
            }, notes.joined(separator: "\n"))
    }

    // MARK: harness

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A model written from the declarations with every `@Attribute` option a key stands for, so
    /// that a new option key is read back without a fixture of its own.
    /// A transformer name or a renaming identifier holding what YAML or the DSL reads as more
    /// (`, `, `: `) is an error at its Swift line: it never becomes a key the app did not write.
    func testANameTheSchemaFilesCannotHoldIsAnErrorAtItsSwiftLine() throws {
        let source = """
            import SwiftData

            enum HolderSchemaV1: VersionedSchema {
                static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
                static var models: [any PersistentModel.Type] { [Holder.self] }
                @Model final class Holder {
                    @Attribute(.transformable(by: "R, spotlight: true")) var x: Data?
                    @Attribute(originalName: "old: name") var y: Int = 0
                    init() {}
                }
            }

            """
        let translated = HistoryTranslator.translate(try extracted(source, file: "Holder.swift"))
        let errors = translated.notes.filter(\.isError).map(\.description)
        XCTAssertEqual(errors.count, 2, errors.joined(separator: "\n"))
        XCTAssertTrue(
            errors.contains { $0.contains(":7:") && $0.contains("transformable \"R, spotlight: true\"") }, "\(errors)")
        XCTAssertTrue(errors.contains { $0.contains(":8:") && $0.contains("renamedFrom \"old: name\"") }, "\(errors)")
        XCTAssertFalse(translated.files.contains { $0.text.contains("spotlight") }, "the name became a key")
    }

    static func attributeOptionsProject() throws -> HistoryTranslator.Output {
        let properties = PropertyKey.allCases.compactMap { key in
            key.attributeOption.map { option in
                let type = key.example.type.filter { $0 != "\"" }
                return "        @Attribute(.\(option)) var \(key.rawValue)Sample: \(type)\n"
            }
        }
        let source =
            "import SwiftData\n\nenum OptionsSchemaV1: VersionedSchema {\n"
            + "    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }\n"
            + "    static var models: [any PersistentModel.Type] { [Holder.self] }\n\n"
            // The struct the `codable` key's example stores.
            + "    struct Spot: Codable, Hashable {\n        var x: Double\n        var y: Double\n    }\n\n"
            + "    @Model\n    final class Holder {\n" + properties.joined() + "        init() {}\n    }\n}\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sdg-options-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return HistoryTranslator.translate(ModelExtractor.extract(try SwiftSourceLoader.read([file.path])))
    }

    /// Entity by entity, property by property, in words.
    static func differences(_ original: String, _ generated: String) -> [String] {
        func entities(_ text: String) -> [String: (header: String, properties: [String: String])] {
            var result: [String: (header: String, properties: [String: String])] = [:]
            var current: String?
            for line in text.split(separator: "\n").map(String.init) {
                if line.hasPrefix("entity ") {
                    let name = String(line.dropFirst(7).prefix { $0 != " " })
                    current = name
                    result[name] = (line, [:])
                } else if let current {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    result[current]?.properties[String(trimmed.prefix { $0 != " " })] = trimmed
                }
            }
            return result
        }
        let old = entities(original)
        let new = entities(generated)
        var problems: [String] = []
        for name in Set(old.keys).union(new.keys).sorted() {
            guard let a = old[name] else {
                problems.append("entity \(name) is generated but not in the app's schema")
                continue
            }
            guard let b = new[name] else {
                problems.append("entity \(name) of the app's schema is not generated")
                continue
            }
            if a.header != b.header {
                problems.append("entity \(name): '\(a.header)' in the app, '\(b.header)' generated")
            }
            for property in Set(a.properties.keys).union(b.properties.keys).sorted()
            where a.properties[property] != b.properties[property] {
                problems.append(
                    "\(name).\(property): '\(a.properties[property] ?? "absent")' in the app, "
                        + "'\(b.properties[property] ?? "absent")' generated"
                )
            }
        }
        return problems
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
