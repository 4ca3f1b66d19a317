import XCTest

@testable import SwiftDataGenCore

/// The planner's decisions and refusals that the goldens do not already pin down.
final class PlannerTests: XCTestCase {
    private func history(_ versions: [String], config: String? = nil) throws -> SchemaHistory {
        let files = versions.enumerated().map {
            SourceFile(displayPath: "v\($0 + 1).yaml", relativePath: "v\($0 + 1).yaml", bytes: Array($1.utf8))
        }
        let configFile = config.map { SourceFile(displayPath: "c.yaml", relativePath: "c.yaml", bytes: Array($0.utf8)) }
        let (histories, diagnostics) = Generator.validate(SchemaSources(config: configFile, versions: files))
        XCTAssertFalse(diagnostics.hasErrors, diagnostics.map(\.rendered).joined(separator: "\n"))
        return try XCTUnwrap(histories.first)
    }

    private func plan(_ versions: [String], config: String? = nil) throws -> (MigrationPlan, [Diagnostic]) {
        MigrationPlanner.plan(try history(versions, config: config))
    }

    private func version(_ number: String, _ models: String) -> String {
        "schema: App\nversion: \(number)\nmodels:\n" + models
    }

    func testOnlyLightweightChangesGiveOneLightweightStage() throws {
        let (plan, diagnostics) = try plan([
            version("1.0.0", "  A:\n    properties:\n      a: String\n"),
            version(
                "2.0.0",
                "  A:\n    properties:\n      a: String\n      b: Int?\n      c: { type: Bool, default: false }\n "
                    + " B:\n    properties:\n      x: Int\n"
            ),
        ])
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(
            plan.steps.first?.stages,
            [.lightweight(from: .version(SemanticVersion(1, 0, 0)), to: .version(SemanticVersion(2, 0, 0)))])
        XCTAssertEqual(
            plan.steps.first?.changes,
            [.propertyAdded(model: "A", property: "b"), .propertyAdded(model: "A", property: "c"), .modelAdded("B")])
    }

    func testDiffNamesEveryKindOfChange() throws {
        let old = version(
            "1.0.0",
            """
              A:
                properties:
                  a: { type: String, spotlight: true }
                  b: String?
                  bs: { type: "[B]", inverse: a, deleteRule: nullify }
              B:
                properties:
                  a: A?

            """)
        let new = version(
            "2.0.0",
            """
              A:
                properties:
                  a: { type: String, default: x }
                  b: { type: String, default: "" }
                  bs: { type: "[B]", inverse: a, deleteRule: cascade, maxCount: 3 }
              B:
                properties:
                  a: A?

            """)
        let changes = SchemaDiff(naming: NamingConfig()).changes(
            from: try history([old, new]).versions[0], to: try history([old, new]).versions[1])
        XCTAssertEqual(
            changes.map(\.summary),
            [
                "A.a changed its default",
                "A.a attribute options changed from [spotlight] to []",
                "A.b became required",
                "A.b changed its default",
                "A.bs delete rule changed from nullify to cascade",
                "A.bs changed from to-many to to-many (max 3)",
            ])
    }

    func testBridgeNeedsAVersionNumberInBetween() throws {
        let (_, diagnostics) = try plan([
            version("1.0.0", "  A:\n    properties:\n      n: String\n"),
            version(
                "1.0.1",
                "  A:\n    properties:\n      count: { type: Int, default: 0, from: { property: n, convert: "
                    + "\"Int($0) ?? 0\" } }\n"
            ),
        ])
        let match = diagnostics.first { $0.code == .noRoomForBridge }
        XCTAssertEqual(match?.location?.file, "v2.yaml")
        XCTAssertTrue(match?.message.contains("number this version 1.1.0 or later") == true, match?.message ?? "")
    }

    func testLinkTargetMustBeCreatableFromTheText() throws {
        let (_, diagnostics) = try plan([
            version("1.0.0", "  A:\n    properties:\n      city: String\n"),
            version(
                "2.0.0",
                "  A:\n    properties:\n      city: { type: City?, from: { property: city, match: name }, "
                    + "inverse: people }\n  City:\n    properties:\n      name: String\n      code: String\n      "
                    + "people: \"[A]\"\n"
            ),
        ])
        let match = diagnostics.first { $0.code == .linkTargetNotCreatable }
        XCTAssertTrue(match?.message.contains("give code a default or make it optional") == true, match?.message ?? "")
    }

    func testRenameAndConversionTogetherAreRefused() throws {
        let (_, diagnostics) = try plan([
            version("1.0.0", "  A:\n    properties:\n      n: String\n"),
            version(
                "2.0.0",
                "  A:\n    properties:\n      m: { type: Int, default: 0, renamedFrom: n, from: { property: n, "
                    + "convert: \"Int($0) ?? 0\" } }\n"
            ),
        ])
        XCTAssertEqual(diagnostics.first?.code, .conversionConflict)
    }

    func testConversionIntoANameTheOldModelStillHasIsRefused() throws {
        let (_, diagnostics) = try plan([
            version("1.0.0", "  A:\n    properties:\n      n: String\n      m: String\n"),
            version(
                "2.0.0",
                "  A:\n    properties:\n      n: { type: Int, default: 0, from: { property: m, convert: \"Int($0) "
                    + "?? 0\" } }\n"
            ),
        ])
        XCTAssertEqual(diagnostics.first { $0.isError }?.code, .conversionConflict)
        XCTAssertTrue(diagnostics.first { $0.isError }?.message.contains("already has a property 'n'") == true)
    }

    func testConversionIntoAnEnumWhoseRawValuesChangedIsRefused() throws {
        let v1 =
            "schema: App\nversion: 1.0.0\nenums:\n  E: { rawType: String, cases: { a: x, b: y } }\nmodels:\n  "
            + "A:\n    properties:\n      t: String\n      e: { type: E, default: a }\n"
        let v2 =
            "schema: App\nversion: 2.0.0\nenums:\n  E: { rawType: String, cases: { a: x, b: z } }\nmodels:\n  "
            + "A:\n    properties:\n      t: String\n      e: { type: E, default: a }\n      f: { type: E?, from: { "
            + "property: t, convert: \"E(rawValue: $0)\" } }\n"
        let (_, diagnostics) = try plan([v1, v2])
        XCTAssertEqual(diagnostics.first { $0.isError }?.code, .conversionConflict)
    }

    /// A typed accessor over a column the app already stores keeps the column and its values:
    /// no removal, no fresh identifier, no conversion (found in real apps' histories).
    func testATypedAccessorKeepsTheColumnItAdopts() throws {
        let enums = "enums:\n  Status: { rawType: String, cases: [planned, done] }\n"
        let (plan, diagnostics) = try plan([
            version(
                "1.0.0",
                "  A:\n    properties:\n      syncRaw: { type: String, default: \"planned\" }\n      "
                    + "statusRawValue: String\n"
            ),
            "schema: App\nversion: 2.0.0\n" + enums
                + "models:\n  A:\n    properties:\n      sync: { type: Status, storedName: syncRaw, default: planned }\n      status: Status\n",
        ])
        XCTAssertEqual(diagnostics, [], "nothing is removed or converted")
        XCTAssertEqual(
            plan.steps.first?.changes,
            [
                .columnAdopted(model: "A", from: "syncRaw", to: "sync", column: "syncRaw"),
                .columnAdopted(model: "A", from: "statusRawValue", to: "status", column: "statusRawValue"),
            ])
        let history = try history([
            version("1.0.0", "  A:\n    properties:\n      syncRaw: String\n"),
            "schema: App\nversion: 2.0.0\n" + enums
                + "models:\n  A:\n    properties:\n      sync: { type: Status, storedName: syncRaw }\n      extra: Int?\n",
        ])
        XCTAssertNil(
            history.versions[1].models[0].property(named: "sync")?.originalName, "the column keeps its identifier")
        // A rename into an enum over the same stored type is a rename, not a change of type.
        let (renamed, renameDiagnostics) = try self.plan([
            version("1.0.0", "  A:\n    properties:\n      statusText: String\n"),
            "schema: App\nversion: 2.0.0\n" + enums
                + "models:\n  A:\n    properties:\n      status: { type: Status, renamedFrom: statusText }\n",
        ])
        XCTAssertEqual(renameDiagnostics, [])
        XCTAssertEqual(renamed.steps.first?.changes, [.propertyRenamed(model: "A", from: "statusText", to: "status")])
    }

    /// Converting a column into a property stored in that very column would make the bridge
    /// declare one stored name twice; refused once, with what to do.
    func testConvertingIntoTheSourcesOwnColumnIsRefusedOnce() throws {
        let (_, diagnostics) = try plan([
            version("1.0.0", "  A:\n    properties:\n      statusRawValue: String\n"),
            "schema: App\nversion: 2.0.0\nenums:\n  Status: { rawType: String, cases: [planned, done] "
                + "}\nmodels:\n  A:\n    properties:\n"
                + "      status: { type: Status, default: planned, from: { property: statusRawValue, convert: \"Status(rawValue: $0) ?? .planned\" } }\n",
        ])
        XCTAssertEqual(diagnostics.map(\.code), [.conversionConflict])
        XCTAssertTrue(
            diagnostics.first?.message.contains("nothing to convert: remove from:") == true,
            diagnostics.first?.message ?? "")
    }

    /// A key unique as text and converted to a number stays unique only if converted values do
    /// not repeat ("7" and "007"): the step de-duplicates on the converted values, or asks how.
    func testUniquenessOverAConvertedKeyIsNewUniqueness() throws {
        let v1 = version("1.0.0", "  A:\n    properties:\n      code: { type: String, unique: true }\n      at: Date\n")
        let converted =
            "      code: { type: Int, unique: true, default: 0, from: { property: code, convert: \"Int($0) ?? 0\" "
            + "} }\n      at: Date\n"
        let (_, refused) = try plan([v1, version("2.0.0", "  A:\n    properties:\n" + converted)])
        XCTAssertEqual(refused.map(\.code), [.uniquenessNeedsDedupe])
        XCTAssertTrue(
            refused.first?.message.contains("stays unique by (code), but this step converts its values") == true,
            refused.first?.message ?? "")
        let (plan, diagnostics) = try plan([
            v1, version("2.0.0", "  A:\n    dedupe: { keep: last, orderBy: at }\n    properties:\n" + converted),
        ])
        XCTAssertEqual(diagnostics, [], "the policy is used, not reported unused")
        let dedupes = plan.steps.first?.stages.flatMap(\.actions).compactMap { action -> MigrationPlan.Deduplication? in
            if case .deduplicate(let dedupe) = action { return dedupe }
            return nil
        }
        XCTAssertEqual(dedupes?.map(\.keys), [["codeConverted"]], "on the converted values, in the bridge")
    }

    /// A struct stored `.codable` is one encoded value: a change to its fields derives no stage and
    /// warns (SDG635); moving a property between a composite and `.codable` is a change of stored
    /// type, refused until its values are copied (SDG621), and copied through a bridge when they are.
    func testCodableStructsChangeShapeWithoutAStageAndMoveStorageThroughABridge() throws {
        let config = "platforms: { iOS: 27, macOS: 27 }\n"
        func spot(_ fields: String, _ properties: String) -> String {
            "structs:\n  Spot: { \(fields) }\n  Pin: { x: Double }\n" + "models:\n  A:\n    properties:\n" + properties
        }
        func numbered(_ number: String, _ body: String) -> String { "schema: App\nversion: \(number)\n" + body }
        let v1 = numbered(
            "1.0.0", spot("x: Double", "      n: String\n      s: { type: Spot, codable: true }\n      t: Pin?\n"))
        let grown = numbered(
            "2.0.0",
            spot("x: Double, y: Double?", "      n: String\n      s: { type: Spot, codable: true }\n      t: Pin?\n"))
        let (grownPlan, warned) = try plan([v1, grown], config: config)
        XCTAssertEqual(warned.map(\.code), [.codableShapeChanged])
        // The checksum would not move: the generator separates the versions with a hashModifier, and
        // the one stage moves nothing.
        XCTAssertEqual(grownPlan.steps.first?.stages.count, 1)
        XCTAssertEqual(grownPlan.steps.first?.stages.flatMap(\.actions).count, 0)

        let moved = numbered(
            "2.0.0",
            spot(
                "x: Double",
                "      n: String\n      s: { type: Spot, codable: true }\n      t: { type: Pin?, codable: true }\n"))
        let files = [v1, moved].enumerated().map {
            SourceFile(displayPath: "v\($0 + 1).yaml", relativePath: "v\($0 + 1).yaml", bytes: Array($1.utf8))
        }
        let configFile = SourceFile(displayPath: "c.yaml", relativePath: "c.yaml", bytes: Array(config.utf8))
        let (histories, _) = Generator.validate(SchemaSources(config: configFile, versions: files))
        let refused = MigrationPlanner.plan(try XCTUnwrap(histories.first)).diagnostics.filter(\.isError)
        XCTAssertEqual(refused.map(\.code), [.typeChangeLosesData])
        XCTAssertTrue(refused.first?.message.contains("convert: \"$0\"") == true, refused.first?.message ?? "")

        let copied = moved.replacingOccurrences(
            of: "t: { type: Pin?, codable: true }",
            with: "t: { type: Pin?, codable: true, from: { property: t, convert: \"$0\" } }")
        let (bridged, diagnostics) = try plan([v1, copied], config: config)
        XCTAssertEqual(diagnostics.filter(\.isError), [])
        XCTAssertTrue(bridged.steps.first?.stages.flatMap(\.actions).contains { $0.label == "convert A.t" } == true)
    }

    /// A property removed and one of the same type added in the same model may be a rename written
    /// without renamedFrom (SwiftData would drop every value: SimulatorTests' "rename as a drop and an
    /// add"): the advice that deletes the data leads with the question, naming every candidate.
    func testADropAndAnAddOfOneTypeAsksWhetherItIsARename() throws {
        let v1 = version("1.0.0", "  Note:\n    properties:\n      title: String\n      body: String\n      n: Int\n")
        let required = version(
            "2.0.0", "  Note:\n    properties:\n      heading: String\n      body: String\n      n: Int\n")
        let files = [v1, required].enumerated().map {
            SourceFile(displayPath: "v\($0 + 1).yaml", relativePath: "v\($0 + 1).yaml", bytes: Array($1.utf8))
        }
        let (histories, _) = Generator.validate(SchemaSources(config: nil, versions: files))
        let said = MigrationPlanner.plan(try XCTUnwrap(histories.first)).diagnostics
        let asked = "then write heading: { type: String, renamedFrom: title } to keep its values"
        for code in [DiagnosticCode.requiredPropertyAdded, .dataLoss] {
            let message = try XCTUnwrap(said.first { $0.code == code }?.message, "\(code)")
            XCTAssertTrue(message.hasPrefix("is `"), "\(code) does not lead with the question: \(message)")
            XCTAssertTrue(message.contains(asked), message)
        }
        let defaulted = version(
            "2.0.0",
            "  Note:\n    properties:\n      heading: { type: String, default: \"\" }\n      body: String\n      n: Int\n"
        )
        let (defaultedPlan, warned) = try plan([v1, defaulted])
        XCTAssertEqual(warned.map(\.code), [.dataLoss])
        XCTAssertTrue(warned.first?.message.hasPrefix("is `title` renamed to `heading`?") == true, "\(warned)")
        XCTAssertTrue(
            defaultedPlan.steps.first?.changeDescriptions.contains {
                $0.contains("Note.title removed (its data is lost unless: is `title` renamed to `heading`?")
            } == true)

        let two = version("1.0.0", "  Note:\n    properties:\n      title: String\n      name: String\n      n: Int\n")
        let (_, both) = try plan([two, defaulted.replacingOccurrences(of: "      body: String\n", with: "")])
        XCTAssertEqual(both.count, 2)
        XCTAssertTrue(both.allSatisfy { $0.message.contains("renamed to `heading`?") }, "\(both.map(\.message))")

        let otherType = defaulted.replacingOccurrences(
            of: "{ type: String, default: \"\" }", with: "{ type: Int, default: 0 }")
        let (_, unrelated) = try plan([v1, otherType])
        XCTAssertFalse(unrelated.contains { $0.message.contains("renamed") }, "a different type is no rename")
        // A model removed and one of the same stored properties added: asked first, answered by renamedFrom.
        let tag = version("1.0.0", "  Tag:\n    properties:\n      name: String\n      color: Int\n")
        let label = version("2.0.0", "  Label:\n    properties:\n      name: String\n      color: Int\n")
        let (modelPlan, model) = try plan([tag, label])
        XCTAssertTrue(
            modelPlan.steps.first?.changeDescriptions.contains(
                "model Tag removed (its rows are lost unless: is `Tag` renamed to `Label`? see the warning)") == true)
        XCTAssertTrue(
            model.first { $0.code == .dataLoss }?.message.hasPrefix(
                "is `Tag` renamed to `Label`? then write renamedFrom: Tag on Label (the plan copies every Tag "
                    + "into a Label and moves its links)") == true, "\(model.map(\.message))")
        let acknowledged = "acknowledgedRemovals: [Note.title]\n" + defaulted
        let (_, quiet) = try plan([v1, acknowledged])
        XCTAssertEqual(quiet, [], "an acknowledged removal is not asked about")
    }

    func testConvertedSourceIsNotReportedAsLost() throws {
        let (plan, diagnostics) = try plan([
            version("1.0.0", "  A:\n    properties:\n      text: String\n"),
            version(
                "2.0.0",
                "  A:\n    properties:\n      value: { type: Int, default: 0, from: { property: text, convert: "
                    + "\"Int($0) ?? 0\" } }\n"
            ),
        ])
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(plan.bridges.map(\.schema.version), [SemanticVersion(1, 0, 1)])
        XCTAssertEqual(
            plan.schemas,
            [
                .version(SemanticVersion(1, 0, 0)), .bridge(into: SemanticVersion(2, 0, 0)),
                .version(SemanticVersion(2, 0, 0)),
            ])
    }

    func testSameNameConversionRenamesThroughTheBridgeInEveryLaterVersion() throws {
        let h = try history([
            version("1.0.0", "  A:\n    properties:\n      n: String\n"),
            version(
                "2.0.0",
                "  A:\n    properties:\n      n: { type: Int, default: 0, from: { property: n, convert: \"Int($0) "
                    + "?? 0\" } }\n"
            ),
            version("3.0.0", "  A:\n    properties:\n      n: { type: Int, default: 0 }\n      extra: String?\n"),
        ])
        XCTAssertEqual(
            h.versions.map { $0.models[0].property(named: "n")?.originalName }, [nil, "nConverted", "nConverted"])
        let (plan, _) = MigrationPlanner.plan(h)
        XCTAssertEqual(plan.bridges.first?.schema.model(named: "A")?.properties.map(\.name), ["n", "nConverted"])
    }

    func testCustomMigrationCallsBothHooks() throws {
        let v2 =
            "schema: App\nversion: 2.0.0\ncustomMigration: true\nmodels:\n  A:\n    properties:\n      a: "
            + "String\n      b: String?\n"
        let (plan, diagnostics) = try plan([version("1.0.0", "  A:\n    properties:\n      a: String\n"), v2])
        XCTAssertEqual(plan.hooks.map(\.name), ["willMigrateToV2", "didMigrateToV2"])
        XCTAssertEqual(diagnostics.map(\.code), [.hookRequired])
    }

    /// What only willMigrate's code can do (a new uniqueness, a property made required) is refused
    /// in a plain step and, in a step whose hooks run code, a warning naming what that code must
    /// leave true; a type change is refused in both, since no schema step changes a type. A stage
    /// carried from the app is listed as such, not as code to write.
    func testCustomCodeTurnsRefusalsIntoObligations() throws {
        let v1 = version("1.0.0", "  A:\n    properties:\n      a: String\n      b: String?\n      c: Int\n")
        let changed =
            "models:\n  A:\n    unique: [[a]]\n    properties:\n      a: String\n      b: String\n      c: Int\n"
        let refused = try plan([v1, "schema: App\nversion: 2.0.0\n" + changed]).1
        XCTAssertEqual(Set(refused.filter(\.isError).map(\.code)), [.optionalityTightened, .uniquenessNeedsDedupe])

        let carried = "schema: App\nversion: 2.0.0\ncarriedFrom: \"Plan.swift:42\"\n"
        let (plan, said) = try plan([v1, carried + changed])
        XCTAssertFalse(said.contains(where: \.isError), said.map(\.rendered).joined(separator: "\n"))
        let obligations = said.filter { $0.code == .customCodeObligation }.map(\.message)
        XCTAssertEqual(obligations.count, 2, obligations.joined(separator: "\n"))
        for expected in ["leave no A whose b is nil", "leave no two A objects with equal (a)"] {
            XCTAssertTrue(obligations.contains { $0.contains(expected) }, "\(expected) in \(obligations)")
        }
        XCTAssertTrue(obligations.allSatisfy { $0.contains("carried from Plan.swift:42") }, "\(obligations)")
        XCTAssertFalse(said.contains { $0.code == .hookRequired }, "carried hooks are not code to write")
        let step = try XCTUnwrap(plan.steps.first)
        XCTAssertEqual(step.teamMustWrite, [])
        XCTAssertEqual(step.carriedFromApp.count, 2)
        XCTAssertTrue(step.carriedFromApp.allSatisfy { $0.contains("carried from Plan.swift:42") }, "\(step)")
        XCTAssertEqual(plan.hooks.map(\.name), ["willMigrateToV2", "didMigrateToV2"])
        let report = PlanReport(histories: [try history([v1, carried + changed])]).text
        XCTAssertTrue(
            report.contains("  you write: nothing\n  carried from the app:\n    - AppMigrationHooks.willMigrateToV2"),
            report)

        let retyped = changed.replacingOccurrences(of: "c: Int", with: "c: String")
        XCTAssertEqual(
            try self.plan([v1, carried + retyped]).1.filter(\.isError).map(\.code), [.typeChangeLosesData],
            "no hook makes a schema step change a type")
    }

    /// A relationship is never converted: a destination replaced by a new model (the old one
    /// removed, as apps rename model classes) is what shipped and loses only its links, said once
    /// and acknowledged like the model; any other change of destination or kind is refused with
    /// advice that never asks for a conversion of a relationship.
    func testARelationshipWhoseDestinationIsReplacedKeepsTheHistoryValid() throws {
        let v1 = version(
            "1.0.0",
            "  Card:\n    properties:\n      rules: { type: \"[Rule]\", inverse: card }\n  Rule:\n    properties:\n"
                + "      text: String\n      card: Card?\n")
        let replacedBody =
            "  Card:\n    properties:\n      rules: { type: \"[RuleV2]\", inverse: card }\n  RuleV2:\n    properties:\n"
            + "      text: String\n      card: Card?\n"
        let (_, said) = try plan([v1, version("2.0.0", replacedBody)])
        XCTAssertFalse(said.contains(where: \.isError), said.map(\.rendered).joined(separator: "\n"))
        let links = said.filter { $0.message.contains("Card.rules now leads to RuleV2, which replaces Rule") }
        XCTAssertEqual(links.map(\.code), [.dataLoss])
        let acknowledged = "schema: App\nversion: 2.0.0\nacknowledgedRemovals: [Rule]\nmodels:\n" + replacedBody
        XCTAssertEqual(try plan([v1, acknowledged]).1.map(\.code), [], "acknowledging the model covers its links")

        let retargeted = version(
            "2.0.0",
            "  Card:\n    properties:\n      rules: { type: \"[Note]\", inverse: card }\n  Rule:\n    properties:\n"
                + "      text: String\n  Note:\n    properties:\n      card: Card?\n")
        let kinds = version(
            "2.0.0",
            "  Card:\n    properties:\n      rules: Data?\n  Rule:\n    properties:\n      text: String\n")
        for (body, expected) in [(retargeted, "links cannot move to another model"), (kinds, "never converted")] {
            let errors = try plan([v1, body]).1.filter(\.isError)
            XCTAssertEqual(errors.map(\.code), [.typeChangeLosesData], "\(errors.map(\.rendered))")
            XCTAssertTrue(
                errors.allSatisfy { $0.message.contains(expected) && !$0.message.contains("convert:") },
                "\(errors.map(\.message))")
        }
    }

    /// A model renamed with `renamedFrom` is copied through a bridge that holds both classes; the
    /// links of other models follow it under a new identifier, filled in the same willMigrate.
    func testAModelRenameCopiesEveryRowAndMovesEveryLink() throws {
        let (plan, diagnostics) = try plan([
            version(
                "1.0.0",
                "  Tag:\n    properties:\n      title: String\n      rank: { type: Int, default: 0 }\n"
                    + "      parent: { type: Tag?, inverse: false }\n"
                    + "  Note:\n    properties:\n      tag: Tag?\n"),
            version(
                "2.0.0",
                "  Label:\n    renamedFrom: Tag\n    properties:\n      heading: { type: String, renamedFrom: title }\n"
                    + "      rank: { type: Int, default: 0 }\n      parent: { type: Label?, inverse: false }\n"
                    + "      size: { type: Int, from: { property: rank, convert: \"$0 * 2\" } }\n"
                    + "  Note:\n    properties:\n      tag: Label?\n"),
        ])
        XCTAssertEqual(diagnostics.filter { $0.severity == .error }, [])
        let stages = try XCTUnwrap(plan.steps.first?.stages)
        XCTAssertEqual(stages.count, 2)
        guard case .custom(.bridge, .version, let will, let did)? = stages.last else {
            return XCTFail("expected the copy in the willMigrate of the stage after the bridge: \(stages)")
        }
        XCTAssertEqual(did, [])
        let copy = try XCTUnwrap(will.compactMap { if case .copy(let c) = $0 { return c } else { return nil } }.first)
        XCTAssertEqual(copy.oldModel, "Tag")
        XCTAssertEqual(copy.newModel, "Label")
        XCTAssertEqual(copy.copyLink, "labelCopy")
        XCTAssertEqual(copy.arguments.map(\.target), ["heading", "size"])
        XCTAssertEqual(copy.arguments.map(\.source), ["title", "rank"])
        XCTAssertEqual(copy.arguments.last?.conversion?.expression, "$0 * 2")
        XCTAssertEqual(copy.values.map(\.target), ["rank"])
        let relinks = will.compactMap { if case .relink(let r) = $0 { return r } else { return nil } }
        XCTAssertEqual(relinks.map(\.model), ["Tag", "Note"])
        XCTAssertEqual(relinks.first?.links.first?.through, "labelCopy")
        XCTAssertEqual(relinks.last?.links.map(\.target), ["tagRelinked"])
        // The bridge holds both classes; the next version reads Note.tag back from the bridge's link.
        let bridge = try XCTUnwrap(plan.bridges.first?.schema)
        XCTAssertNotNil(bridge.model(named: "Tag")?.property(named: "labelCopy"))
        XCTAssertNotNil(bridge.model(named: "Label"))
        XCTAssertNotNil(bridge.model(named: "Note")?.property(named: "tagRelinked"))
        XCTAssertEqual(plan.versions.last?.model(named: "Note")?.property(named: "tag")?.originalName, "tagRelinked")
    }

    /// The link from an old object to its copy takes a name the old model does not have, and every
    /// relink reaches the copies through that name.
    func testTheCopyLinkNeverTakesANameTheOldModelHas() throws {
        let (plan, _) = try plan([
            version(
                "1.0.0",
                "  Tag:\n    properties:\n      labelCopy: String?\n  Note:\n    properties:\n      tag: Tag?\n"),
            version(
                "2.0.0",
                "  Label:\n    renamedFrom: Tag\n    properties:\n      labelCopy: String?\n"
                    + "  Note:\n    properties:\n      tag: Label?\n"),
        ])
        let actions = plan.steps.flatMap(\.stages).flatMap(\.actions)
        let copy = try XCTUnwrap(
            actions.compactMap { if case .copy(let c) = $0 { return c } else { return nil } }.first)
        XCTAssertEqual(copy.copyLink, "labelCopy2")
        let throughs = actions.compactMap { if case .relink(let r) = $0 { return r } else { return nil } }
            .flatMap(\.links).compactMap(\.through)
        XCTAssertEqual(throughs, ["labelCopy2"])
    }

    /// A model's `renamedFrom` copied forward into the next version by hand is said and dropped,
    /// as a property's is, instead of failing as a rename from a model that no longer exists.
    func testAModelRenameCopiedForwardIsDropped() throws {
        let label = "  Label:\n    renamedFrom: Tag\n    properties:\n      title: String\n"
        let files = [
            version("1.0.0", "  Tag:\n    properties:\n      title: String\n"), version("2.0.0", label),
            version("3.0.0", label + "      size: Int?\n"),
        ].enumerated().map {
            SourceFile(displayPath: "v\($0 + 1).yaml", relativePath: "v\($0 + 1).yaml", bytes: Array($1.utf8))
        }
        let (histories, diagnostics) = Generator.validate(SchemaSources(config: nil, versions: files))
        XCTAssertEqual(diagnostics.map(\.code), [.renameAlreadyApplied], diagnostics.map(\.rendered).joined())
        let (plan, planned) = MigrationPlanner.plan(try XCTUnwrap(histories.first))
        XCTAssertEqual(planned, [])
        XCTAssertEqual(plan.steps.last?.stages.count, 1, "the step into 3.0.0 only adds a property")
    }

    /// Where a copy cannot keep every row, or the bridge cannot hold both classes, the rename is
    /// refused with the reason.
    func testAModelRenameIsRefusedWhereACopyWouldNotKeepEveryRow() throws {
        func refusal(_ old: String, _ new: String, config: String? = nil) throws -> String {
            let (_, diagnostics) = try plan([version("1.0.0", old), version("2.0.0", new)], config: config)
            return diagnostics.filter { $0.code == .modelRenameUnsupported }.map(\.message).joined(separator: "\n")
        }
        let tag = "  Tag:\n    properties:\n      title: String\n"
        XCTAssertTrue(
            try refusal(
                tag, "  Label:\n    renamedFrom: Tag\n    properties:\n      title: { type: String, unique: true }\n"
            )
            .contains("becomes unique by (title)"))
        XCTAssertTrue(
            try refusal(
                "  Tag:\n    properties:\n      title: String?\n",
                "  Label:\n    renamedFrom: Tag\n    properties:\n      title: String?\n", config: "cloudKit: true\n"
            ).contains("CloudKit"))
        XCTAssertTrue(
            try refusal(
                tag + "  Owner:\n    properties:\n      name: String\n",
                "  Label:\n    renamedFrom: Tag\n    properties:\n      title: String\n      owner: Owner\n"
                    + "  Owner:\n    properties:\n      name: String\n"
            ).contains("required to-one"))
        XCTAssertTrue(
            try refusal(
                tag,
                "  Label:\n    renamedFrom: Tag\n    properties:\n      title: String\n"
                    + "  Tag:\n    properties:\n      title: String\n"
            ).contains("also declares a model named Tag"))
        XCTAssertTrue(
            try refusal(
                tag + "  Note:\n    properties:\n      tag: Tag?\n",
                "  Label:\n    renamedFrom: Tag\n    properties:\n      title: String\n"
                    + "  Note:\n    properties:\n      tag: \"[Label]\"\n"
            ).contains("changes from to-one to to-many"))
        XCTAssertTrue(
            try refusal(
                "  Item:\n    properties:\n      name: String\n  Tag:\n    superclass: Item\n    properties:\n"
                    + "      title: String\n",
                "  Item:\n    properties:\n      name: String\n  Label:\n    renamedFrom: Tag\n    superclass: Item\n"
                    + "    properties:\n      title: String\n", config: "platforms: { iOS: 26, macOS: 26 }\n"
            ).contains("inheritance"))
        XCTAssertTrue(
            try refusal(
                tag + "  Note:\n    properties:\n      tagName: String?\n",
                "  Label:\n    renamedFrom: Tag\n    properties:\n      title: String\n"
                    + "  Note:\n    properties:\n      label: { type: Label?, from: { property: tagName, match: title } }\n"
            ).contains("links by text to Label"))
        // A dedupe policy on a renamed model has nothing to do: said, not silently ignored.
        let (_, said) = try plan([
            version("1.0.0", "  Tag:\n    properties:\n      title: String\n      at: Date\n"),
            version(
                "2.0.0",
                "  Label:\n    renamedFrom: Tag\n    dedupe: { keep: first, orderBy: at }\n    properties:\n"
                    + "      title: String\n      at: Date\n"),
        ])
        XCTAssertEqual(said.map(\.code), [.dedupeUnused], "\(said.map(\.message))")
    }

    func testLockFileRoundTripsAndCatchesEdits() throws {
        let v1 = version("1.0.0", "  A:\n    properties:\n      a: String\n")
        let v2 = version("2.0.0", "  A:\n    properties:\n      a: String\n      b: Int?\n")
        let shipped = ShippedVersions(histories: [try history([v1, v2])])
        let (parsed, problems) = ShippedVersions.parse(shipped.text, file: "swiftdata-gen.lock")
        XCTAssertEqual(problems, [])
        XCTAssertEqual(parsed, shipped)
        XCTAssertEqual(parsed.check([try history([v1, v2])], lockFile: "swiftdata-gen.lock"), [])

        let edited = version("1.0.0", "  A:\n    properties:\n      a: String?\n")
        let editDiagnostics = parsed.check([try history([edited, v2])], lockFile: "swiftdata-gen.lock")
        XCTAssertEqual(editDiagnostics.map(\.code), [.shippedVersionEdited])
        XCTAssertTrue(
            editDiagnostics.first?.message.contains("A.a: optional was false, now true") == true,
            editDiagnostics.first?.message ?? "")
        XCTAssertEqual(editDiagnostics.first?.location?.file, "v1.yaml")
        XCTAssertEqual(editDiagnostics.first?.location?.line, 6, "points at the property that changed")

        XCTAssertEqual(parsed.check([try history([v2])], lockFile: "l").map(\.code), [.shippedVersionMissing])

        let inserted = version("1.5.0", "  A:\n    properties:\n      a: String\n      c: Int?\n")
        XCTAssertEqual(
            parsed.check([try history([v1, inserted, v2])], lockFile: "l").map(\.code), [.versionBeforeShipped])

        let tampered = shipped.text.replacingOccurrences(of: "optional=false", with: "optional=true")
        XCTAssertEqual(
            ShippedVersions.parse(tampered, file: "l").1.map(\.code),
            [.malformedLockFile, .malformedLockFile, .malformedLockFile], "the end line and both entries")
        XCTAssertEqual(ShippedVersions.parse("nonsense\n", file: "l").1.first?.location?.line, 1)

        // A checkout's CRLF line ends and an editor's byte-order mark change no word of it.
        let crlf = ShippedVersions.parse(shipped.text.replacingOccurrences(of: "\n", with: "\r\n"), file: "l")
        XCTAssertEqual(crlf.1, [])
        XCTAssertEqual(crlf.0, shipped)
        let marked = ShippedVersions.parse("\u{FEFF}" + shipped.text, file: "l")
        XCTAssertEqual(marked.1, [])
        XCTAssertEqual(marked.0, shipped)
    }
}

extension PlannerTests {
    /// A unique group holding a to-one relationship is accepted where it ships with the model, and
    /// refused where existing objects would need de-duplicating by a related model, which no hook
    /// the generator writes can do.
    func testUniquenessByARelationshipIsNotAddedToExistingObjects() throws {
        let owner = "  Owner:\n    properties:\n      name: String\n      items: { type: \"[Item]\", inverse: owner }\n"
        func item(_ unique: String) -> String {
            owner + "  Item:\n\(unique)    properties:\n      code: String\n      owner: Owner?\n      at: Date\n"
        }
        let config = "platforms: { iOS: 18, macOS: 15 }\n"
        let grouped = "    unique: [[code, owner]]\n"
        let (_, kept) = try plan(
            [version("1.0.0", item(grouped)), version("2.0.0", item(grouped) + "      note: String?\n")],
            config: config)
        XCTAssertEqual(kept.filter(\.isError).map(\.rendered), [])
        let (_, added) = try plan(
            [
                version("1.0.0", item("")),
                version("2.0.0", item(grouped + "    dedupe: { keep: last, orderBy: at }\n")),
            ], config: config)
        XCTAssertEqual(added.filter(\.isError).map(\.code), [.uniquenessNeedsDedupe])
        XCTAssertTrue(
            added.first { $0.isError }?.message.contains("which holds the relationship owner") == true,
            added.map(\.message).joined(separator: "\n"))
    }
}
