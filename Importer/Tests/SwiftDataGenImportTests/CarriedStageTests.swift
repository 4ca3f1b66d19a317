import Foundation
import SwiftDataGenCore
import XCTest

@testable import SwiftDataGenImport

/// The app's custom stages come along: the version each leads to says where it was, the hooks
/// file holds its code in the phases the app ran it, and a store migrated by the generated plan
/// ends as the app's own plan leaves it.
final class CarriedStageTests: XCTestCase {
    /// Journal's last stage fills `wordCount` in `didMigrate`: migrated by the app's plan and by the
    /// generated one with the carried hooks, a 2.0.0 store ends with the same rows and values.
    func testJournalsStageRunsAsTheAppRanIt() throws {
        let fixture = RoundTripTests.fixtures.appendingPathComponent("Journal")
        let sources = try SwiftSourceLoader.read([fixture.path])
        let project = ModelExtractor.extract(sources)
        let translated = HistoryTranslator.translate(project)
        let v4 = try XCTUnwrap(translated.files.first { $0.name == "2.1.0.yaml" }?.text)
        XCTAssertTrue(v4.contains("carriedFrom: \"JournalSchemaV4.swift:62\"\n"), v4)
        XCTAssertFalse(
            translated.files.contains { $0.name != "2.1.0.yaml" && $0.text.contains("carriedFrom") },
            "only the version the custom stage leads to is carried")
        XCTAssertEqual(ImportProof.check(translated), [])
        let history = try XCTUnwrap(ImportProof.validated(translated).0.first)
        let hooks = try XCTUnwrap(CarriedStages.hooksFile(translated, history: history))
        XCTAssertEqual(hooks.name, "JournalMigrationHooks.swift")
        XCTAssertTrue(
            hooks.text.contains(
                "    /// On the 2.1.0 schema, after the upgrade: the app's didMigrate, carried from JournalSchemaV4.swift:65.\n"
                    + "    static func didMigrateToV2_1(_ context: ModelContext) throws {\n"
                    + "        for entry in try context.fetch(FetchDescriptor<JournalSchemaV4.Entry>()) {\n"
                    + "            entry.wordCount = entry.text.split(separator: \" \").count\n        }\n"
                    + "        try context.save()\n    }\n"), hooks.text)
        XCTAssertTrue(hooks.text.contains("static func willMigrateToV2_1(_ context: ModelContext) throws {}"))
        let comparison = CarriedStages.comparison(project.stages, output: translated, history: history)
        XCTAssertTrue(
            comparison.contains {
                $0.hasPrefix(
                    "2.0.0 → 2.1.0: the app runs custom (JournalSchemaV4.swift:62; didMigrate at "
                        + "JournalSchemaV4.swift:65); the generated plan runs custom 2.0.0 → 2.1.0")
            }, comparison.joined(separator: "\n"))
        XCTAssertEqual(comparison.filter { $0.contains("a launch ended during it does not run it again") }.count, 1)
        XCTAssertEqual(
            PlanReport(histories: [history]).steps.last?.carriedFromApp.map { $0.components(separatedBy: " — ")[0] },
            ["JournalMigrationHooks.willMigrateToV2_1(_:)", "JournalMigrationHooks.didMigrateToV2_1(_:)"])

        let probe = """
            import Foundation
            import SwiftData

            // The latest schema claims the entity names first, as in the app.
            _ = try ModelContainer(
                for: Schema(versionedSchema: JournalSchemaV4.self),
                configurations: ModelConfiguration(isStoredInMemoryOnly: true))
            let url = URL(fileURLWithPath: CommandLine.arguments[1])
            do {
                let container = try ModelContainer(
                    for: Schema(versionedSchema: JournalSchemaV3.self), configurations: ModelConfiguration(url: url))
                let context = ModelContext(container)
                context.insert(JournalSchemaV3.Entry(title: "one", createdAt: Date(timeIntervalSince1970: 0)))
                let two = JournalSchemaV3.Entry(title: "two", createdAt: Date(timeIntervalSince1970: 1))
                two.text = "a b c"
                context.insert(two)
                try context.save()
            }
            let container = try ModelContainer(
                for: Schema(versionedSchema: JournalSchemaV4.self), migrationPlan: JournalMigrationPlan.self,
                configurations: ModelConfiguration(url: url))
            let entries = try ModelContext(container).fetch(
                FetchDescriptor<JournalSchemaV4.Entry>(sortBy: [SortDescriptor(\\.createdAt)]))
            for entry in entries { print("row", entry.headline, entry.text, entry.wordCount) }
            """
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-carried-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let generated = try generatedSwift(translated, hooks: hooks, into: work.appendingPathComponent("Generated"))
        let byApp = try compiledAgainstStandIn(
            sources.map(\.path), main: probe, swiftVersion: "5", module: "main",
            work: work.appendingPathComponent("app"), arguments: [work.appendingPathComponent("app.store").path])
        let byGenerated = try compiledAgainstStandIn(
            generated, main: probe, swiftVersion: "6", module: "main", work: work.appendingPathComponent("generated"),
            arguments: [work.appendingPathComponent("generated.store").path])
        let rows = { (output: String?) in output?.split(separator: "\n").filter { $0.hasPrefix("row ") } ?? [] }
        XCTAssertEqual(rows(byApp), ["row one  0", "row two a b c 3"], byApp ?? "")
        XCTAssertEqual(rows(byGenerated), rows(byApp), byGenerated ?? "")
    }

    /// However the plan builds its stages (a static property, a function in an extension of
    /// `MigrationStage`, a function named as a phase, `$0`, a trailing closure), each is read with
    /// its code, and the hooks file made from them compiles with the generated code.
    func testEveryFormOfStageIsRead() throws {
        let source =
            "import SwiftData\n\n"
            + Self.itemVersions([
                ["var name: String = \"\""], ["var name: String = \"\"", "var size: Int = 0"],
                ["var name: String = \"\"", "var size: Int = 0", "var note: String?"],
            ])
                + """
                extension MigrationStage {
                    static func twoToThree() -> MigrationStage {
                        .custom(fromVersion: V2.self, toVersion: V3.self, willMigrate: Plan.clear) { context in
                            try context.save()
                        }
                    }
                }

                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self, V3.self] }
                    static var stages: [MigrationStage] {
                        var all = [oneToTwo]
                        all.append(.twoToThree())
                        return all
                    }
                    static let oneToTwo = MigrationStage.custom(
                        fromVersion: V1.self, toVersion: V2.self,
                        willMigrate: {
                            try $0.save()
                        }, didMigrate: nil)
                    static func clear(_ modelContext: ModelContext) throws {
                        try modelContext.delete(model: V2.Item.self)
                    }
                }
                """
        let project = try extracted(source, file: "Plan.swift")
        XCTAssertEqual(project.notes.filter(\.isError), [])
        XCTAssertEqual(project.stages.map { "\($0.kind) \($0.from) → \($0.to)" }, ["custom V1 → V2", "custom V2 → V3"])
        XCTAssertEqual(project.stages.first?.willMigrate?.parameter, .some(nil), "a closure reading $0")
        XCTAssertEqual(project.stages.first?.willMigrate?.statements, "try $0.save()")
        XCTAssertNil(project.stages.first?.didMigrate)
        XCTAssertEqual(project.stages.last?.willMigrate?.parameter, "modelContext")
        XCTAssertEqual(project.stages.last?.willMigrate?.statements, "try modelContext.delete(model: V2.Item.self)")
        XCTAssertEqual(project.stages.last?.willMigrate?.location.line, 53, "the function named, not the stage")
        XCTAssertEqual(project.stages.last?.didMigrate?.statements, "try context.save()", "the trailing closure")

        let translated = HistoryTranslator.translate(project)
        XCTAssertEqual(ImportProof.check(translated), [])
        let history = try XCTUnwrap(ImportProof.validated(translated).0.first)
        let hooks = try XCTUnwrap(CarriedStages.hooksFile(translated, history: history))
        XCTAssertTrue(hooks.text.contains("let carried: (ModelContext) throws -> Void = {\n"), hooks.text)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-forms-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let generated = try generatedSwift(translated, hooks: hooks, into: work.appendingPathComponent("Generated"))
        let printed = try compiledAgainstStandIn(
            generated, main: "print(\"compiled\")", swiftVersion: "6", module: "main", work: work)
        XCTAssertEqual(printed?.contains("compiled"), true, printed ?? "")
    }

    /// The names carried code uses are read as Swift reads them: not inside strings or comments.
    func testTheNamesCarriedCodeUsesAreReadByTheParser() {
        XCTAssertEqual(
            CarriedStages.identifiers(in: "let s = \"Legacy\" // Old\n_ = Schemas.V1.Item.self\n`Store`.x"),
            ["s", "Schemas", "V1", "Item", "Store", "x"])
    }

    /// A name in `stages` the importer cannot follow, or a phase it cannot read, stops the import at
    /// that line: a stage it did not see would drop what the app's code did.
    func testAStageTheImporterCannotSeeIsAnError() throws {
        let schema =
            "import SwiftData\n\n"
            + Self.itemVersions([["var name: String = \"\""], ["var name: String = \"\"", "var size: Int = 0"]])
        let cases: [(String, String)] = [
            ("static var stages: [MigrationStage] { [] + moreStages }", "stages uses 'moreStages'"),
            (
                "static var stages: [MigrationStage] { [.custom(fromVersion: V1.self, toVersion: V2.self, "
                    + "willMigrate: Helpers.make(), didMigrate: nil)] }",
                "'Helpers.make()' is none of these"
            ),
            (
                "static var stages: [MigrationStage] { [.custom(fromVersion: V0.self, toVersion: V2.self, "
                    + "willMigrate: nil, didMigrate: nil)] }",
                "'V0.self' in a stage of Plan names no VersionedSchema"
            ),
        ]
        for (stages, expected) in cases {
            let plan =
                "enum Plan: SchemaMigrationPlan {\n    static var schemas: [any VersionedSchema.Type] { [V1.self, "
                + "V2.self] }\n    \(stages)\n}\n"
            let project = try extracted(schema + plan, file: "App.swift")
            let errors = project.notes.filter(\.isError)
            XCTAssertTrue(errors.contains { $0.message.contains(expected) && $0.position.line == 24 }, "\(errors)")
        }
    }

    /// Versions V1, V2, … of one model `Item`, each with the property lines given, a blank line
    /// after each version.
    static func itemVersions(_ properties: [[String]]) -> String {
        properties.enumerated().map { index, lines in
            """
            enum V\(index + 1): VersionedSchema {
                static var versionIdentifier: Schema.Version { Schema.Version(\(index + 1), 0, 0) }
                static var models: [any PersistentModel.Type] { [Item.self] }
                @Model final class Item {
            \(lines.map { "        " + $0 + "\n" }.joined())        init() {}
                }
            }


            """
        }.joined()
    }

    /// The generated Swift of an import, with its hooks file, as paths to compile.
    private func generatedSwift(
        _ translated: HistoryTranslator.Output, hooks: (name: String, text: String), into folder: URL
    ) throws -> [String] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let read = SchemaSources(
            config: translated.files.first { $0.name == "swiftdata-gen.yaml" }.map(ImportProof.source),
            versions: translated.files.filter { $0.name != "swiftdata-gen.yaml" }.map(ImportProof.source))
        let generated = Generator.generate(read, templates: try SchemaLoader.templates(overrideDirectory: nil).get())
        XCTAssertFalse(generated.diagnostics.hasErrors, generated.diagnostics.map(\.rendered).joined(separator: "\n"))
        var paths: [String] = []
        for (name, contents) in generated.files.map({ ($0.name, $0.contents) }) + [hooks] {
            let url = folder.appendingPathComponent(name)
            try contents.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        return paths
    }
}
