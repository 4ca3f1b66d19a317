import XCTest

@testable import SwiftDataGenCore

/// The store-identity rules (docs/store-evidence.md): what reaches SwiftData's checksum, renaming
/// identifiers, uniqueness over existing rows, cardinality, and the lock that freezes them.
final class StoreIdentityTests: XCTestCase {
    private func sources(_ versions: [String], config: String? = "platforms: { iOS: 18, macOS: 15 }\n") -> SchemaSources
    {
        let files = versions.enumerated().map {
            SourceFile(displayPath: "v\($0 + 1).yaml", relativePath: "v\($0 + 1).yaml", bytes: Array($1.utf8))
        }
        return SchemaSources(
            config: config.map { SourceFile(displayPath: "c.yaml", relativePath: "c.yaml", bytes: Array($0.utf8)) },
            versions: files)
    }

    private func history(_ versions: [String], config: String? = "platforms: { iOS: 18, macOS: 15 }\n") throws
        -> SchemaHistory
    {
        let (histories, diagnostics) = Generator.validate(sources(versions, config: config))
        XCTAssertFalse(diagnostics.hasErrors, diagnostics.map(\.rendered).joined(separator: "\n"))
        return try XCTUnwrap(histories.first)
    }

    private func plan(_ versions: [String]) throws -> (MigrationPlan, [Diagnostic]) {
        MigrationPlanner.plan(try history(versions))
    }

    private func version(_ number: String, _ models: String) -> String {
        "schema: App\nversion: \(number)\nmodels:\n" + models
    }

    private let base = "  A:\n    properties:\n      a: String\n      b: { type: Int, default: 1 }\n"

    // MARK: what reaches the checksum

    /// SwiftData hashes a CGFloat as Float (600), not Double (docs/version-hash-recipe.md): a
    /// property's hash is a Float's, and a Double changed to CGFloat changes the identity.
    func testACGFloatIsHashedAsAFloat() throws {
        func identity(_ type: String) throws -> StoreIdentity {
            let history = try self.history([version("1.0.0", "  A:\n    properties:\n      x: \(type)\n")])
            return StoreIdentity(try XCTUnwrap(history.versions.first), naming: history.config.naming)
        }
        XCTAssertEqual(try identity("CGFloat").entityHashes, try identity("Float").entityHashes)
        XCTAssertNotEqual(try identity("CGFloat").entityHashes, try identity("Double").entityHashes)
        XCTAssertNotNil(StorageRow.cgFloat.proof)
    }

    /// The identity article's list of unproved forms, and of the types a modifier guards, are the
    /// `StorageRow` declarations', so the documentation, `plan` and store inspection say one thing.
    func testTheIdentityArticleListsWhatTheDeclarationsLeaveUnproved() throws {
        let article = try String(
            contentsOf: Documentation.catalogURL.appendingPathComponent("Articles/StoreIdentity.md"), encoding: .utf8
        ).replacingOccurrences(of: "\n", with: " ")
        let unproved = StorageRow.list(StorageRow.allCases.filter { $0.proof == nil })
        let types = StorageRow.list(StorageRow.allCases.filter { !$0.provesItsType })
        XCTAssertTrue(article.contains("not yet checked against a hash Apple computed: \(unproved)."), unproved)
        XCTAssertTrue(article.contains("a type to or from one of \(types) gets a modifier"), types)
    }

    /// An enum without a raw type is expected to be a composite of its cases' values under their
    /// coding keys, which the hash flattens (docs/version-hash-recipe.md, expected, not proved): it
    /// hashes as a struct holding the same values, a case without values adds nothing, and a label
    /// or a type moves the identity.
    func testAnEnumsAssociatedValuesAreTheLeavesOfItsComposite() throws {
        func identity(_ types: String, _ type: String = "Kind") throws -> StoreIdentity {
            let text =
                "schema: App\nversion: 1.0.0\n" + types + "models:\n  A:\n    properties:\n      a: String\n"
                + "      kind: \(type)\n"
            return StoreIdentity(try XCTUnwrap(history([text]).versions.first), naming: NamingConfig())
        }
        let cases = "plain, { every: { days: Int } }, { on: { at: Date } }"
        let payload = try identity("enums:\n  Kind: { rawType: none, cases: [\(cases)] }\n")
        let asStruct = try identity("structs:\n  Held: { days: Int, at: Date }\n", "Held")
        XCTAssertEqual(payload.entityHashes, asStruct.entityHashes)
        XCTAssertEqual(
            payload.entityHashes,
            try identity(
                "enums:\n  Kind: { rawType: none, cases: [\(cases), more] }\n"
            ).entityHashes)
        for moved in [
            "enums:\n  Kind: { rawType: none, cases: [plain, { every: { weeks: Int } }, { on: { at: Date } }] }\n",
            "enums:\n  Kind: { rawType: none, cases: [plain, { every: { days: Int } }, { on: { at: String } }] }\n",
            "enums:\n  Kind: { rawType: none, cases: [plain, every, { on: { at: Date } }] }\n",
            "enums:\n  Kind: { rawType: none, cases: [plain, { every: { days: Int } }, { on: [Date] }] }\n",
        ] {
            XCTAssertNotEqual(payload.entityHashes, try identity(moved).entityHashes, moved)
        }
        XCTAssertEqual(payload.unprovedRows, [.enumWithAssociatedValues])
        XCTAssertNil(StorageRow.enumWithAssociatedValues.proof)
    }

    func testOnlyHashRelevantChangesMoveTheIdentity() throws {
        func identity(_ models: String) throws -> StoreIdentity {
            StoreIdentity(try XCTUnwrap(history([version("1.0.0", models)]).versions.first), naming: NamingConfig())
        }
        let plain = try identity(base)
        for invisible in [
            "  A:\n    indexes: [[a]]\n    properties:\n      a: String\n      b: { type: Int, default: 1 }\n",
            "  A:\n    properties:\n      a: { type: String, spotlight: true, allowsCloudEncryption: true }\n     "
                + " b: { type: Int, default: 1 }\n",
            "  A:\n    properties:\n      a: String\n      b: { type: Int, default: 7 }\n",
            "  A:\n    properties:\n      a: { type: String, renamedFrom: x }\n      b: { type: Int, default: 1 }\n",
            "  A:\n    properties:\n      a: String\n      b: { type: Int64, default: 1 }\n",
        ] {
            XCTAssertEqual(try identity(invisible), plain, invisible)
        }
        for visible in [
            "  A:\n    properties:\n      a: String?\n      b: { type: Int, default: 1 }\n",
            "  A:\n    unique: [[a]]\n    properties:\n      a: String\n      b: { type: Int, default: 1 }\n",
            "  A:\n    properties:\n      a: String\n      b: { type: Int32, default: 1 }\n",
            "  A:\n    properties:\n      a: { type: String, hashModifier: v2 }\n      b: { type: Int, default: 1 }\n",
            "  A:\n    properties:\n      a: String\n      b: { type: Int, default: 1 }\n      c: String?\n",
            "  A:\n    properties:\n      a: String\n      d: { type: Data, externalStorage: true }\n      b: { "
                + "type: Int, default: 1 }\n",
        ] {
            XCTAssertNotEqual(try identity(visible), plain, visible)
        }
    }

    /// The checksum follows the model, not the order models and properties are declared in; the
    /// order of names inside a uniqueness constraint is hashed (docs/version-hash-recipe.md, "The
    /// recipe", step 5).
    func testTheChecksumFollowsTheModelNotTheDeclarationOrder() throws {
        func checksum(_ models: String) throws -> String {
            StoreIdentity(try XCTUnwrap(history([version("1.0.0", models)]).versions.first), naming: NamingConfig())
                .versionChecksum
        }
        let a = try checksum(
            "  A:\n    unique: [[x, y]]\n    properties:\n      x: String\n      y: { type: Int, "
                + "spotlight: true }\n  B:\n    properties:\n      z: Date?\n")
        let b = try checksum(
            "  B:\n    properties:\n      z: Date?\n  A:\n    unique: [[x, y]]\n    properties:\n      y: "
                + "Int\n      x: String\n")
        XCTAssertEqual(a, b)
        let swapped = try checksum(
            "  B:\n    properties:\n      z: Date?\n  A:\n    unique: [[y, x]]\n    properties:\n      y: "
                + "Int\n      x: String\n")
        XCTAssertNotEqual(a, swapped)
        let required = try checksum(
            "  B:\n    properties:\n      z: Date\n  A:\n    unique: [[x, y]]\n    properties:\n      y: "
                + "Int\n      x: String\n")
        XCTAssertNotEqual(a, required)
    }

    /// The delete rule is not hashed; the inverse is, on both ends (docs/version-hash-recipe.md):
    /// where SwiftData would not pair the two by itself (here: both ends annotated, the to-many
    /// without an initial value), declaring it changes both entities' hashes.
    func testDeleteRuleDoesNotReachTheIdentityAndTheInverseDoes() throws {
        let models = { (rule: String) in
            "  A:\n    properties:\n      bs: { type: \"[B]?\", default: null, inverse: a, deleteRule: \(rule) }\n"
                + "  B:\n    properties:\n      a: A?\n"
        }
        let nullify = StoreIdentity(
            try XCTUnwrap(history([version("1.0.0", models("nullify"))]).versions.first), naming: NamingConfig())
        let cascade = StoreIdentity(
            try XCTUnwrap(history([version("1.0.0", models("cascade"))]).versions.first), naming: NamingConfig())
        XCTAssertEqual(nullify, cascade)
        let oneWay = StoreIdentity(
            try XCTUnwrap(
                history([
                    version(
                        "1.0.0",
                        "  A:\n    properties:\n      bs: { type: \"[B]?\", default: null, inverse: false, "
                            + "deleteRule: cascade }\n  B:\n    properties:\n      a: { type: A?, inverse: false, "
                            + "deleteRule: cascade }\n")
                ]).versions.first), naming: NamingConfig())
        for entity in ["A", "B"] { XCTAssertNotEqual(oneWay.entityHashes[entity], nullify.entityHashes[entity]) }
    }

    /// Every schema of every plan, bridges included, differs from every other in the checksum.
    func testNoTwoSchemasOfAnyGoldenPlanShareAnIdentity() throws {
        var checked = 0
        for name in GoldenTests.caseNames {
            let input = GoldenTests.folder(name).appendingPathComponent("input").resolvingSymlinksInPath().path
            let (histories, diagnostics) = Generator.validate(try SchemaLoader.read(directory: input).get())
            guard !diagnostics.hasErrors else { continue }
            for history in histories {
                let plan = MigrationPlanner.plan(history).plan
                let checksums = plan.schemas.compactMap { plan.schema($0) }.map {
                    StoreIdentity($0, naming: history.config.naming).versionChecksum
                }
                XCTAssertEqual(Set(checksums).count, checksums.count, "\(name): two schemas share a checksum")
                for schema in plan.schemas.compactMap({ plan.schema($0) }) {
                    XCTAssertEqual(
                        IdentifierRules.identifiersUnique(in: schema, naming: history.config.naming), [],
                        "\(name) \(schema.version)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 10)
    }

    func testHashInvisibleVersionsGetAModifierAndKeepItOnlyWhileNeeded() throws {
        let (plan, diagnostics) = try plan([
            version("1.0.0", base),
            version(
                "1.1.0",
                "  A:\n    indexes: [[a]]\n    properties:\n      a: String\n      b: { type: Int, default: 1 }\n"),
            version(
                "2.0.0",
                "  A:\n    indexes: [[a]]\n    properties:\n      a: String\n      b: { type: Int, default: 1 }\n "
                    + "     c: String?\n"
            ),
        ])
        XCTAssertEqual(diagnostics.filter(\.isError), [])
        XCTAssertEqual(plan.versions.map { $0.models[0].properties[0].hashModifier }, [nil, "1.1.0", nil])
    }

    func testAVersionThatChangesNothingIsRefusedButADefaultOnlyChangeIsNot() throws {
        let same = Generator.validate(sources([version("1.0.0", base), version("1.1.0", base)])).diagnostics
        XCTAssertEqual(same.map(\.code), [.identicalVersions])
        let defaultOnly = base.replacingOccurrences(of: "default: 1", with: "default: 2")
        let (plan, diagnostics) = try plan([version("1.0.0", base), version("1.1.0", defaultOnly)])
        XCTAssertEqual(diagnostics.filter(\.isError), [])
        XCTAssertEqual(
            plan.versions[1].models[0].properties.map(\.hashModifier), ["1.1.0", nil],
            "on the first property of the model that changed")
    }

    // MARK: renaming identifiers

    func testANewPropertyNamedLikeARenamedOneStartsEmpty() throws {
        let h = try history([
            version("1.0.0", "  A:\n    properties:\n      title: String\n"),
            version("2.0.0", "  A:\n    properties:\n      name: { type: String, renamedFrom: title }\n"),
            version("3.0.0", "  A:\n    properties:\n      name: String\n      title: String?\n"),
        ])
        let v3 = try XCTUnwrap(h.versions.last?.models.first)
        XCTAssertEqual(v3.property(named: "name")?.originalName, "title")
        XCTAssertEqual(v3.property(named: "title")?.originalName, "titleV3")
    }

    func testTwoPropertiesContinuingOneColumnAreRefused() {
        let diagnostics = Generator.validate(
            sources([
                version("1.0.0", "  A:\n    properties:\n      name: String\n"),
                version(
                    "2.0.0",
                    "  A:\n    properties:\n      title: { type: String, renamedFrom: name }\n      heading: { "
                        + "type: String, renamedFrom: name }\n"
                ),
            ])
        ).diagnostics
        XCTAssertEqual(diagnostics.map(\.code), [.duplicateRenamingIdentifier])
        XCTAssertEqual(diagnostics.first?.notes.first?.location?.line, 6)
    }

    func testConvertingOnePropertyTwiceUsesDistinctTemporaryColumns() throws {
        let (plan, diagnostics) = try plan([
            version("1.0.0", "  A:\n    properties:\n      n: String\n"),
            version(
                "2.0.0",
                "  A:\n    properties:\n      n: { type: Int, default: 0, from: { property: n, convert: \"Int($0) "
                    + "?? 0\" } }\n"
            ),
            version(
                "3.0.0",
                "  A:\n    properties:\n      n: { type: String, default: \"\", from: { property: n, convert: "
                    + "\"String($0)\" } }\n"
            ),
        ])
        XCTAssertEqual(diagnostics.filter(\.isError), [])
        XCTAssertEqual(
            plan.versions.map { $0.models[0].properties[0].originalName }, [nil, "nConverted", "nConvertedV3"])
        XCTAssertEqual(
            plan.bridges.map { $0.schema.models[0].properties.map(\.name) },
            [["n", "nConverted"], ["n", "nConvertedV3"]])
    }

    func testATemporaryColumnNeverTakesAUsersName() throws {
        let h = try history([
            version("1.0.0", "  A:\n    properties:\n      n: String\n      nConverted: Int?\n"),
            version(
                "2.0.0",
                "  A:\n    properties:\n      n: { type: Int, default: 0, from: { property: n, convert: \"Int($0) "
                    + "?? 0\" } }\n      nConverted: Int?\n"
            ),
        ])
        XCTAssertEqual(h.versions[1].models[0].property(named: "n")?.originalName, "nConvertedV2")
    }

    // MARK: uniqueness

    func testOrderByMustBeSortable() {
        let diagnostics = Generator.validate(
            sources([
                version(
                    "1.0.0",
                    "  A:\n    unique: [[a]]\n    dedupe: { keep: first, orderBy: flag }\n    properties:\n      "
                        + "a: String\n      flag: Bool\n      at: Date\n"
                )
            ])
        ).diagnostics
        XCTAssertEqual(diagnostics.map(\.code), [.unknownKeyPathProperty])
        XCTAssertTrue(
            diagnostics.first?.message.contains("use one of: a, at") == true, diagnostics.first?.message ?? "")
    }

    func testOptionalKeysAreDistinctUnlessThePolicySaysEqual() throws {
        for (policy, expectSkip) in [("", true), (", nilKeys: distinct", true), (", nilKeys: equal", false)] {
            let (plan, _) = try plan([
                version("1.0.0", "  A:\n    properties:\n      email: String?\n      at: Date\n"),
                version(
                    "2.0.0",
                    "  A:\n    unique: [[email]]\n    dedupe: { keep: first, orderBy: at\(policy) }\n    "
                        + "properties:\n      email: String?\n      at: Date\n"
                ),
            ])
            guard case .deduplicate(let dedupe)? = plan.steps.first?.stages.first?.actions.first else {
                return XCTFail("no dedupe for \(policy)")
            }
            XCTAssertEqual(dedupe.optionalKeys, ["email"])
            XCTAssertEqual(!dedupe.nilKeysAreEqual, expectSkip, policy)
        }
    }

    func testDedupeHelperNamesNeverCollide() throws {
        let history = try history([
            version(
                "1.0.0",
                "  A:\n    properties:\n      firstName: String\n      first: String\n      name: String\n      "
                    + "at: Date\n"
            ),
            version(
                "2.0.0",
                "  A:\n    unique: [[firstName], [first, name]]\n    dedupe: { keep: first, orderBy: at }\n    "
                    + "properties:\n      firstName: String\n      first: String\n      name: String\n      at: Date\n"
            ),
        ])
        let plan = MigrationPlanner.plan(history).plan
        let renderer = SchemaRenderer(
            history: history, plan: plan, templates: try SchemaLoader.templates(overrideDirectory: nil).get(),
            configFile: nil)
        let view = renderer.planView()
        XCTAssertEqual(view.functions.map(\.name), ["dedupeAByFirstName", "dedupeAByFirstName2"])
        XCTAssertEqual(
            view.stages.first?.willMigrate,
            ["try AppSchemaV1.dedupeAByFirstName(context)", "try AppSchemaV1.dedupeAByFirstName2(context)"])
    }

    func testUniquenessOverAConvertedKeyDedupesOnTheBridge() throws {
        let (plan, diagnostics) = try plan([
            version("1.0.0", "  A:\n    properties:\n      code: String\n      at: Date\n"),
            version(
                "2.0.0",
                "  A:\n    unique: [[code]]\n    dedupe: { keep: first, orderBy: at }\n    properties:\n      "
                    + "code: { type: Int, default: 0, from: { property: code, convert: \"Int($0) ?? 0\" } }\n      at: "
                    + "Date\n"
            ),
        ])
        XCTAssertEqual(diagnostics.filter(\.isError), [])
        let stages = try XCTUnwrap(plan.steps.first?.stages)
        XCTAssertEqual(stages.count, 2)
        // The dedupe compares converted values: it runs after the conversion, in the same willMigrate.
        guard case .custom(.bridge, .version, let will, _) = stages[1], case .convert? = will.first,
            case .deduplicate(let dedupe)? = will.last
        else { return XCTFail("\(stages)") }
        XCTAssertEqual(dedupe.keys, ["codeConverted"])
    }

    func testANewUniquePropertyWithOneDefaultIsRefusedAndAnEmptyOneIsNot() throws {
        let refused = try plan([
            version("1.0.0", "  A:\n    properties:\n      a: String\n"),
            version(
                "2.0.0",
                "  A:\n    unique: [[code]]\n    properties:\n      a: String\n      code: { type: String, "
                    + "default: x }\n"
            ),
        ]).1
        XCTAssertEqual(refused.map(\.code), [.uniqueValueNotPerRow])
        let (plan, diagnostics) = try plan([
            version("1.0.0", "  A:\n    properties:\n      a: String\n"),
            version("2.0.0", "  A:\n    unique: [[code]]\n    properties:\n      a: String\n      code: String?\n"),
        ])
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(
            plan.steps.first?.stages,
            [.lightweight(from: .version(SemanticVersion(1, 0, 0)), to: .version(SemanticVersion(2, 0, 0)))])
    }

    func testAnUnusedDedupeIsAWarning() throws {
        let (_, diagnostics) = try plan([
            version("1.0.0", "  A:\n    properties:\n      a: String\n      at: Date\n"),
            version(
                "2.0.0",
                "  A:\n    dedupe: { keep: first, orderBy: at }\n    properties:\n      a: String\n      at: "
                    + "Date\n      b: String?\n"
            ),
        ])
        XCTAssertEqual(diagnostics.map(\.code), [.dedupeUnused])
        XCTAssertEqual(diagnostics.first?.severity, .warning)
    }

    // MARK: cardinality

    func testToOneBecomingToManyIsInferredAndTheReverseIsRefusedOnce() throws {
        let one = "  A:\n    properties:\n      b: { type: B?, inverse: a }\n  B:\n    properties:\n      a: A?\n"
        let many = "  A:\n    properties:\n      b: { type: \"[B]\", inverse: a }\n  B:\n    properties:\n      a: A?\n"
        let (widen, widenDiagnostics) = try plan([version("1.0.0", one), version("2.0.0", many)])
        XCTAssertEqual(widenDiagnostics, [])
        XCTAssertEqual(widen.steps.first?.stages.count, 1)
        let (_, narrow) = try plan([version("1.0.0", many), version("2.0.0", one)])
        XCTAssertEqual(narrow.map(\.code), [.toManyBecomesToOne])
        // The advice, followed: keep the to-many, add a to-one beside it, fill it in a hook.
        let followed =
            "customMigration: true\nmodels:\n  A:\n    properties:\n      b: { type: \"[B]\", inverse: a }\n      "
            + "main: { type: B?, inverse: mainOf }\n  B:\n    properties:\n      a: A?\n      mainOf: A?\n"
        let (_, advice) = try plan([version("1.0.0", many), "schema: App\nversion: 2.0.0\n" + followed])
        XCTAssertEqual(advice.filter(\.isError), [])
    }

    // MARK: the lock

    func testTheLockRecordsStoredNamesAfterTheNamingConfig() throws {
        let models =
            "enums:\n  S: { rawType: String, cases: [on, off] }\nmodels:\n  A:\n    properties:\n      s: { type: "
            + "S, default: on }\n"
        let v1 = "schema: App\nversion: 1.0.0\n" + models
        let locked = ShippedVersions(histories: [try history([v1])])
        let renamed = try history([v1], config: "platforms: { iOS: 18, macOS: 15 }\nnaming: { rawValueSuffix: Raw }\n")
        let diagnostics = locked.check([renamed], lockFile: "l")
        XCTAssertEqual(diagnostics.map(\.code), [.shippedVersionEdited])
        XCTAssertTrue(
            diagnostics.first?.message.contains("A.s: stored was sRawValue, now sRaw") == true,
            diagnostics.first?.message ?? "")
        let rawEdited =
            "schema: App\nversion: 1.0.0\nenums:\n  S: { rawType: String, cases: { on: ON, off: off } "
            + "}\nmodels:\n  A:\n    properties:\n      s: { type: S, default: on }\n"
        XCTAssertEqual(
            locked.check([try history([rawEdited])], lockFile: "l").map(\.code), [.shippedVersionEdited],
            "raw values are what is stored")
    }

    func testTheLockRecordsBridgesAndHashModifiers() throws {
        let v1 = version("1.0.0", "  A:\n    properties:\n      n: String\n")
        let v2 = version("2.0.0", "  A:\n    indexes: [[n]]\n    properties:\n      n: String\n")
        let v3 = version(
            "3.0.0",
            "  A:\n    indexes: [[n]]\n    properties:\n      n: { type: Int, default: 0, from: { property: n, "
                + "convert: \"Int($0) ?? 0\" } }\n"
        )
        let locked = ShippedVersions(histories: [try history([v1, v2, v3])])
        XCTAssertEqual(locked.entries.map(\.kind), [.version, .version, .bridge, .version])
        XCTAssertTrue(locked.text.contains("hashModifier=2.0.0"), locked.text)
        let (parsed, problems) = ShippedVersions.parse(locked.text, file: "l")
        XCTAssertEqual(problems, [])
        XCTAssertEqual(parsed.check([try history([v1, v2, v3])], lockFile: "l"), [])
        let unconverted = version(
            "3.0.0", "  A:\n    indexes: [[n]]\n    properties:\n      n: String\n      m: Int?\n")
        let gone = parsed.check([try history([v1, v2, unconverted])], lockFile: "l")
        XCTAssertTrue(
            gone.contains { $0.code == .shippedVersionEdited && $0.message.contains("bridge schema") },
            gone.map(\.rendered).joined(separator: "\n"))
    }

    /// An earlier release added a modifier where today's hashes tell the versions apart (here an
    /// inverse declared where SwiftData could not have paired by itself: two candidates); the
    /// version shipped with it, so it stays.
    func testAModifierAShippedVersionCarriesStays() throws {
        let models = { (inverse: String) in
            "  A:\n    properties:\n      bs: { type: \"[B]\", inverse: \(inverse) }\n      cs: { type: \"[B]\", "
                + "inverse: false }\n  B:\n    properties:\n      a: { type: A?, inverse: false }\n"
        }
        let v1 = version("1.0.0", models("false"))
        let v2 = version(
            "2.0.0", models("a").replacingOccurrences(of: "a: { type: A?, inverse: false }", with: "a: A?"))
        let shipped = v2.replacingOccurrences(of: "inverse: a }", with: "inverse: a, hashModifier: \"2.0.0\" }")
        let lock = ShippedVersions(histories: [try history([v1, shipped])]).text
        XCTAssertTrue(lock.contains("hashModifier=2.0.0"), lock)
        let (plain, _) = try plan([v1, v2])
        XCTAssertNil(plain.versions[1].model(named: "A")?.property(named: "bs")?.hashModifier, "not needed today")

        var sources = sources([v1, v2])
        sources.lock = SourceFile(displayPath: "l", relativePath: "l", bytes: Array(lock.utf8))
        let (histories, diagnostics) = Generator.validate(sources)
        XCTAssertEqual(diagnostics.map(\.rendered), [])
        let locked = MigrationPlanner.plan(try XCTUnwrap(histories.first))
        XCTAssertEqual(locked.diagnostics.map(\.rendered), [])
        XCTAssertEqual(locked.plan.versions[1].model(named: "A")?.property(named: "bs")?.hashModifier, "2.0.0")
    }

    /// The lock keeps each shipped schema's entity hashes and checksum; an edit says which
    /// entity's identity it changes and why, or that the identity holds; a format 2 lock is read.
    func testTheLockRecordsIdentityAndSaysWhichEntityAnEditChanges() throws {
        let v1 = version("1.0.0", "  A:\n    properties:\n      n: String\n  B:\n    properties:\n      m: Int\n")
        let text = ShippedVersions(histories: [try history([v1])]).text
        let identity = StoreIdentity(try history([v1]).versions[0], naming: NamingConfig())
        XCTAssertTrue(text.contains("format 3\n"), text)
        XCTAssertTrue(text.contains("  entity A \(identity.entityHashes["A"] ?? "?")\n"), text)
        XCTAssertTrue(text.contains("  checksum \(identity.versionChecksum)\n"), text)
        let (parsed, problems) = ShippedVersions.parse(text, file: "l")
        XCTAssertEqual(problems, [])
        XCTAssertEqual(parsed.entries.first?.identity?.checksum, identity.versionChecksum)

        let typed = version("1.0.0", "  A:\n    properties:\n      n: Int\n  B:\n    properties:\n      m: Int\n")
        let changed = parsed.check([try history([typed])], lockFile: "l")
        XCTAssertEqual(changed.map(\.code), [.shippedVersionEdited])
        let message = changed.first?.message ?? ""
        XCTAssertTrue(message.contains("the version hash of A (A.n: type was String, now Int) changes"), message)
        XCTAssertFalse(message.contains("of B"), message)

        let indexed = version(
            "1.0.0", "  A:\n    indexes: [[n]]\n    properties:\n      n: String\n  B:\n    properties:\n      m: Int\n"
        )
        let kept = parsed.check([try history([indexed])], lockFile: "l").first?.message ?? ""
        XCTAssertTrue(kept.contains("SwiftData would still know its stores"), kept)

        // Format 2: the same entry without identity lines, and its own end line.
        var lines = text.split(separator: "\n").map(String.init).filter {
            !$0.hasPrefix("  entity ") && !$0.hasPrefix("  checksum ") && !$0.hasPrefix("end ")
        }
        lines = lines.map { $0 == "format 3" ? "format 2" : $0 }
        let body = lines.filter { !$0.hasPrefix("#") }
        let old = (lines + ["end 1 \(ShippedVersions.fingerprint(body))"]).joined(separator: "\n") + "\n"
        let (oldParsed, oldProblems) = ShippedVersions.parse(old, file: "l")
        XCTAssertEqual(oldProblems.map(\.rendered), [])
        XCTAssertNil(oldParsed.entries.first?.identity)
        XCTAssertEqual(oldParsed.check([try history([v1])], lockFile: "l"), [])
    }

    /// Reordering the names of a uniqueness constraint moves the hash (declared order is hashed)
    /// but not the data: no de-duplication is asked for and no modifier is needed.
    func testReorderingAUniquenessConstraintIsANewSchemaWithoutDedupe() throws {
        let v1 = version("1.0.0", "  A:\n    unique: [[a, b]]\n    properties:\n      a: String\n      b: String\n")
        let v2 = version("2.0.0", "  A:\n    unique: [[b, a]]\n    properties:\n      a: String\n      b: String\n")
        let (plan, diagnostics) = try plan([v1, v2])
        XCTAssertEqual(diagnostics.map(\.rendered), [])
        XCTAssertEqual(plan.versions[1].models.flatMap(\.properties).compactMap(\.hashModifier), [])
        XCTAssertNotEqual(
            plan.checksums[.version(SemanticVersion(1, 0, 0))], plan.checksums[.version(SemanticVersion(2, 0, 0))])
        XCTAssertEqual(plan.steps.first?.stages.count, 1)
        XCTAssertTrue(plan.steps.first?.stages.first?.actions.isEmpty == true, "no dedupe")
    }

    /// Declaring the inverse of a pair SwiftData pairs by itself leaves the checksum where it was:
    /// the version gets a modifier; and `inverse: false` on both ends of such a pair is warned.
    func testDeclaringAnInverseSwiftDataMayHaveInferredGetsAModifier() throws {
        let v1 = version(
            "1.0.0",
            "  A:\n    properties:\n      bs: { type: \"[B]\", inverse: false }\n  B:\n    properties:\n"
                + "      a: { type: A?, inverse: false }\n")
        let v2 = version(
            "2.0.0",
            "  A:\n    properties:\n      bs: { type: \"[B]\", inverse: a }\n  B:\n    properties:\n"
                + "      a: A?\n")
        let (plan, diagnostics) = try plan([v1, v2])
        XCTAssertEqual(diagnostics.filter { $0.severity == .error }.map(\.rendered), [])
        let first = StoreIdentity(plan.versions[0], naming: NamingConfig())
        XCTAssertNil(first.pairedReading, "a pair the evidence settles has one reading")
        XCTAssertEqual(first.entity(named: "B")?.properties.first?.name, "a")
        if case .relationship(let r)? = first.entity(named: "B")?.properties.first?.kind {
            XCTAssertEqual(r.inverse, "bs", "paired by SwiftData's rule")
        } else {
            XCTFail("B.a is a relationship")
        }
        let modifiers = plan.versions[1].models.flatMap(\.properties).compactMap(\.hashModifier)
        XCTAssertEqual(modifiers, ["2.0.0"])
        let second = StoreIdentity(plan.versions[1], naming: NamingConfig())
        XCTAssertNil(second.pairedReading, "nothing left to pair")
        let (_, said) = Generator.validate(
            SchemaSources(
                config: nil,
                versions: [SourceFile(displayPath: "v1.yaml", relativePath: "v1.yaml", bytes: Array(v1.utf8))]))
        XCTAssertTrue(
            said.contains {
                $0.code == .missingInverse && $0.message.contains("say inverse: false, but SwiftData pairs")
            },
            said.map(\.rendered).joined(separator: "\n"))
        var cache = VersionHashCache()
        XCTAssertTrue(
            Set(first.readings(erasingTypesOf: [], cache: &cache)).isDisjoint(
                with: second.readings(erasingTypesOf: [], cache: &cache)))
    }

    /// No Apple-computed hash proves what SwiftData stores a `URL` as: a version whose only change
    /// is a property's type to or from one gets a modifier, in case both hash alike.
    func testAChangeOnlyToAnUnprovedTypeGetsAModifier() throws {
        let v1 = version("1.0.0", "  Item:\n    properties:\n      link: URL\n      note: String?\n")
        let v2 = version(
            "2.0.0",
            "  Item:\n    properties:\n      link: { type: String, default: \"\", from: { property: link, convert: "
                + "\"$0.absoluteString\" } }\n      note: String?\n")
        let (plan, diagnostics) = try plan([v1, v2])
        XCTAssertEqual(diagnostics.filter { $0.severity == .error }.map(\.rendered), [])
        XCTAssertEqual(plan.versions[1].models.flatMap(\.properties).compactMap(\.hashModifier), ["2.0.0"])
        // The same change between two proved types needs none.
        let proved = try self.plan([
            v1.replacingOccurrences(of: "link: URL", with: "link: Int"),
            v2.replacingOccurrences(of: "$0.absoluteString", with: "String($0)"),
        ]).0
        XCTAssertEqual(proved.versions[1].models.flatMap(\.properties).compactMap(\.hashModifier), [])
    }

    func testATruncatedEmptiedOrTrimmedLockIsDetected() throws {
        let v1 = version("1.0.0", "  A:\n    properties:\n      n: String\n")
        let v2 = version("2.0.0", "  A:\n    properties:\n      n: String\n      m: Int?\n")
        let text = ShippedVersions(histories: [try history([v1, v2])]).text
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(ShippedVersions.parse("", file: "l").1.map(\.code), [.malformedLockFile])
        let cut = ShippedVersions.parse(String(text.prefix(text.count / 2)), file: "l").1
        XCTAssertFalse(cut.isEmpty)
        XCTAssertTrue(cut.allSatisfy { $0.code == .malformedLockFile })
        // Drop the last entry (a header and its lines) by hand, keeping the end line.
        let lastEntry = try XCTUnwrap(lines.lastIndex { $0.hasPrefix("version ") })
        let end = try XCTUnwrap(lines.lastIndex { $0.hasPrefix("end ") })
        lines.removeSubrange(lastEntry..<end)
        XCTAssertEqual(
            ShippedVersions.parse(lines.joined(separator: "\n"), file: "l").1.map(\.code), [.malformedLockFile])
    }
}

extension StoreIdentityTests {
    /// One case per row of the reference's table of relationships that declare no inverse
    /// (docs/version-hash-recipe.md), written from the table, and the cases it leaves open.
    func testUndeclaredInversesPairAsTheReferenceTableSays() {
        typealias End = UndeclaredInversePairing.End
        func one(optional: Bool = true, annotated: Bool = false) -> End {
            End(isToMany: false, isOptional: optional, isAnnotated: annotated, hasInitialValue: false, isCounted: false)
        }
        func many(annotated: Bool = false, initial: Bool = true, optional: Bool = false, counted: Bool = false) -> End {
            End(
                isToMany: true, isOptional: optional, isAnnotated: annotated, hasInitialValue: initial,
                isCounted: counted)
        }
        let rows: [(String, End, End, UndeclaredInversePairing)] = [
            ("plain r: B? / plain a: A?", one(), one(), .paired),
            ("plain r: B? / plain items: [A] = []", one(), many(), .paired),
            (
                "plain group: G? / @Relationship accounts: [A]? = nil", one(), many(annotated: true, optional: true),
                .paired
            ),
            ("plain team: T? / plain players = [P]()", one(), many(), .paired),
            ("plain non-optional game: G / plain atbats = [A]()", one(optional: false), many(), .unpaired),
            (
                "@Relationship identity: I? / @Relationship balances: [B]", one(annotated: true),
                many(annotated: true, initial: false), .unpaired
            ),
            ("open: @Relationship to-one / plain to-many", one(annotated: true), many(), .open),
            ("open: both annotated, to-many with a value", one(annotated: true), many(annotated: true), .open),
            ("open: many-to-many", many(), many(), .open),
            ("open: counted to-many", one(), many(counted: true), .open),
        ]
        for (name, a, b, expected) in rows {
            XCTAssertEqual(UndeclaredInversePairing(a, b), expected, name)
            XCTAssertEqual(UndeclaredInversePairing(b, a), expected, "\(name), ends swapped")
        }
        // Two plain to-ones on one side (`vteam`, `hteam`): each has two candidates, so nothing pairs.
        let twoCandidates = StoreIdentity(entities: [
            CoreDataEntity(
                name: "G",
                properties: [
                    CoreDataProperty(
                        name: "hteam", isOptional: true,
                        kind: .relationship(.init(destination: "T", inverse: nil, minCount: 0, maxCount: 1))),
                    CoreDataProperty(
                        name: "vteam", isOptional: true,
                        kind: .relationship(.init(destination: "T", inverse: nil, minCount: 0, maxCount: 1))),
                ]),
            CoreDataEntity(
                name: "T",
                properties: [
                    CoreDataProperty(
                        name: "games", isOptional: false,
                        kind: .relationship(
                            .init(destination: "G", inverse: nil, minCount: 0, maxCount: 0, hasInitialValue: true)))
                ]),
        ])
        XCTAssertNil(twoCandidates.pairedReading)
        for entity in twoCandidates.entities {
            for property in entity.properties {
                if case .relationship(let r) = property.kind {
                    XCTAssertNil(r.inverse, "\(entity.name).\(property.name)")
                }
            }
        }
    }
}
