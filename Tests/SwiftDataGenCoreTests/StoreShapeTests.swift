import XCTest

@testable import SwiftDataGenCore

/// The store shapes apps ship before adopting the generator: enums stored as themselves, stored
/// names apart from Swift names (a leading `_` included), and the rules that keep them safe.
final class StoreShapeTests: XCTestCase {
    private func validate(_ versions: [String]) -> (histories: [SchemaHistory], diagnostics: [Diagnostic]) {
        let files = versions.enumerated().map { index, text in
            SourceFile(displayPath: "v\(index + 1).yaml", relativePath: "v\(index + 1).yaml", bytes: Array(text.utf8))
        }
        return Generator.validate(SchemaSources(config: nil, versions: files))
    }

    private func version(_ number: String, _ properties: String) -> String {
        """
        schema: App
        version: \(number)
        enums:
          Status: { rawType: String, cases: [open, done] }
        models:
          Item:
            properties:
        \(properties)
        """
    }

    private func property(_ history: SchemaHistory, version: Int, _ name: String) throws -> Property {
        try XCTUnwrap(history.versions[version].model(named: "Item")?.property(named: name))
    }

    func testEnumStoredAsItselfKeepsItsNameAndStoresTheRawType() throws {
        let (histories, diagnostics) = validate([
            version("1.0.0", "      status: { type: Status, enumStorage: value, default: open }\n")
        ])
        XCTAssertEqual(diagnostics, [])
        let status = try property(XCTUnwrap(histories.first), version: 0, "status")
        XCTAssertEqual(NamingConfig().storedName(status), "status")
        let entity = try XCTUnwrap(StoreIdentity(histories[0].versions[0], naming: NamingConfig()).entities.first)
        XCTAssertEqual(entity.properties.map(\.name), ["status"])
        XCTAssertEqual(
            entity.properties.first?.kind,
            .composite(elements: [
                CoreDataProperty(
                    name: "status", isOptional: true,
                    kind: .attribute(.string, externalStorage: false, preservedOnDeletion: false))
            ]),
            "a composite of one optional element named like the property, of the raw type")
    }

    func testStoredNameMayStartWithAnUnderscoreAndKeepsItsDataWhenItChanges() throws {
        let (histories, diagnostics) = validate([
            version("1.0.0", "      placement: { type: Int?, storedName: _videoPlacement }\n      _legacy: Int?\n"),
            version("2.0.0", "      placement: { type: Int?, storedName: placementIndex }\n      _legacy: Int?\n"),
        ])
        XCTAssertEqual(diagnostics, [])
        let history = try XCTUnwrap(histories.first)
        let moved = try property(history, version: 1, "placement")
        XCTAssertEqual(NamingConfig().storedName(moved), "placementIndex")
        XCTAssertEqual(
            renamingIdentifier(of: moved, naming: NamingConfig()), "_videoPlacement",
            "the new column reads the old one's data")
        let plan = MigrationPlanner.plan(history)
        XCTAssertEqual(
            plan.plan.steps.first?.changes,
            [.storedNameChanged(model: "Item", property: "placement", from: "_videoPlacement", to: "placementIndex")])
    }

    func testAnUnderscoredNameBesideTheNameItBacksIsRefused() {
        let diagnostics = validate([version("1.0.0", "      title: String\n      _title: String?\n")]).diagnostics
        let clash = diagnostics.first { $0.code == .duplicateName }
        XCTAssertNotNil(clash, diagnostics.map(\.rendered).joined(separator: "\n"))
        XCTAssertEqual(clash?.location?.line, 9, "at the underscored declaration")
        XCTAssertTrue(
            clash?.message.contains("the name @Model gives the storage of 'title'") == true, clash?.message ?? "")
    }

    func testStorageOptionsWhereTheyCannotApply() {
        let all = validate([
            version(
                "1.0.0",
                "      name: { type: String, enumStorage: value }\n      other: { type: Item?, storedName: _other }\n")
        ]).diagnostics
        let diagnostics = all.filter { $0.code == .invalidValue }
        XCTAssertEqual(diagnostics.count, 2, all.map(\.rendered).joined(separator: "\n"))
        XCTAssertTrue(diagnostics[0].message.contains("enumStorage applies to properties of an enum type"))
        XCTAssertEqual(diagnostics[0].location?.line, 8)
        XCTAssertTrue(diagnostics[1].message.contains("a relationship is stored under its own name"))
    }

    func testSwitchingHowAnEnumIsStoredNeedsItsValuesCopied() throws {
        let (histories, diagnostics) = validate([
            version("1.0.0", "      status: { type: Status, enumStorage: value, default: open }\n"),
            version("2.0.0", "      status: { type: Status, default: open }\n"),
        ])
        XCTAssertEqual(diagnostics, [])
        let refused = MigrationPlanner.plan(try XCTUnwrap(histories.first)).diagnostics
        XCTAssertEqual(refused.map(\.code), [.typeChangeLosesData])
        XCTAssertTrue(
            refused.first?.message.contains("add from: { property: status }") == true, refused.first?.message ?? "")

        let (followed, _) = validate([
            version("1.0.0", "      status: { type: Status, enumStorage: value, default: open }\n"),
            version("2.0.0", "      status: { type: Status, default: open, from: { property: status } }\n"),
        ])
        let result = MigrationPlanner.plan(try XCTUnwrap(followed.first))
        XCTAssertEqual(result.diagnostics, [], "the advice, followed, plans")
        XCTAssertEqual(result.plan.bridges.count, 1, "the values move through a bridge")
    }

    private func named(_ config: String, _ files: [(version: String, typeName: String?)]) -> (
        histories: [SchemaHistory], diagnostics: [Diagnostic]
    ) {
        let versions = files.enumerated().map { index, file in
            let text =
                "schema: Schema\nversion: \(file.version)\n" + (file.typeName.map { "typeName: \($0)\n" } ?? "")
                + "models:\n  Item:\n    properties:\n      title: String\n"
                + (index > 0 ? "      note: String?\n" : "")
            return SourceFile(
                displayPath: "v\(index + 1).yaml", relativePath: "v\(index + 1).yaml", bytes: Array(text.utf8))
        }
        let configFile = SourceFile(
            displayPath: "swiftdata-gen.yaml", relativePath: "swiftdata-gen.yaml", bytes: Array(config.utf8))
        return Generator.validate(SchemaSources(config: configFile, versions: versions))
    }

    func testAnAppsOwnTypeNamesAreKept() throws {
        let (histories, diagnostics) = named(
            "naming: { schemaSuffix: \"\", currentSchema: CurrentSchema, migrationPlan: MigrationPlan }\n",
            [("1.0.0", nil), ("1.5.0", "SchemaV2")])
        XCTAssertEqual(diagnostics, [])
        let names = GeneratedNames(history: try XCTUnwrap(histories.first))
        XCTAssertEqual(names.versionedSchema(SemanticVersion(1, 0, 0)), "SchemaV1")
        XCTAssertEqual(names.versionedSchema(SemanticVersion(1, 5, 0)), "SchemaV2")
        XCTAssertEqual(names.bridge(into: SemanticVersion(1, 5, 0)), "SchemaV2Bridge")
        XCTAssertEqual(
            names.versionSuffix(SemanticVersion(1, 5, 0)), "V1_5", "generated identifiers never follow typeName")
        XCTAssertEqual([names.currentSchema, names.migrationPlan], ["CurrentSchema", "MigrationPlan"])
    }

    func testTypeNamesThatHideOrRepeatAreRefused() {
        let hidden = named("naming: { schemaSuffix: \"\", migrationPlan: Plan }\n", [("1.0.0", nil)]).diagnostics
        XCTAssertEqual(hidden.map(\.code), [.reservedName], hidden.map(\.rendered).joined(separator: "\n"))
        XCTAssertTrue(hidden.first?.message.contains("would be named 'Schema'") == true, hidden.first?.message ?? "")
        let repeated = named(
            "naming: { schemaSuffix: \"\", currentSchema: Current, migrationPlan: Plan }\n",
            [("1.0.0", nil), ("2.0.0", "SchemaV1")]
        ).diagnostics
        XCTAssertEqual(repeated.map(\.code), [.outputNameCollision], repeated.map(\.rendered).joined(separator: "\n"))
        XCTAssertTrue(
            repeated.first?.message.contains("version 1.0.0 and version 2.0.0 would both be named 'SchemaV1'") == true,
            repeated.first?.message ?? "")
    }

    func testOtherSpellingsOfTheSameStorageAreKeptAsWritten() throws {
        let (histories, diagnostics) = validate([
            version("1.0.0", "      watched: TimeInterval\n      ratio: CGFloat?\n")
        ])
        XCTAssertEqual(diagnostics, [])
        let watched = try property(XCTUnwrap(histories.first), version: 0, "watched")
        XCTAssertEqual(watched.kind, .attribute(.scalar(.double), isArray: false), "stored as a Double")
        XCTAssertEqual(SchemaDiff.typeDescription(watched), "TimeInterval", "spelled as written")

        let files = [
            SourceFile(
                displayPath: "v1.yaml", relativePath: "v1.yaml",
                bytes: Array(version("1.0.0", "      ratio: CGFloat?\n").utf8))
        ]
        let config = SourceFile(
            displayPath: "swiftdata-gen.yaml", relativePath: "swiftdata-gen.yaml",
            bytes: Array("platforms: { iOS: 17, watchOS: 10 }\n".utf8))
        let watch = Generator.validate(SchemaSources(config: config, versions: files)).diagnostics
        XCTAssertEqual(watch.map(\.code), [.unknownType])
        XCTAssertTrue(
            watch.first?.message.contains("CGFloat is 32 bits on watchOS") == true, watch.first?.message ?? "")
    }

    /// A new version started by copying the last file keeps its renamedFrom: recognised as done.
    func testARenameCopiedForwardIsAWarningAndChangesNothing() throws {
        let (histories, diagnostics) = validate([
            version("1.0.0", "      status: String\n"),
            version("2.0.0", "      state: { type: String, renamedFrom: status }\n"),
            version("3.0.0", "      state: { type: String, renamedFrom: status }\n      note: String?\n"),
            version(
                "4.0.0", "      state: { type: String, renamedFrom: status }\n      note: String?\n      other: Int?\n"),
        ])
        XCTAssertEqual(
            diagnostics.map(\.code), [.renameAlreadyApplied, .renameAlreadyApplied],
            diagnostics.map(\.rendered).joined(separator: "\n"))
        XCTAssertEqual(diagnostics.first?.severity, .warning)
        XCTAssertTrue(
            diagnostics.first?.message.contains("was applied in version 2.0.0") == true,
            diagnostics.first?.message ?? "")
        XCTAssertEqual(diagnostics.first?.location?.line, 8)
        let history = try XCTUnwrap(histories.first)
        for index in 1...3 {
            XCTAssertEqual(
                try property(history, version: index, "state").originalName, "status",
                "every later version still reads the first column")
        }
        let plan = MigrationPlanner.plan(history)
        XCTAssertEqual(plan.plan.steps[1].changes, [.propertyAdded(model: "Item", property: "note")])

        // Not a copy: the previous version never had the name renamed from, nor did the rename.
        // Without the rename the version changes nothing, which is said too.
        let wrong = validate([
            version("1.0.0", "      state: String\n"),
            version("2.0.0", "      state: { type: String, renamedFrom: status }\n"),
        ]).diagnostics
        XCTAssertEqual(wrong.map(\.code), [.renameSourceNotFound, .identicalVersions])
    }

    private func withStruct(_ number: String, _ fields: String, _ properties: String) -> String {
        "schema: App\nversion: \(number)\nstructs:\n  Size: { \(fields) }\nmodels:\n  Item:\n    properties:\n"
            + properties
    }

    func testAStructIsOneCompositeAttributeAndItsFieldsAreItsType() throws {
        let (histories, diagnostics) = validate([
            withStruct("1.0.0", "width: Double, height: Double?", "      size: Size?\n")
        ])
        XCTAssertEqual(diagnostics, [])
        let entity = try XCTUnwrap(
            StoreIdentity(try XCTUnwrap(histories.first).versions[0], naming: NamingConfig()).entities.first)
        let leaf = { (name: String) in
            CoreDataProperty(
                name: name, isOptional: true,
                kind: .attribute(.double, externalStorage: false, preservedOnDeletion: false),
                row: .double)
        }
        XCTAssertEqual(entity.properties.first?.kind, .composite(elements: [leaf("width"), leaf("height")]))
        XCTAssertEqual(entity.properties.first?.isOptional, true)

        let (changed, _) = validate([
            withStruct("1.0.0", "width: Double, height: Double?", "      size: Size?\n"),
            withStruct("2.0.0", "width: Double, height: Double", "      size: Size?\n"),
        ])
        let refused = MigrationPlanner.plan(try XCTUnwrap(changed.first)).diagnostics
        // SwiftData hashes every element of a composite optional, so the two versions share a
        // checksum, and a modifier on the struct would not reach its hash: no property can carry one.
        XCTAssertEqual(
            refused.map(\.code), [.typeChangeLosesData, .duplicateChecksum],
            "a struct whose fields change is another type")
    }

    /// A modifier on a composite does not reach the hash (only its fields do): written by hand, it
    /// is a warning, and the two versions it was meant to part still get a modifier that works.
    func testAHashModifierOnAStructIsAWarningThatSaysWhy() throws {
        let (histories, diagnostics) = validate([
            withStruct("1.0.0", "width: Double", "      size: Size?\n      name: String\n"),
            withStruct("2.0.0", "width: Double", "      size: { type: Size?, hashModifier: v2 }\n      name: String\n"),
        ])
        XCTAssertEqual(diagnostics.map(\.code), [.invalidValue])
        XCTAssertEqual(diagnostics.first?.severity, .warning)
        XCTAssertTrue(diagnostics.first?.message.contains("hashed by its fields alone") == true)
        let plan = MigrationPlanner.plan(try XCTUnwrap(histories.first)).plan
        XCTAssertEqual(plan.versions[1].model(named: "Item")?.property(named: "name")?.hashModifier, "2.0.0")
    }

    /// Apps nest Codable structs (a box holding a point, a track of tilts); a change inside the
    /// inner one changes what the outer one stores.
    func testAStructMayHoldStructsAndAChangeInsideIsATypeChange() throws {
        let nested = { (number: String, point: String) in
            "schema: App\nversion: \(number)\nstructs:\n  Box: { origin: Point, corners: \"[Point]\", spare: "
                + "Point? }\n  Point: { \(point) }\n"
                + "models:\n  Item:\n    properties:\n      box: Box?\n"
        }
        let (histories, diagnostics) = validate([
            nested("1.0.0", "x: Double, y: Double"), nested("2.0.0", "x: Double, y: Double, z: Double?"),
        ])
        XCTAssertEqual(diagnostics, [])
        let history = try XCTUnwrap(histories.first)
        XCTAssertEqual(
            history.versions[0].compositeSignature(of: "Box"),
            [
                "origin:Point{x:Double,y:Double}", "corners:[Point]{x:Double,y:Double}",
                "spare:Point?{x:Double,y:Double}",
            ])
        XCTAssertEqual(
            MigrationPlanner.plan(history).diagnostics.map(\.code), [.typeChangeLosesData],
            "Point's new field changes Box")

        let holdsItself = validate([
            "schema: App\nversion: 1.0.0\nstructs:\n  Node: { next: Node? }\nmodels:\n  Item:\n    properties:\n  "
                + "    node: Node?\n"
        ]).diagnostics
        XCTAssertEqual(holdsItself.map(\.code), [.invalidTypeSpelling])
        let tree = validate([
            "schema: App\nversion: 1.0.0\nstructs:\n  Node: { children: \"[Node]\" }\nmodels:\n  Item:\n    "
                + "properties:\n      node: Node?\n"
        ]).diagnostics
        XCTAssertEqual(tree, [], "an array holds itself by reference")
    }

    /// A Codable struct's field is named by its coding key, and keys such as `private` are common
    /// in payloads apps store; no key path names a struct's field, so it is written in backticks.
    func testAStructFieldMayBeAKeyword() throws {
        let (histories, diagnostics) = validate([
            withStruct("1.0.0", "private: Bool, default: Int", "      size: Size?\n")
        ])
        XCTAssertEqual(diagnostics, [])
        let version = try XCTUnwrap(histories.first?.versions.first)
        XCTAssertEqual(version.structure(named: "Size")?.fields.map(\.name), ["private", "default"])
        XCTAssertEqual(Identifier.escaped("private"), "`private`")
        XCTAssertEqual(Identifier.escaped("id"), "id")
    }

    func testStructFieldsAndDefaultsThatCannotBe() {
        let unknown = validate([withStruct("1.0.0", "width: Item", "      size: Size?\n")]).diagnostics
        XCTAssertEqual(unknown.map(\.code), [.unknownType])
        XCTAssertTrue(
            unknown.first?.message.contains("a struct's fields are value types, enums or structs") == true,
            unknown.first?.message ?? "")
        let literal = validate([withStruct("1.0.0", "width: Double", "      size: { type: Size, default: 3 }\n")])
            .diagnostics
        XCTAssertEqual(literal.map(\.code), [.defaultTypeMismatch])
        XCTAssertTrue(literal.first?.message.contains("expression: \"Size(…)\"") == true, literal.first?.message ?? "")
    }

    func testAFileNamedForAnotherVersionIsAWarning() {
        let file = SourceFile(
            displayPath: "Schema/2.0.0.yaml", relativePath: "2.0.0.yaml",
            bytes: Array(version("3.0.0", "      a: String\n").utf8))
        let diagnostics = Generator.validate(SchemaSources(config: nil, versions: [file])).diagnostics
        XCTAssertEqual(diagnostics.map(\.code), [.versionFileNameMismatch])
        XCTAssertEqual(diagnostics.first?.severity, .warning)
        XCTAssertEqual(diagnostics.first?.location?.line, 2)
        let free = SourceFile(
            displayPath: "Schema/trips-first.yaml", relativePath: "trips-first.yaml",
            bytes: Array(version("3.0.0", "      a: String\n").utf8))
        XCTAssertEqual(
            Generator.validate(SchemaSources(config: nil, versions: [free])).diagnostics, [],
            "names that are not versions are free")
    }
}
