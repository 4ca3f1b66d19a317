import Foundation
import SwiftDataGenCore
import SwiftDataGenImport
import XCTest

/// The layouts real apps declare their versions in (Fixtures/Layouts, each written here in the
/// shape of a public app's; SOURCE.md names them): every version is found, every stored
/// property is carried, and the generated schemas store what the app's do.
final class LayoutTests: XCTestCase {
    /// `extension Schemas { enum V1: VersionedSchema }`, one file a version: three versions, each
    /// with its own models, inverses written through the schema and through the module kept, and
    /// the schema named after the plan.
    func testVersionsInExtensionsOfANamespaceAcrossFiles() throws {
        try roundTrip("Layouts/NamespaceExtension", versions: 3, module: "NamespaceExtension")
        let (project, translated) = try Self.imported("Layouts/NamespaceExtension")
        XCTAssertEqual(project.versions.map(\.qualifiedName), ["Schemas.V1", "Schemas.V2", "Schemas.V3"])
        XCTAssertEqual(translated.files.map(\.name), ["swiftdata-gen.yaml", "1.0.0.yaml", "2.0.0.yaml", "3.0.0.yaml"])
        for file in translated.files.dropFirst() {
            XCTAssertTrue(file.text.contains("schema: Notebook\n"), file.text)
            XCTAssertTrue(
                file.text.contains("pages: { type: \"[Page]\", deleteRule: cascade, inverse: document }"), file.text)
        }
        XCTAssertEqual(translated.notes.map(\.description), [], "nothing here is left out")
    }

    /// An empty `init()` is what the generator writes when every stored property starts with a
    /// value, so it is not said; an init with parameters or a body, or beside a property without
    /// a value, is.
    func testOnlyAnInitTheGeneratorDoesNotWriteIsNoted() throws {
        let project = try extracted(
            """
            import SwiftData

            @Model final class Plain {
                var name: String = ""
                var note: String?
                init() {}
            }

            @Model final class Counted {
                var count: Int
                init() { count = 1 }
            }

            @Model final class Named {
                var name: String = ""
                init(name: String) { self.name = name }
            }
            """, file: "Models.swift")
        let notes = HistoryTranslator.translate(project).notes.map(\.message)
        let inits = notes.filter { $0.hasPrefix("init") }
        XCTAssertEqual(
            ["Plain", "Counted", "Named"].map { model in inits.contains { $0.contains(") of \(model) is not") } },
            [false, true, true], "\(notes)")
    }

    /// `enum Schemas { enum V1: VersionedSchema … }`: both versions, and the enum and struct kept
    /// in another namespace are each version's.
    func testVersionsNestedInANamespace() throws {
        try roundTrip("Layouts/NestedNamespace", versions: 2)
        let (project, translated) = try Self.imported("Layouts/NestedNamespace")
        XCTAssertEqual(project.versions.map(\.qualifiedName), ["Schemas.V1", "Schemas.V2"])
        let second = try XCTUnwrap(translated.files.last?.text)
        XCTAssertTrue(second.contains("Kind: { rawType: String, cases: [leisure, business] }"), second)
        XCTAssertTrue(second.contains("Place: { latitude: Double, longitude: Double }"), second)
    }

    /// Inside `V1`, `PinEntity` is V1's own alias of its `Pin`, not the module-scope alias of
    /// `V2.Pin`: V1 keeps its relationship, and the app's alias of the current version is kept.
    func testANestedAliasShadowsTheModuleScopeOne() throws {
        try roundTrip("Layouts/AliasShadowing", versions: 2)
        let (project, translated) = try Self.imported("Layouts/AliasShadowing")
        let board = try XCTUnwrap(project.versions.first?.models.first { $0.name == "Board" })
        XCTAssertEqual(board.properties.map(\.typeName), ["String", "Pin"])
        XCTAssertEqual(board.properties.last?.inverse, "board")
        XCTAssertFalse(translated.notes.contains { $0.message.contains("not a model") }, "\(translated.notes)")
        XCTAssertTrue(
            translated.files[0].text.contains("naming: { currentSchema: CurrentSchema }"), translated.files[0].text)
    }

    /// Public classes of a framework: the generated declarations are public, and the property the
    /// framework keeps internal stays so.
    func testPublicModelsOfAFramework() throws {
        try roundTrip("Layouts/PublicFramework", versions: 2)
        let (_, translated) = try Self.imported("Layouts/PublicFramework")
        XCTAssertTrue(translated.files[0].text.contains("access: public\n"), translated.files[0].text)
        let last = try XCTUnwrap(translated.files.last?.text)
        XCTAssertTrue(last.contains("checksum: { type: String, default: \"\", access: internal }"), last)
        XCTAssertTrue(last.contains("      title: { type: String, default: \"\" }\n"), last)
    }

    /// Bare `V1`, `V2` without the app's alias: the current version is not aliased `App`, which a
    /// SwiftUI app's entry point needs.
    func testBareVersionNames() throws {
        try roundTrip("Layouts/BareVersionNames", versions: 2)
        let (_, translated) = try Self.imported("Layouts/BareVersionNames")
        let yaml = try XCTUnwrap(translated.files.last?.text)
        XCTAssertTrue(yaml.hasPrefix("schema: App\nversion: 2.0.0\ntypeName: V2\n"), yaml)
        let sources = translated.files.map(ImportProof.source)
        let generated = Generator.generate(
            SchemaSources(config: sources.first, versions: Array(sources.dropFirst())),
            templates: try SchemaLoader.templates(overrideDirectory: nil).get())
        let swift = generated.files.map(\.contents).joined()
        XCTAssertTrue(swift.contains("typealias AppSchema = V2"), swift)
        XCTAssertFalse(swift.contains("typealias App "), swift)
    }

    /// A version enum whose derived alias would be `App`: renamed, with a note.
    func testACurrentAliasThatWouldHideSwiftUIsAppIsRenamed() throws {
        var project = try Self.imported("Layouts/BareVersionNames").0
        for index in project.versions.indices { project.versions[index].typeName = "AppV\(index + 1)" }
        let translated = HistoryTranslator.translate(project)
        XCTAssertTrue(translated.files[0].text.contains("currentSchema: CurrentApp"), translated.files[0].text)
        XCTAssertTrue(
            translated.notes.contains { $0.message.hasPrefix("the current version's alias would be App:") },
            "\(translated.notes)")
        XCTAssertEqual(ImportProof.check(translated), [])
    }

    /// Versions that only list models, one found at module scope and one of the same name in an
    /// extension of the version in another file, behind `#if` and `@available`.
    func testModelsDeclaredInExtensionsOfTheirVersion() throws {
        try roundTrip("Layouts/ExtendedVersions", versions: 2)
        let (project, translated) = try Self.imported("Layouts/ExtendedVersions")
        XCTAssertEqual(project.versions.map(\.qualifiedName), ["AppSchema.V2", "AppSchema.V1"])
        XCTAssertEqual(project.versions.map { $0.models.map(\.properties.count) }, [[4], [3]])
        XCTAssertEqual(translated.files.map(\.name), ["swiftdata-gen.yaml", "0.0.1.yaml", "0.0.2.yaml"])
        XCTAssertTrue(translated.files[0].text.contains("currentSchema: DBModel"), translated.files[0].text)
        let notes = translated.notes.map(\.message)
        XCTAssertTrue(
            notes.contains {
                $0 == "the app's custom stage from AppSchema.V1 to AppSchema.V2 runs no code; its step is planned from "
                    + "the schemas alone"
            }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("declarations inside #if canImport(SwiftData)") }, "\(notes)")
    }

    /// The four constructs of issue #40's 34-model app, each carried as the app declares it, and the
    /// generated schema stores what the app's does.
    func testWhatShippedAppsDeclareCanBeWritten() throws {
        try roundTrip("Layouts/ShippedConstructs", versions: 1)
        let (_, translated) = try Self.imported("Layouts/ShippedConstructs")
        let yaml = try XCTUnwrap(translated.files.last?.text)
        for line in [
            "unique: [[networkRaw, identity]]", "isDeleted: { type: Bool, default: false }",
            "localizations: { type: \"[String: Localization]?\" }",
            "profiles: { type: \"[Profile]?\", default: null, inverse: identity }",
            "owned: { type: \"[Profile]?\", inverse: owner }",
        ] {
            XCTAssertTrue(yaml.contains(line), "\(line) in\n\(yaml)")
        }
        XCTAssertTrue(translated.files[0].text.contains("platforms: { iOS: 18, macOS: 15 }"), translated.files[0].text)
    }

    /// A dictionary of plain values, whose storage no Apple-computed hash pins, is said, and the
    /// proof fails on it: the app stores it and the history would not.
    func testADictionaryTheDSLCannotSayFailsTheImport() throws {
        let project = try extracted(
            """
            import SwiftData

            @Model
            final class Profile {
                var name: String = ""
                var labels: [String: String]?
                init() {}
            }
            """, file: "Profile.swift")
        let translated = HistoryTranslator.translate(project)
        XCTAssertTrue(
            translated.notes.contains { $0.message.hasPrefix("Profile.labels is a [String: String]; the DSL stores") },
            "\(translated.notes)")
        XCTAssertEqual(
            ImportProof.check(translated).map(\.message),
            [
                "the app's models: the generated 1.0.0 does not store Profile.labels as the app does (app → "
                    + "generated: removed); a store of this version would not open"
            ])
    }

    /// Versions nested in a struct used as a namespace, one declared in the struct and one in an
    /// extension of it, with a model class nested one level further in a caseless enum.
    func testVersionsNestedInAStructNamespace() throws {
        let project = try extracted(
            """
            import SwiftData

            struct Storage {
                enum First: VersionedSchema {
                    static let versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Models.Note.self] }
                    enum Models {
                        @Model final class Note {
                            var text: String = ""
                            init() {}
                        }
                    }
                }
            }

            extension Storage {
                enum Second: VersionedSchema {
                    static let versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Note.self] }
                    @Model final class Note {
                        var text: String = ""
                        var pinned: Bool = false
                        init() {}
                    }
                }
            }
            """, file: "Storage.swift")
        XCTAssertEqual(project.versions.map(\.qualifiedName), ["Storage.First", "Storage.Second"])
        XCTAssertEqual(project.versions.map { $0.models.map(\.properties.count) }, [[1], [2]])
        XCTAssertEqual(project.notes.filter(\.isError), [])
        XCTAssertEqual(ImportProof.check(HistoryTranslator.translate(project)), [])
    }

    static func imported(_ name: String) throws -> (ImportedProject, HistoryTranslator.Output) {
        let project = ModelExtractor.extract(
            try SwiftSourceLoader.read([RoundTripTests.fixtures.appendingPathComponent(name).path]))
        return (project, HistoryTranslator.translate(project))
    }
}

extension LayoutTests {
    func testArgumentsInEverySpelling() throws {
        try roundTrip("Layouts/Arguments", versions: 1, module: "Arguments")
        let (project, translated) = try Self.imported("Layouts/Arguments")
        let yaml = try XCTUnwrap(translated.files.first { $0.name == "1.0.0.yaml" }?.text)
        for line in [
            "unique: [[code]]",
            "products: { type: \"[Product]\", deleteRule: cascade, inverse: vendor, maxCount: 500 }",
            "unique: [[sku], [name, size]]", "indexes: [[name], [sku], [size]]",
        ] {
            XCTAssertTrue(yaml.contains(line), "\(line) in\n\(yaml)")
        }
        let notes = project.notes.map(\.description)
        XCTAssertTrue(
            notes.contains {
                $0.contains("Shop.swift:29:48: note: .rtree([\\.weight]) of #Index on Product is not carried")
            },
            notes.joined(separator: "\n"))
    }
}
