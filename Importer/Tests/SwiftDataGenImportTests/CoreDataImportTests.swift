import Foundation
import SwiftDataGenCore
import SwiftDataGenImport
import XCTest

/// Core Data bundles in, YAML out: one hand-written bundle with every element, and public apps'
/// bundles transcribed by scripts/transcribe-xcdatamodel.py (Fixtures/CoreData/*/SOURCE.md).
final class CoreDataImportTests: XCTestCase {
    static let root = RoundTripTests.fixtures.appendingPathComponent("CoreData")

    struct Case {
        var folder: String
        var order: [String]? = nil
        /// The golden case in the main package that holds this import's YAML, when it has one.
        var golden: String?
        /// Why the history cannot be written as it shipped, when it cannot: the import refuses it.
        var refusal: String? = nil
    }

    static let cases = [
        Case(folder: "Catalog", golden: "coredata-catalog"),
        Case(
            folder: "Automattic-simplenote-ios", order: (2...7).map { "Simplenote \($0)" },
            golden: "coredata-simplenote"),
        Case(folder: "billmoss-CoreDataMigrations-LightweightMigration", golden: "coredata-lightweight"),
        Case(folder: "alemar11-CoreDataPlus", golden: "coredata-samplemodel"),
        Case(folder: "alemar11-CoreDataPlus-SampleModel3", golden: "coredata-samplemodel3"),
        Case(folder: "JohnEstropia-CoreStore", golden: "coredata-evolution"),
        // Relationships replaced by Data attributes when their destination models were removed:
        // re-created empty through bridges, as the links went with the removed rows.
        Case(folder: "mastodon-mastodon-ios", golden: nil),
        Case(
            folder: "wojciech-kulik-CoreDataVsRealm", golden: nil,
            refusal: "a type change (String? to Int16) its mapping model converted: no schema step converts it"),
    ]

    struct Imported {
        var extracted: CoreDataExtractor.Result
        var translated: HistoryTranslator.Output
        var generated: Generator.Output
        var bundle: CoreDataBundle
    }

    static func importCase(_ item: Case) throws -> Imported {
        let folder = root.appendingPathComponent(item.folder)
        let name = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".xcdatamodeld") })
        let bundle = try CoreDataBundle.read(folder.appendingPathComponent(name).path)
        let extracted = try CoreDataExtractor.extract(bundle, order: item.order)
        var options = HistoryTranslator.Options(schema: String(name.dropLast(".xcdatamodeld".count)))
        options.cloudKit = extracted.cloudKit
        let translated = HistoryTranslator.translate(extracted.project, options: options)
        let files = translated.files.map {
            SourceFile(displayPath: $0.name, relativePath: $0.name, bytes: Array($0.text.utf8))
        }
        let generated = Generator.generate(
            SchemaSources(config: files.first, versions: Array(files.dropFirst())),
            templates: try SchemaLoader.templates(overrideDirectory: nil).get())
        return Imported(extracted: extracted, translated: translated, generated: generated, bundle: bundle)
    }

    /// For every entity of every version, what the generated model puts into SwiftData's version
    /// hash equals what the Core Data model puts there, or the importer said why not.
    func testEveryBundleImportsAndItsStoreOpens() throws {
        var compared = 0
        defer { XCTAssertGreaterThan(compared, 40, "entities compared") }
        for item in Self.cases {
            let imported = try Self.importCase(item)
            let notes = imported.translated.notes.map(\.description).joined(separator: "\n")
            let errors = imported.generated.diagnostics.filter { $0.severity == .error }
            guard item.refusal == nil else {
                XCTAssertFalse(errors.isEmpty, "\(item.folder) was expected to need a conversion")
                for error in errors {
                    XCTAssertEqual(error.code, .typeChangeLosesData, "\(item.folder): \(error.rendered)")
                    let path = error.message.split(separator: " ").first.map(String.init) ?? "-"
                    XCTAssertTrue(
                        notes.contains("\(path) changes from"), "\(item.folder): no note for \(path)\n\(notes)")
                }
                continue
            }
            XCTAssertEqual(errors.map(\.rendered), [], item.folder)
            let history = try XCTUnwrap(imported.generated.histories.first, item.folder)
            let plan = MigrationPlanner.plan(history).plan
            XCTAssertEqual(plan.versions.count, imported.extracted.order.count, item.folder)
            for (name, version) in zip(imported.extracted.order, plan.versions) {
                let xml = try XCTUnwrap(imported.bundle.versions.first { $0.name == name }?.bytes)
                let model = try XMLReader.parse(xml, file: name).get()
                let expected = StoreIdentity(entities: CoreDataIdentity.entities(of: model))
                let generated = StoreIdentity(version, naming: history.config.naming)
                XCTAssertEqual(
                    Set(expected.entityHashes.keys), Set(generated.entityHashes.keys),
                    "\(item.folder) \(name): entities differ")
                // A hash that differs is excused only by notes on this version: one that says the
                // entity's version hash differs, or one naming each property whose hash differs; a
                // child differs with its parent, and is excused with it.
                let here = imported.translated.notes.map(\.description).filter { $0.contains("/\(name).xcdatamodel/") }
                let differences = generated.differences(from: expected)
                func excused(_ entity: String, seen: Set<String>) -> Bool {
                    if here.contains(where: { $0.contains("entity \(entity) ") && $0.contains("version hash") }) {
                        return true
                    }
                    let causes = differences.filter { $0.entity == entity }
                    return !causes.isEmpty
                        && causes.allSatisfy { cause in
                            if let property = cause.property {
                                return here.contains { $0.contains("\(entity).\(property) ") }
                            }
                            guard let parent = generated.entity(named: entity)?.parent,
                                cause.change.hasPrefix("its parent "), !seen.contains(parent)
                            else { return false }
                            return excused(parent, seen: seen.union([entity]))
                        }
                }
                for (entity, hash) in expected.entityHashes where generated.entityHashes[entity] != hash {
                    XCTAssertTrue(
                        excused(entity, seen: []),
                        "\(item.folder) \(name): \(entity) differs "
                            + "(\(differences.filter { $0.entity == entity }.map(\.description))) and no note says why")
                    compared += 1
                }
                compared += expected.entities.count
            }
        }
    }

    /// The import of each bundle that generates is the input of a golden case in the main package,
    /// where it is generated, type-checked without warnings and upgraded in the simulator.
    func testImportsAreTheGoldenCasesInputs() throws {
        let golden = RoundTripTests.packageRoot.deletingLastPathComponent()
            .appendingPathComponent("Tests/SwiftDataGenCoreTests/Fixtures/Golden")
        for item in Self.cases {
            guard let name = item.golden else { continue }
            let input = golden.appendingPathComponent(name).appendingPathComponent("input")
            let files = try Self.importCase(item).translated.files
            if ProcessInfo.processInfo.environment["SDG_RECORD_GOLDENS"] == "1" {
                try? FileManager.default.removeItem(at: input)
                try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
                for file in files {
                    try file.text.write(to: input.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
                }
            }
            let written = try FileManager.default.contentsOfDirectory(atPath: input.path).sorted()
            XCTAssertEqual(written, files.map(\.name).sorted(), name)
            for file in files {
                XCTAssertEqual(
                    try String(contentsOf: input.appendingPathComponent(file.name), encoding: .utf8), file.text,
                    "\(name)/input/\(file.name) is not what the importer writes; re-record and review")
            }
        }
    }

    /// The hand-written bundle: every element is carried or noted where it stands.
    func testCatalogCarriesOrNotesEveryElement() throws {
        let imported = try Self.importCase(Self.cases[0])
        XCTAssertEqual(imported.extracted.order, ["Catalog", "Catalog 2", "Catalog 3"])
        XCTAssertEqual(imported.extracted.current, "Catalog 3")
        let yaml = imported.translated.files.map(\.text).joined(separator: "\n")
        for expected in [
            "count: { type: \"Int16?\", default: 0 }", "mid: Int32?", "big: { type: Int, default: 0 }",
            "rating: { type: Double, default: 0.0 }", "weight: Float?", "price: Decimal?",
            "added: { type: Date, expression: \"Date(timeIntervalSinceReferenceDate: 726710400)\" }",
            "photo: { type: \"Data?\", externalStorage: true }", "identifier: UUID?", "link: URL?",
            "flag: { type: Bool, default: false }", "cache: { type: \"String?\", transient: true }",
            "colors: { type: \"Data?\", transformable: NSSecureUnarchiveFromData }", "unique: [[name]]",
            "indexes: [[link], [added]]", "label: { type: String, default: \"Main & only\" }",
            "items: { type: \"[Item]\", deleteRule: cascade, inverse: shelf }",
            "title: { type: String, default: \"\", renamedFrom: name, spotlight: true }",
            "notes: { type: \"String?\", allowsCloudEncryption: true }",
            "price: { type: \"Decimal?\", hashModifier: v2 }",
            "identifier: { type: \"UUID?\", preserveValueOnDeletion: true }", "indexes: [[word]]",
            "tags: { type: \"[Tag]?\", inverse: items }", "size: Dimensions?",
            "Dimensions: { width: Double, height: \"Double?\" }",
        ] {
            XCTAssertTrue(yaml.contains(expected), "missing: \(expected)\n\(yaml)")
        }
        let notes = imported.translated.notes.map(\.description)
        for (line, words) in [
            ("Catalog.xcdatamodel/contents:18:9", "Item.colors is Transformable ([String])"),
            ("Catalog.xcdatamodel/contents:29:5", "entity Shelf is represented by class ShelfEntity"),
            ("Catalog.xcdatamodel/contents:32:9", "fetched property Shelf.recentItems is not stored"),
            ("Catalog.xcdatamodel/contents:36:5", "fetch request AllItems is not part of the store"),
            ("Catalog.xcdatamodel/contents:37:5", "configuration Local is not carried"),
            ("Catalog 3.xcdatamodel/contents:22:9", "Item.tags is ordered"),
            ("Catalog2to3.xcmappingmodel:1:1", "a mapping model"),
            (
                "Catalog2to3.xcmappingmodel/xcmapping.xml:9:5",
                "the mapping Item → Item runs the custom policy Catalog.TagItemsPolicy"
            ),
        ] {
            XCTAssertTrue(
                notes.contains { $0.contains(line) && $0.contains(words) },
                "no note '\(words)' at \(line)\n\(notes.joined(separator: "\n"))")
        }
    }

    /// Each entity mapping of a public app's mapping model that runs custom code is named, with
    /// the policy class the team's hook must replace.
    func testCustomMigrationPoliciesAreNamed() throws {
        for (folder, expected) in [
            ("wojciech-kulik-CoreDataVsRealm", ["User → User runs the custom policy CoreDataDemo.CustomMigration"]),
            (
                "alemar11-CoreDataPlus",
                [
                    "SportCar → SportCar runs the custom policy REPLACE_AT_RUNTIME.V2to3MakerPolicy",
                    "Car → Car runs the custom policy REPLACE_AT_RUNTIME.V2to3MakerPolicy",
                    "LuxuryCar → LuxuryCar runs the custom policy REPLACE_AT_RUNTIME.V2to3MakerPolicy",
                ]
            ),
        ] {
            let item = try XCTUnwrap(Self.cases.first { $0.folder == folder })
            let notes = try Self.importCase(item).translated.notes.map(\.description)
            for words in expected {
                XCTAssertTrue(notes.contains { $0.contains(words) }, "\(folder): no note '\(words)'")
            }
            XCTAssertEqual(notes.filter { $0.contains("runs the custom policy") }.count, expected.count, folder)
        }
    }

    /// A model that was never versioned is one `.xcdatamodel` folder, imported as version 1.0.0.
    func testOneUnversionedModelImports() throws {
        let model = Self.root.appendingPathComponent("Catalog/Catalog.xcdatamodeld/Catalog 2.xcdatamodel")
        let extracted = try CoreDataExtractor.extract(try CoreDataBundle.read(model.path))
        XCTAssertEqual(extracted.order, ["Catalog 2"])
        XCTAssertNil(extracted.current)
        let files = HistoryTranslator.translate(extracted.project).files.map(\.name)
        XCTAssertEqual(files, ["swiftdata-gen.yaml", "1.0.0.yaml"])
    }

    /// Versions are ordered by the numbers in their names, or as --order says.
    func testVersionsAreOrderedByTheirNumbers() {
        let names = ["Model 10", "Model", "Model 2", "Model2b", "Model 3"]
        XCTAssertEqual(
            names.sorted(by: CoreDataExtractor.versionOrder), ["Model", "Model 2", "Model2b", "Model 3", "Model 10"])
    }

    /// Hostile and broken bundles end in one clear error with where, never a crash, a hang, an
    /// expanded entity or a file read outside the bundle.
    func testHostileXMLIsAClearError() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-secret-\(UUID().uuidString)")
        try "TOP SECRET".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let deep = String(repeating: "<a>", count: 5_000) + String(repeating: "</a>", count: 5_000)
        let laughs =
            "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;&lol;\">]>"
            + "<model>&lol2;</model>"
        let cases: [(String, String)] = [
            (laughs, "contents:1:37: error: the DOCTYPE declares entities"),
            (
                "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY x SYSTEM \"file://\(secret.path)\">]><model>&x;</model>",
                "the DOCTYPE declares entities"
            ),
            ("<model><entity name=\"A\">&x;</entity></model>", "entity &x; is not defined"),
            ("<model><entity name=\"A\"></model>", "</model> closes <entity>"),
            ("<model>", "<model> (line 1) is not closed"),
            ("<model a=\"1\" a=\"2\"/>", "attribute a is given twice"),
            (deep, "elements nest deeper than 64"),
            ("not xml", "no root element"),
            ("<plist/>", "the root element is <plist>, not <model>"),
            ("<model><entity name=\"My Entity\"/></model>", "entity is named \"My Entity\", which is not a Swift"),
            (
                "<model><entity name=\"A\"><attribute name=\"first-name\" attributeType=\"String\"/></entity></model>",
                "attribute of A is named \"first-name\""
            ),
            ("<model><entity name=\"A\"><attribute name=\"\u{301}x\"/></entity></model>", "which is not a Swift"),
        ]
        for (text, words) in cases {
            let error = try XCTUnwrap(try failure(of: Array(text.utf8)), "accepted: \(text.prefix(80))")
            XCTAssertTrue(error.contains(words), "\(text.prefix(60)): \(error)")
            XCTAssertFalse(error.contains("TOP SECRET"))
        }
        XCTAssertTrue(
            try failure(of: [0x3C, 0x6D, 0xFF, 0x3E])?.contains("not UTF-8") == true, "invalid UTF-8 is named")
        XCTAssertTrue(
            try failure(of: Array(repeating: 0x20, count: 33 * 1024 * 1024))?.contains("more than") == true,
            "a huge file is refused")

        // A link out of the bundle is refused before anything is read.
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-link-\(UUID().uuidString)")
        let version = bundle.appendingPathComponent("M.xcdatamodeld/M.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bundle) }
        try FileManager.default.createSymbolicLink(
            at: version.appendingPathComponent("contents"), withDestinationURL: secret)
        XCTAssertThrowsError(try CoreDataBundle.read(bundle.appendingPathComponent("M.xcdatamodeld").path)) {
            XCTAssertTrue("\($0)".contains("leads outside"), "\($0)")
        }
    }

    /// One version's contents in a scratch bundle, imported; the error text, or nil when accepted.
    private func failure(of contents: [UInt8]) throws -> String? {
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-xml-\(UUID().uuidString)")
        let version = bundle.appendingPathComponent("M.xcdatamodeld/M.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bundle) }
        try Data(contents).write(to: version.appendingPathComponent("contents"))
        do {
            _ = try CoreDataExtractor.extract(
                try CoreDataBundle.read(bundle.appendingPathComponent("M.xcdatamodeld").path))
            return nil
        } catch {
            return "\(error)"
        }
    }
}
