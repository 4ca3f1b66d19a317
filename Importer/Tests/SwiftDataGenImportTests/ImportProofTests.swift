import Foundation
import SwiftDataGenCore
import SwiftDataGenImport
import XCTest

/// The import's own proof: every fixture's history generates the stores its classes make, and a
/// history that does not is an error at the app's declaration.
final class ImportProofTests: XCTestCase {
    static let swiftFixtures = [
        "Journal", "Videos", "Fleet", "Patterns", "Keys", "Layouts/NamespaceExtension", "Layouts/NestedNamespace",
        "Layouts/AliasShadowing", "Layouts/PublicFramework", "Layouts/BareVersionNames", "Layouts/ExtendedVersions",
        "Layouts/ShippedConstructs",
    ]

    func testEveryFixtureProvesItself() throws {
        for name in Self.swiftFixtures + ["Layouts/Arguments"] {
            let (_, translated) = try LayoutTests.imported(name)
            XCTAssertEqual(ImportProof.check(translated).map(\.description), [], name)
        }
        for item in CoreDataImportTests.cases {
            let imported = try CoreDataImportTests.importCase(item)
            let errors = ImportProof.check(imported.translated)
            guard item.refusal != nil else {
                XCTAssertEqual(errors.map(\.description), [], item.folder)
                continue
            }
            // Refused at the model's own line, with both ways out and where a draft holds it.
            XCTAssertFalse(errors.isEmpty, item.folder)
            for error in errors {
                XCTAssertTrue(error.position.file.hasSuffix("/contents"), "\(error)")
                for words in ["[SDG621]", "convert:", "acknowledgedRemovals", "(--draft writes it: 2.0.0.yaml, line"] {
                    XCTAssertTrue(error.message.contains(words), "\(words) in \(error)")
                }
            }
        }
    }
}

extension ImportProofTests {
    /// Each change to what the history says a property stores is an error at that property's
    /// declaration in the app: the proof reads hashes, renaming identifiers and delete rules.
    func testEveryDifferenceIsAnErrorAtTheAppsDeclaration() throws {
        let (_, translated) = try LayoutTests.imported("Keys")
        let source = try String(
            contentsOf: RoundTripTests.fixtures.appendingPathComponent("Keys/Schemas.swift"), encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let mutations: [(property: String, from: String, to: String)] = [
            ("isbn", #"isbn: { type: "String?", unique: true }"#, #"isbn: "String?""#),
            ("cover", #"cover: { type: "Data?", externalStorage: true }"#, #"cover: "Data?""#),
            ("serial", #"serial: { type: "String?", preserveValueOnDeletion: true }"#, #"serial: "String?""#),
            ("shelf", "shelf: Shelf?\n      isbn", "shelf: Shelf\n      isbn"),
            ("books", "deleteRule: cascade, ", ""),
            ("books", "minCount: 1, ", ""),
            ("books", "inverse: shelf, ", ""),
            ("name", "renamedFrom: title, ", ""),
            ("name", #"hashModifier: "2", "#, ""),
            ("kind", "enumStorage: value", "enumStorage: rawValue"),
            ("label", #"label: { type: String, default: "" }"#, "label: { type: Int, default: 0 }"),
            ("secret", #"      secret: { type: String, default: "", access: private }"# + "\n", ""),
            ("isSelected", ", transient: true", ""),
            ("color", "transformable: ColorTransformer", "doc: plain"),
        ]
        for mutation in mutations {
            var changed = translated
            let index = try XCTUnwrap(changed.files.firstIndex { $0.name == "2.0.0.yaml" })
            XCTAssertTrue(changed.files[index].text.contains(mutation.from), mutation.from)
            changed.files[index].text = changed.files[index].text.replacingOccurrences(
                of: mutation.from, with: mutation.to)
            let errors = ImportProof.check(changed)
            let declared = try XCTUnwrap(
                lines.lastIndex { $0.contains("var \(mutation.property):") }, mutation.property)
            let entityLevel = ["isbn"].contains(mutation.property)
            XCTAssertTrue(
                errors.contains {
                    $0.isError && $0.position.file.hasSuffix("Keys/Schemas.swift")
                        && (entityLevel || $0.position.line == declared + 1)
                        && ($0.message.contains(".\(mutation.property)") || $0.message.contains("uniqueness"))
                },
                "\(mutation.from) → \(mutation.to): \(errors.map(\.description))")
        }
    }

    /// A property the DSL cannot say is stored by the app but not by the history: the import
    /// fails, naming it, where before it only noted it.
    func testAPropertyTheHistoryCannotCarryFailsTheImport() throws {
        let project = try extracted(
            """
            import SwiftData

            @Model
            final class Card {
                var title: String = ""
                var position: (Int, Int) = (0, 0)
                init() {}
            }
            """, file: "Models.swift")
        let translated = HistoryTranslator.translate(project)
        XCTAssertTrue(
            translated.notes.contains { $0.message.contains("Card.position has no type the importer can read") })
        let errors = ImportProof.check(translated)
        XCTAssertEqual(errors.map(\.isError), [true], errors.map(\.description).joined(separator: "\n"))
    }
}

extension ImportProofTests {
    /// A refused import writes nothing where asked, and its draft only where `--draft` says, each
    /// version file headed as not proved; the change the error names, made in the draft, makes it
    /// a history that validates and plans.
    func testARefusedImportWritesItsDraftWhereAsked() throws {
        let bundle = CoreDataImportTests.root.appendingPathComponent(
            "wojciech-kulik-CoreDataVsRealm/LibraryDataModel.xcdatamodeld")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-draft-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let (output, draft) = (work.appendingPathComponent("Schema"), work.appendingPathComponent("Draft"))
        let importer = try XCTUnwrap(Bundle.main.executableURL?.deletingLastPathComponent())
            .appendingPathComponent("swiftdata-gen-import")
        let run = try RoundTripTests.run(
            importer.path, [bundle.path, "--output", output.path, "--draft", draft.path])
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(run.output.contains("the unproved draft is in \(draft.path)"), run.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "nothing is written as proved")
        let written = try FileManager.default.contentsOfDirectory(atPath: draft.path).sorted()
        XCTAssertEqual(written, ["1.0.0.yaml", "2.0.0.yaml", "swiftdata-gen.yaml"])
        for name in written {
            let text = try String(contentsOf: draft.appendingPathComponent(name), encoding: .utf8)
            XCTAssertTrue(text.hasPrefix("# DRAFT, NOT PROVED: swiftdata-gen-import refused this import"), name)
        }
        let again = try RoundTripTests.run(
            importer.path, [bundle.path, "--output", output.path, "--draft", draft.path])
        XCTAssertTrue(again.output.contains("already exist"), "a draft is never written over: \(again.output)")

        let second = draft.appendingPathComponent("2.0.0.yaml")
        let fixed = try String(contentsOf: second, encoding: .utf8).replacingOccurrences(
            of: "version: 2.0.0\n", with: "version: 2.0.0\nacknowledgedRemovals: [User.bonusPoints]\n")
        try fixed.write(to: second, atomically: true, encoding: .utf8)
        let (histories, diagnostics) = Generator.validate(try SchemaLoader.read(directory: draft.path).get())
        XCTAssertEqual(diagnostics.filter(\.isError).map(\.rendered), [])
        let history = try XCTUnwrap(histories.first)
        XCTAssertEqual(MigrationPlanner.plan(history).diagnostics.filter(\.isError).map(\.rendered), [])
    }
}

extension ImportProofTests {
    /// A later version that dropped a renaming `originalName` is written as the generator writes
    /// it (the identifier kept, so the generated step keeps the values), with a warning that the
    /// app's own step re-created the property empty; the hashes are the same, so it is no error.
    func testADroppedOriginalNameIsKeptWithAWarning() throws {
        var versions = ""
        for (number, property) in [
            (1, "var id: String = \"\""), (2, "@Attribute(originalName: \"id\") var cardId: String = \"\""),
            (3, "var cardId: String = \"\"; var extra = 0"),
        ] {
            versions += """
                enum V\(number): VersionedSchema {
                    static var versionIdentifier: Schema.Version { Schema.Version(\(number), 0, 0) }
                    static var models: [any PersistentModel.Type] { [Card.self] }
                    @Model final class Card {
                        \(property)
                        init() {}
                    }
                }

                """
        }
        let project = try extracted("import SwiftData\n" + versions, file: "Cards.swift")
        let translated = HistoryTranslator.translate(project)
        XCTAssertEqual(ImportProof.check(translated), [])
        let warnings = translated.notes.filter { $0.severity == .warning }
        XCTAssertEqual(warnings.count, 1, "\(translated.notes)")
        XCTAssertTrue(
            warnings.first?.description.contains(
                "Cards.swift:22:13: warning: Card.cardId no longer says originalName: \"id\", so the app's own step")
                == true, "\(warnings)")
        let history = try XCTUnwrap(ImportProof.validated(translated).0.first)
        XCTAssertEqual(history.versions.last?.model(named: "Card")?.property(named: "cardId")?.originalName, "id")
    }
}
