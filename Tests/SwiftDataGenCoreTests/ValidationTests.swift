import XCTest

@testable import SwiftDataGenCore

/// One test per rule: each asserts the code, where it points and what it tells the user to do.
final class ValidationTests: XCTestCase {
    private func diagnose(_ versions: [String], config: String? = nil) -> [Diagnostic] {
        let files = versions.enumerated().map { index, text in
            SourceFile(displayPath: "v\(index + 1).yaml", relativePath: "v\(index + 1).yaml", bytes: Array(text.utf8))
        }
        let configFile = config.map {
            SourceFile(displayPath: "swiftdata-gen.yaml", relativePath: "swiftdata-gen.yaml", bytes: Array($0.utf8))
        }
        return Generator.validate(SchemaSources(config: configFile, versions: files)).diagnostics
    }

    private func model(_ body: String, version: String = "1.0.0") -> String {
        "schema: App\nversion: \(version)\nmodels:\n" + body
    }

    @discardableResult
    private func expect(
        _ code: DiagnosticCode, line: Int, column: Int, _ fragment: String, in diagnostics: [Diagnostic],
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) -> Diagnostic? {
        let match = diagnostics.first { $0.code == code }
        XCTAssertNotNil(
            match, "no \(code.rawValue) in:\n" + diagnostics.map(\.rendered).joined(separator: "\n"), file: file,
            line: sourceLine)
        guard let match else { return nil }
        XCTAssertEqual(match.location?.line, line, "line of \(match.rendered)", file: file, line: sourceLine)
        XCTAssertEqual(match.location?.column, column, "column of \(match.rendered)", file: file, line: sourceLine)
        XCTAssertTrue(
            match.message.contains(fragment), "'\(fragment)' not in: \(match.message)", file: file, line: sourceLine)
        return match
    }

    func testValidSchemaHasNoDiagnostics() {
        let diagnostics = diagnose([model("  A:\n    properties:\n      name: String\n")])
        XCTAssertEqual(diagnostics, [])
    }

    func testUnknownKeySuggestsTheNearestKey() throws {
        let d = diagnose([model("  A:\n    properties:\n      name: { type: String, dfault: x }\n")])
        let match = try XCTUnwrap(expect(.unknownKey, line: 6, column: 29, "unknown key 'dfault'", in: d))
        XCTAssertEqual(match.notes.first?.message, "did you mean 'default'?")
    }

    func testMissingKey() {
        expect(.missingKey, line: 1, column: 1, "needs a 'version' key", in: diagnose(["schema: App\nmodels: {}\n"]))
    }

    func testUnquotedArrayTypeExplainsQuoting() {
        let d = diagnose([model("  A:\n    properties:\n      tags: [String]\n")])
        expect(.wrongNodeKind, line: 6, column: 13, "quote it", in: d)
    }

    func testLooseBooleansAreRejected() {
        let d = diagnose([model("  A:\n    properties:\n      x: { type: Bool?, transient: yes }\n")])
        expect(.invalidValue, line: 6, column: 36, "must be true or false", in: d)
    }

    func testUnsupportedTypeSpelling() {
        let d = diagnose([model("  A:\n    properties:\n      x: \"[[Int]]\"\n")])
        expect(.invalidTypeSpelling, line: 6, column: 10, "Name?, [Name]", in: d)
    }

    /// `[String: Struct]` is what an Apple-computed hash pins (one Binary attribute); a dictionary
    /// of values, of another key, or inside a struct is refused with what is known.
    func testDictionariesOfStructsOnly() {
        let structs = "structs:\n  S: { a: Int }\n"
        for refused in ["[String: Int]", "[Int: S]", "[String: A]"] {
            let d = diagnose([structs + model("  A:\n    properties:\n      x: \"\(refused)\"\n")])
            expect(.invalidTypeSpelling, line: 8, column: 10, "a dictionary property must be [String:", in: d)
        }
        XCTAssertEqual(
            diagnose([structs + model("  A:\n    properties:\n      x: \"[String: S]?\"\n")]).map(\.rendered), [])
        let field = diagnose([
            "schema: App\nversion: 1.0.0\nstructs:\n  S: { a: \"[String: Int]\" }\nmodels:\n  A:\n    properties:\n      s: S?\n"
        ])
        expect(.invalidTypeSpelling, line: 4, column: 11, "is a dictionary", in: field)
    }

    /// A unique group holds stored attributes and to-one relationships (#Unique needs the 18
    /// floor); a to-many or a composite (refused by Core Data in a constraint) is refused, and an
    /// index holds attributes only.
    func testWhatAKeyPathGroupHolds() {
        let config = "platforms: { iOS: 18, macOS: 15 }\n"
        let models =
            "enums:\n  E: { rawType: String, cases: [a, b] }\nstructs:\n  S: { a: Int }\n"
            + model(
                "  B:\n    properties:\n      n: String\n      items: { type: \"[A]\", inverse: b }\n"
                    + "  A:\n    GROUPS\n    properties:\n      x: String\n      b: B?\n      s: S?\n"
                    + "      e: { type: E, default: a, enumStorage: value }\n      many: \"[B]\"\n")
        func check(_ groups: String, config: String = config) -> [Diagnostic] {
            diagnose([models.replacingOccurrences(of: "GROUPS", with: groups)], config: config)
        }
        XCTAssertEqual(check("unique: [[x, b]]").filter(\.isError).map(\.rendered), [])
        for (group, words) in [
            ("unique: [[x, many]]", "a to-many relationship"), ("unique: [[s]]", "stored as a composite"),
            ("unique: [[e]]", "stored as a composite"), ("indexes: [[b]]", "an index holds stored attributes"),
        ] {
            let refused = check(group).filter(\.isError)
            XCTAssertEqual(refused.map(\.code), [.unknownKeyPathProperty], group)
            XCTAssertTrue(refused.first?.message.contains(words) == true, "\(group): \(refused.map(\.message))")
        }
        let older = check("unique: [[b]]", config: "platforms: { iOS: 17, macOS: 14 }\n").filter(\.isError)
        XCTAssertEqual(older.map(\.code), [.uniqueNeedsNewerPlatform], older.map(\.rendered).joined())
    }

    /// `isDeleted` is stored only as the `Bool` PersistentModel requires, with a warning; any
    /// other type, or another property stored as `isDeleted`, is refused by Core Data's naming rule.
    func testIsDeletedIsStoredOnlyAsABool() {
        let accepted = diagnose([model("  A:\n    properties:\n      isDeleted: { type: Bool, default: false }\n")])
        XCTAssertEqual(accepted.map(\.code), [.replacesModelMember])
        XCTAssertFalse(accepted.hasErrors)
        expect(
            .reservedName, line: 6, column: 7, "would be stored as 'isDeleted'",
            in: diagnose([model("  A:\n    properties:\n      isDeleted: Bool?\n")]))
        expect(
            .reservedName, line: 6, column: 41, "would be stored as 'isDeleted'",
            in: diagnose([model("  A:\n    properties:\n      gone: { type: String, storedName: isDeleted }\n")]))
    }

    /// `default: null` starts an optional to-many nil; on a to-many that is not optional, or a
    /// to-one, a default is still refused.
    func testOnlyAnOptionalToManyStartsNil() {
        let other = "  B:\n    properties:\n      n: String\n"
        XCTAssertFalse(
            diagnose([model(other + "  A:\n    properties:\n      bs: { type: \"[B]?\", default: null }\n")])
                .hasErrors)
        for refused in ["{ type: \"[B]\", default: null }", "{ type: B?, default: null }"] {
            let d = diagnose([model(other + "  A:\n    properties:\n      bs: \(refused)\n")])
            XCTAssertEqual(d.filter(\.isError).map(\.code), [.attributeOptionOnRelationship], refused)
        }
    }

    func testInvalidVersion() {
        expect(
            .invalidVersion, line: 2, column: 10, "major.minor.patch",
            in: diagnose(["schema: App\nversion: v1\nmodels: {}\n"]))
    }

    func testInvalidIdentifier() {
        let d = diagnose([model("  A:\n    properties:\n      2fast: String\n")])
        expect(.invalidIdentifier, line: 6, column: 7, "not a valid property name", in: d)
    }

    func testReservedNamesAndKeywords() {
        let d = diagnose([
            model(
                "  A:\n    properties:\n      description: String\n      class: String\n  Schema:\n    "
                    + "properties:\n      x: Int\n"
            )
        ])
        XCTAssertTrue(
            d.contains { $0.code == .reservedName && $0.location?.line == 6 && $0.message.contains("NSManagedObject") })
        XCTAssertTrue(
            d.contains { $0.code == .reservedName && $0.location?.line == 7 && $0.message.contains("Swift keyword") })
        XCTAssertTrue(
            d.contains {
                $0.code == .reservedName && $0.location?.line == 8 && $0.message.contains("would hide the type")
            })
    }

    func testStoredRawValueNameClash() {
        let text =
            "schema: App\nversion: 1.0.0\nenums:\n  Kind: { rawType: String, cases: [a, b] }\nmodels:\n  A:\n    "
            + "properties:\n      kind: Kind\n      kindRawValue: String\n"
        expect(.duplicateName, line: 9, column: 7, "'kindRawValue' is declared twice", in: diagnose([text]))
    }

    func testUnknownTypeSuggestsAName() throws {
        let d = diagnose([model("  Trip:\n    properties:\n      stop: Stp?\n  Stop:\n    properties:\n      x: Int\n")]
        )
        let match = try XCTUnwrap(expect(.unknownType, line: 6, column: 13, "unknown type 'Stp'", in: d))
        XCTAssertEqual(match.notes.first?.message, "did you mean 'Stop'?")
    }

    /// One mistake, one diagnostic: the wrong inverse is the error, with a note at the related
    /// model where the property would go, and the pair is not also warned as having no inverse.
    func testInverseMustExist() throws {
        let d = diagnose([
            model(
                "  A:\n    properties:\n      bs: { type: \"[B]\", inverse: owner }\n  B:\n    properties:\n      "
                    + "a: A?\n"
            )
        ])
        let match = try XCTUnwrap(expect(.inverseNotFound, line: 6, column: 35, "not a property of B", in: d))
        XCTAssertTrue(
            match.notes.contains { $0.location?.line == 7 && $0.message.contains("add 'owner: A?'") },
            match.notes.map(\.message).joined(separator: "\n"))
        XCTAssertEqual(d.map(\.code), [.inverseNotFound], d.map(\.rendered).joined(separator: "\n"))
    }

    /// `id` meets Identifiable's requirement: in public models it cannot be written less visible.
    func testAnIdLessVisibleThanAPublicModelIsRefused() throws {
        let versions = [
            SourceFile(
                displayPath: "1.0.0.yaml", relativePath: "1.0.0.yaml",
                bytes: Array(
                    "schema: P\nversion: 1.0.0\nmodels:\n  Item:\n    properties:\n      id: { type: UUID, expression: \"UUID()\", access: internal }\n"
                        .utf8))
        ]
        for (access, expected) in [("public", [DiagnosticCode.witnessLessVisible]), ("internal", [])] {
            let config = SourceFile(
                displayPath: "swiftdata-gen.yaml", relativePath: "swiftdata-gen.yaml",
                bytes: Array("access: \(access)\n".utf8))
            let (_, said) = Generator.validate(SchemaSources(config: config, versions: versions))
            XCTAssertEqual(said.filter(\.isError).map(\.code), expected, said.map(\.rendered).joined(separator: "\n"))
        }
    }

    /// Two relationships pointing at each other without an inverse are one warning, not two;
    /// `inverse: false` silences a relationship that is one-way on purpose, except where SwiftData
    /// pairs the two all the same.
    func testMissingInversePairIsWarnedOnceAndOneWayIsQuiet() {
        let pair = diagnose([model("  A:\n    properties:\n      bs: \"[B]\"\n  B:\n    properties:\n      a: A?\n")])
        XCTAssertEqual(pair.map(\.code), [.missingInverse], pair.map(\.rendered).joined(separator: "\n"))
        let oneWay = diagnose([
            model("  A:\n    properties:\n      b: { type: B?, inverse: false }\n  B:\n    properties:\n      x: Int\n")
        ])
        XCTAssertEqual(oneWay, [])
        let bothOneWay = diagnose([
            model(
                "  A:\n    properties:\n      bs: { type: \"[B]\", inverse: false }\n  B:\n    properties:\n      "
                    + "a: { type: A?, inverse: false }\n"
            )
        ])
        XCTAssertEqual(bothOneWay.map(\.code), [.missingInverse], "SwiftData pairs a plain pair by itself")
        XCTAssertTrue(bothOneWay.first?.message.contains("say inverse: false, but SwiftData pairs them") == true)
        let annotatedOneWay = diagnose([
            model(
                "  A:\n    properties:\n      bs: { type: \"[B]?\", default: null, inverse: false, deleteRule: cascade }\n"
                    + "  B:\n    properties:\n      a: { type: A?, inverse: false, deleteRule: cascade }\n")
        ])
        XCTAssertEqual(annotatedOneWay, [], "annotated on both ends, no initial value: not paired")
        let halfOneWay = diagnose([
            model(
                "  A:\n    properties:\n      bs: { type: \"[B]\", inverse: false }\n  B:\n    properties:\n      "
                    + "a: A?\n"
            )
        ])
        XCTAssertEqual(halfOneWay.map(\.code), [.missingInverse], "the side that says nothing is still asked")
        XCTAssertEqual(halfOneWay.first?.location?.line, 9)
        let onAttribute = diagnose([model("  A:\n    properties:\n      x: { type: String, inverse: false }\n")])
        XCTAssertEqual(onAttribute.map(\.code), [.relationshipOptionOnAttribute])
        let truth = diagnose([
            model("  A:\n    properties:\n      b: { type: B?, inverse: true }\n  B:\n    properties:\n      x: Int\n")
        ])
        XCTAssertTrue(
            truth.contains {
                $0.code == .invalidValue && $0.message.contains("or false for a relationship one-way on purpose")
            })
    }

    func testInverseMustPointBack() {
        let d = diagnose([
            model(
                "  A:\n    properties:\n      bs: { type: \"[B]\", inverse: c }\n  B:\n    properties:\n      c: "
                    + "C?\n  C:\n    properties:\n      bs: { type: \"[B]\", inverse: c }\n"
            )
        ])
        expect(.inverseMismatch, line: 6, column: 35, "points to C, not back to A", in: d)
    }

    func testInverseMustBeARelationship() {
        let d = diagnose([
            model(
                "  A:\n    properties:\n      bs: { type: \"[B]\", inverse: name }\n  B:\n    properties:\n      "
                    + "name: String\n"
            )
        ])
        expect(.inverseNotRelationship, line: 6, column: 35, "is an attribute", in: d)
    }

    func testNullifyOntoRequiredToOne() throws {
        let d = diagnose([
            model("  A:\n    properties:\n      bs: { type: \"[B]\", inverse: a }\n  B:\n    properties:\n      a: A\n")
        ])
        let match = try XCTUnwrap(expect(.nullifyOntoRequired, line: 6, column: 7, "make 'a' optional", in: d))
        XCTAssertEqual(match.notes.first?.location?.line, 9)
    }

    func testMissingInverseIsAWarning() {
        let d = diagnose([model("  A:\n    properties:\n      b: B?\n  B:\n    properties:\n      x: Int\n")])
        let match = expect(.missingInverse, line: 6, column: 7, "add inverse:", in: d)
        XCTAssertEqual(match?.severity, .warning)
    }

    /// Counts on a to-one are carried as written (apps ship them), but its maxCount can only be 1.
    func testCountsOnAToOneAreCarriedAndItsMaxCountIsOne() {
        let carried = diagnose([
            model(
                "  A:\n    properties:\n      b: { type: B?, minCount: 1, maxCount: 1, inverse: a }\n  B:\n"
                    + "    properties:\n      a: \"[A]\"\n"
            )
        ])
        XCTAssertEqual(carried.filter(\.isError).map(\.rendered), [])
        let d = diagnose([
            model(
                "  A:\n    properties:\n      b: { type: B?, maxCount: 2, inverse: a }\n  B:\n    properties:\n   "
                    + "   a: \"[A]\"\n"
            )
        ])
        expect(.invalidCount, line: 6, column: 32, "can only be 1", in: d)
    }

    func testRelationshipOptionOnAttribute() {
        let d = diagnose([model("  A:\n    properties:\n      x: { type: String, deleteRule: cascade }\n")])
        expect(.relationshipOptionOnAttribute, line: 6, column: 38, "'deleteRule' applies to relationships", in: d)
    }

    func testAttributeOptionOnRelationship() {
        let d = diagnose([
            model(
                "  A:\n    properties:\n      b: { type: B?, externalStorage: true, inverse: a }\n  B:\n    "
                    + "properties:\n      a: A?\n"
            )
        ])
        expect(.attributeOptionOnRelationship, line: 6, column: 22, "'externalStorage' applies to attributes", in: d)
    }

    func testTransientNeedsDefault() {
        let d = diagnose([model("  A:\n    properties:\n      x: { type: Int, transient: true }\n")])
        expect(.transientNeedsDefault, line: 6, column: 34, "needs a default", in: d)
    }

    func testExternalStorageOnlyOnData() {
        let d = diagnose([model("  A:\n    properties:\n      x: { type: String, externalStorage: true }\n")])
        expect(.externalStorageNeedsData, line: 6, column: 26, "only to Data", in: d)
    }

    func testUniqueNamesAStoredProperty() {
        let d = diagnose(
            [model("  A:\n    unique: [[nme]]\n    properties:\n      name: String\n")],
            config: "platforms: { iOS: 18 }\n")
        expect(.unknownKeyPathProperty, line: 5, column: 15, "'nme'", in: d)
    }

    func testCompoundUniqueNeeds18() {
        let d = diagnose([model("  A:\n    unique: [[a, b]]\n    properties:\n      a: String\n      b: String\n")])
        expect(.uniqueNeedsNewerPlatform, line: 5, column: 14, "iOS 18, macOS 15", in: d)
    }

    func testSingleUniqueBelow18BecomesAttribute() throws {
        let sources = SchemaSources(
            config: nil,
            versions: [
                SourceFile(
                    displayPath: "v.yaml", relativePath: "v.yaml",
                    bytes: Array(model("  A:\n    unique: [a]\n    properties:\n      a: String\n").utf8))
            ])
        let (histories, diagnostics) = Generator.validate(sources)
        XCTAssertEqual(diagnostics, [])
        let property = try XCTUnwrap(histories.first?.latest?.model(named: "A")?.property(named: "a"))
        XCTAssertTrue(property.isUnique)
        XCTAssertEqual(histories.first?.latest?.model(named: "A")?.uniqueGroups, [])
    }

    func testIndexNeeds18() {
        let d = diagnose([model("  A:\n    indexes: [[a]]\n    properties:\n      a: String\n")])
        expect(.indexNeedsNewerPlatform, line: 5, column: 15, "need #Index", in: d)
    }

    func testDefaultMustFitTheType() {
        let d = diagnose([model("  A:\n    properties:\n      n: { type: Int, default: \"1\" }\n")])
        expect(.defaultTypeMismatch, line: 6, column: 32, "written without quotes", in: d)
    }

    func testURLDefaultsMustParseOnEveryPlatform() {
        let d = diagnose([model("  A:\n    properties:\n      u: { type: URL, default: \"https://x.com/a b\" }\n")])
        expect(.defaultTypeMismatch, line: 6, column: 32, "percent-encoded", in: d)
    }

    /// A default that would trap (Decimal beyond its exponent range) or silently change (a Double
    /// or Float that rounds to infinity or zero) is refused; large values within range are not.
    func testNumberDefaultsStayWithinTheirTypesRange() {
        for (type, value) in [
            ("Decimal", "1e400"), ("Decimal", "1e-400"), ("Double", "1e400"), ("Double", "1e-400"), ("Float", "1e39"),
            ("Float", "1e-50"),
        ] {
            let d = diagnose([model("  A:\n    properties:\n      x: { type: \(type), default: \(value) }\n")])
            XCTAssertEqual(d.map(\.code), [.defaultTypeMismatch], "\(type) \(value)")
            XCTAssertTrue(d.first?.message.contains("range") == true, d.first?.message ?? "")
        }
        for (type, value) in [
            ("Decimal", "1e100"), ("Decimal", "0.0001"), ("Decimal", "0"), ("Double", "1e300"), ("Double", "0.0"),
            ("Float", "3.4e38"),
        ] {
            XCTAssertEqual(
                diagnose([model("  A:\n    properties:\n      x: { type: \(type), default: \(value) }\n")]), [],
                "\(type) \(value)")
        }
    }

    /// Every note has a file:line:col; a "did you mean" points at what it suggests.
    func testNotesPointAtTheOtherPlace() {
        let d = diagnose([
            model(
                "  A:\n    properties:\n      bs: { type: \"[B]\", inverse: ownr }\n  B:\n    properties:\n      "
                    + "owner: A?\n"
            )
        ])
        let match = expect(.inverseNotFound, line: 6, column: 35, "not a property of B", in: d)
        XCTAssertEqual(match?.notes.first?.message, "did you mean 'owner'?")
        XCTAssertEqual(match?.notes.first?.location?.line, 9)
        XCTAssertTrue(d.allSatisfy { $0.notes.allSatisfy { $0.location != nil } })
    }

    /// A deep inheritance chain is refused at its limit, once per chain segment, in linear time.
    func testInheritanceDepthIsBounded() {
        var body = ""
        for i in 0..<400 {
            body +=
                "  M\(i):\n" + (i > 0 ? "    superclass: M\(i - 1)\n" : "") + "    properties:\n      p\(i): String\n"
        }
        let d = diagnose([model(body)], config: "platforms: { iOS: 26, macOS: 26 }\n")
        XCTAssertEqual(Set(d.map(\.code)), [.countLimit])
        XCTAssertEqual(d.count, 400 / (DSLDecoder.Limits.inheritanceDepth + 1))
        XCTAssertTrue(d.first?.message.contains("'M65' has 65 ancestors") == true, d.first?.message ?? "")
    }

    /// A property with a type's name hides that type inside its class, where the generated code
    /// names it; two Int raw values are compared as numbers.
    func testNamesThatWouldBreakTheOutputAreRefused() {
        for property in [
            "Date: { type: Date, default: 2024-01-01T00:00:00Z }", "String: String", "N: N?",
            "E: { type: E, default: a }", "M: String",
        ] {
            let d = diagnose([
                model("  M:\n    properties:\n      \(property)\n  N:\n    properties:\n      x: String\n")
                    .replacingOccurrences(of: "models:", with: "enums:\n  E: { rawType: String, cases: [a] }\nmodels:")
            ])
            XCTAssertTrue(
                d.contains { $0.code == .reservedName && $0.message.contains("has the name of a type") }, property)
        }
        let raws = diagnose([
            "schema: App\nversion: 1.0.0\nenums:\n  E: { rawType: Int, cases: { a: 1, b: 01 } }\nmodels:\n  M:\n  "
                + "  properties:\n      e: { type: E, default: a }\n"
        ])
        XCTAssertEqual(raws.map(\.code), [.duplicateName])
    }

    func testAModelMayNotTakeAnotherSchemasGeneratedName() {
        let a = "schema: A\nversion: 1.0.0\nmodels:\n  BSchemaV1:\n    properties:\n      x: String\n"
        let b = "schema: B\nversion: 1.0.0\nmodels:\n  Item:\n    properties:\n      x: String\n"
        let d = diagnose([a, b])
        XCTAssertEqual(d.map(\.code), [.reservedName])
        XCTAssertTrue(d.first?.message.contains("schema B declares") == true, d.first?.message ?? "")
    }

    func testANamingConfigThatMergesGeneratedNamesIsReportedByValidate() {
        let d = diagnose(
            [model("  A:\n    properties:\n      x: String\n")],
            config: "naming: { schemaSuffix: Plan, migrationPlanSuffix: Plan }\n")
        XCTAssertEqual(d.map(\.code), [.outputNameCollision])
        XCTAssertTrue(d.first?.message.contains("'AppPlan'") == true, d.first?.message ?? "")
    }

    func testDefaultAndExpressionConflict() {
        let d = diagnose([model("  A:\n    properties:\n      n: { type: Int, default: 1, expression: \"2\" }\n")])
        expect(.conflictingDefaults, line: 6, column: 32, "both default and expression", in: d)
    }

    func testTransientCannotBeStoredOptions() {
        let d = diagnose([
            model("  A:\n    properties:\n      n: { type: Int, transient: true, default: 0, unique: true }\n")
        ])
        expect(.transientOption, line: 6, column: 60, "never stored", in: d)
    }

    func testRepeatedKeyPathGroup() {
        let d = diagnose(
            [model("  A:\n    indexes: [[a], [a]]\n    properties:\n      a: String\n")],
            config: "platforms: { iOS: 18 }\n")
        expect(.duplicateKeyPathGroup, line: 5, column: 20, "repeats", in: d)
    }

    func testInheritanceNeeds26() {
        let d = diagnose([
            model("  A:\n    properties:\n      a: String\n  B:\n    superclass: A\n    properties:\n      b: String\n")
        ])
        expect(.inheritanceNeedsNewerPlatform, line: 8, column: 17, "iOS 26, macOS 26", in: d)
    }

    /// `codable` is iOS 27's, and the generator stores only struct values as their encoding.
    func testCodableNeeds27AndAStruct() {
        let spot = "schema: App\nversion: 1.0.0\nstructs:\n  Spot: { x: Double }\nmodels:\n  A:\n    properties:\n"
        let below = diagnose([spot + "      s: { type: Spot, codable: true }\n"], config: "platforms: { iOS: 26 }\n")
        expect(.codableNeedsNewerPlatform, line: 8, column: 24, "needs iOS 27", in: below)
        let scalar = diagnose(
            [spot + "      s: Spot\n      t: { type: String, codable: true }\n"], config: "platforms: { iOS: 27 }\n")
        expect(.codableNeedsStruct, line: 9, column: 26, "'t' is String", in: scalar)
        XCTAssertEqual(
            diagnose([spot + "      s: { type: \"[Spot]?\", codable: true }\n"], config: "platforms: { iOS: 27 }\n"), []
        )
    }

    /// A struct field may be a keyword (it is written in backticks), but not a name Swift already
    /// gives the struct: ReservedNameTests compiles each and sees it fail.
    func testStructFieldsNamedLikeWhatCodableSynthesizesAreRefused() {
        for name in ["self", "CodingKeys"] {
            let d = diagnose([
                "schema: App\nversion: 1.0.0\nstructs:\n  S: { a: Int, \(name): Int }\nmodels:\n  A:\n    properties:\n"
                    + "      s: S\n"
            ])
            expect(.reservedName, line: 4, column: 16, "cannot name a field of struct S", in: d)
        }
        XCTAssertEqual(
            diagnose([
                "schema: App\nversion: 1.0.0\nstructs:\n  S: { a: Int, default: Int }\nmodels:\n  A:\n    properties:\n"
                    + "      s: S\n"
            ]), [], "another keyword is written in backticks and compiles")
    }

    /// A relationship cannot be its own inverse, to-one or to-many: Swift refuses the key path to
    /// itself in its own attribute (AppleSDKRefusalTests).
    func testARelationshipIsNotItsOwnInverse() {
        let d = diagnose([
            model("  Node:\n    properties:\n      parent: { type: Node?, inverse: parent }\n")
        ])
        expect(.inverseMismatch, line: 6, column: 39, "names itself as its inverse", in: d)
        let many = diagnose([model("  Node:\n    properties:\n      peers: { type: \"[Node]\", inverse: peers }\n")])
        expect(.inverseMismatch, line: 6, column: 41, "names itself as its inverse", in: many)
    }

    func testUnknownSuperclass() {
        let d = diagnose(
            [model("  B:\n    superclass: Z\n    properties:\n      b: String\n")], config: "platforms: { iOS: 26 }\n")
        expect(.unknownSuperclass, line: 5, column: 17, "'Z' is not a model", in: d)
    }

    func testInheritanceCycle() {
        let d = diagnose(
            [
                model(
                    "  A:\n    superclass: B\n    properties:\n      a: String\n  B:\n    superclass: A\n    "
                        + "properties:\n      b: String\n"
                )
            ], config: "platforms: { iOS: 26 }\n")
        expect(.inheritanceCycle, line: 5, column: 17, "inherits from itself", in: d)
    }

    func testSubclassCannotRedeclare() {
        let d = diagnose(
            [
                model(
                    "  A:\n    properties:\n      a: String\n  B:\n    superclass: A\n    properties:\n      a: "
                        + "String\n"
                )
            ], config: "platforms: { iOS: 26 }\n")
        expect(.overridesInheritedProperty, line: 10, column: 7, "already declared by superclass A", in: d)
    }

    /// An app that turned sync on in a later version (vladblajovan/Ritualist, version 10): the
    /// versions before it shipped without CloudKit and are not held to its rules; from it on they
    /// are, and a step between two syncing versions that shrinks the schema is warned.
    func testCloudKitFromAVersionOn() throws {
        let before = model("  A:\n    properties:\n      a: { type: String, unique: true }\n      gone: String?\n")
        let first = model(
            "  A:\n    properties:\n      a: { type: String, default: \"\" }\n      gone: String?\n", version: "2.0.0")
        let later = model("  A:\n    properties:\n      a: { type: String, default: \"\" }\n", version: "3.0.0")
        XCTAssertEqual(diagnose([before, first], config: "cloudKit: { from: 2.0.0 }\n"), [])
        let everyVersion = diagnose([before, first], config: "cloudKit: true\n")
        XCTAssertEqual(
            Set(everyVersion.map(\.code)), [.cloudKitUnique, .cloudKitRequiredAttribute],
            "version 1.0.0 breaks the rules when they hold for it")
        let broken = diagnose(
            [before, model("  A:\n    properties:\n      a: String\n", version: "2.0.0")],
            config: "cloudKit: { from: 2.0.0 }\n")
        XCTAssertEqual(broken.map(\.code), [.cloudKitRequiredAttribute])
        XCTAssertEqual(broken.first?.location?.file, "v2.yaml")
        let history = try XCTUnwrap(
            Generator.validate(
                SchemaSources(
                    config: SourceFile(
                        displayPath: "c.yaml", relativePath: "c.yaml", bytes: Array("cloudKit: { from: 2.0.0 }\n".utf8)),
                    versions: [before, first, later].enumerated().map {
                        SourceFile(
                            displayPath: "v\($0 + 1).yaml", relativePath: "v\($0 + 1).yaml", bytes: Array($1.utf8))
                    }
                )
            ).histories.first)
        let shrinking = MigrationPlanner.plan(history).diagnostics.filter { $0.code == .cloudKitSchemaShrinks }
        XCTAssertEqual(shrinking.count, 1, "only the step between two syncing versions")
        XCTAssertTrue(
            shrinking.first?.message.contains("A.gone removed between 2.0.0 and 3.0.0") == true,
            shrinking.first?.message ?? "")
        let wrong = diagnose([before], config: "cloudKit: { from: ten }\n")
        XCTAssertEqual(wrong.map(\.code), [.invalidVersion])
    }

    func testCloudKitRules() {
        let d = diagnose(
            [
                model(
                    "  A:\n    properties:\n      a: { type: String, unique: true }\n      b: { type: B, "
                        + "deleteRule: deny, inverse: as }\n  B:\n    properties:\n      as: \"[A]?\"\n"
                )
            ],
            config: "cloudKit: true\n")
        expect(.cloudKitRequiredAttribute, line: 6, column: 7, "optional or defaulted", in: d)
        expect(.cloudKitUnique, line: 6, column: 34, "CloudKit does not support unique", in: d)
        expect(.cloudKitRequiredRelationship, line: 7, column: 7, "optional", in: d)
        expect(.cloudKitDeny, line: 7, column: 7, "deny", in: d)
    }

    func testDuplicateVersions() {
        let d = diagnose([
            model("  A:\n    properties:\n      a: String\n"), model("  A:\n    properties:\n      b: String\n"),
        ])
        expect(.duplicateVersion, line: 2, column: 10, "declared twice", in: d)
    }

    func testIdenticalAdjacentVersions() throws {
        let v1 = model("  A:\n    properties:\n      a: String\n")
        let v2 = model(
            "  A:\n    doc: only words changed\n    properties:\n      a: { type: String, doc: same }\n",
            version: "1.1.0")
        let match = try XCTUnwrap(
            expect(.identicalVersions, line: 2, column: 10, "nothing to migrate", in: diagnose([v1, v2])))
        XCTAssertEqual(match.location?.file, "v2.yaml")
        XCTAssertEqual(match.notes.first?.location?.file, "v1.yaml")
    }

    /// Found in a real app (vladblajovan/Ritualist shipped two schemas with one checksum): an
    /// enum declared in both versions, at different places, is the same enum.
    func testIdenticalVersionsWithEnumsAreIdentical() throws {
        let enums = "enums:\n  Kind: { rawType: String, cases: [a, b] }\nmodels:"
        let v1 = model("  A:\n    properties:\n      a: String\n").replacingOccurrences(of: "models:", with: enums)
        let v2 = model("  A:\n    properties:\n      a: String\n", version: "1.1.0").replacingOccurrences(
            of: "models:", with: "\n" + enums)
        expect(.identicalVersions, line: 2, column: 10, "nothing to migrate", in: diagnose([v1, v2]))
        let v3 = v2.replacingOccurrences(of: "[a, b]", with: "[a, b, c]").replacingOccurrences(
            of: "1.1.0", with: "1.2.0")
        XCTAssertFalse(diagnose([v2, v3]).contains { $0.code == .identicalVersions }, "a new case is a change")
    }

    func testSameNamesWithAnotherStoredShapeAreNotIdentical() {
        let v1 = model("  A:\n    properties:\n      a: String\n")
        let v2 = model("  A:\n    properties:\n      a: String?\n", version: "1.1.0")
        XCTAssertFalse(diagnose([v1, v2]).contains { $0.code == .identicalVersions })
    }

    func testSchemasSharingAFolderMayNotDeclareTheSameAlias() {
        let a = "schema: Shop\nversion: 1.0.0\nmodels:\n  Item:\n    properties:\n      a: String\n"
        let b =
            "schema: Stock\nversion: 1.0.0\nmodels:\n  Item:\n    properties:\n      b: String\n  Bin:\n    "
            + "properties:\n      c: String\n"
        let d = diagnose([a, b])
        let clash = d.first { $0.code == .duplicateName }
        XCTAssertTrue(
            clash?.message.contains("'Item' is declared by schemas Shop and Stock") == true,
            d.map(\.rendered).joined(separator: "\n"))
        XCTAssertEqual(clash?.location?.file, "v2.yaml")
        XCTAssertEqual(clash?.notes.first?.location?.file, "v1.yaml")
        XCTAssertEqual(d.filter(\.isError).count, 1)
    }

    func testNoVersions() {
        XCTAssertEqual(diagnose([]).map(\.code), [.noVersions])
    }

    func testRenameMustNameAnEarlierProperty() {
        let v1 = model("  A:\n    properties:\n      a: String\n")
        let v2 = model("  A:\n    properties:\n      b: { type: String, renamedFrom: z }\n", version: "2.0.0")
        expect(
            .renameSourceNotFound, line: 6, column: 7, "names no property of A in version 1.0.0",
            in: diagnose([v1, v2]))
    }

    func testRenameChainsResolveToTheFirstStoredName() throws {
        let v1 = model("  A:\n    properties:\n      a: String\n")
        let v2 = model("  A:\n    properties:\n      b: { type: String, renamedFrom: a }\n", version: "2.0.0")
        let v3 = model("  A:\n    properties:\n      c: { type: String, renamedFrom: b }\n", version: "3.0.0")
        let v4 = model("  A:\n    properties:\n      c: String\n      d: Int?\n", version: "4.0.0")
        let files = [v1, v2, v3, v4].enumerated().map {
            SourceFile(displayPath: "v\($0).yaml", relativePath: "v\($0).yaml", bytes: Array($1.utf8))
        }
        let (histories, diagnostics) = Generator.validate(SchemaSources(config: nil, versions: files))
        XCTAssertEqual(diagnostics, [])
        let names = try XCTUnwrap(histories.first).versions.map { $0.models[0].properties[0].originalName }
        XCTAssertEqual(names, [nil, "a", "a", "a"])
    }

    func testEveryModelsProblemsAreReported() {
        let d = diagnose([model("  A:\n    properties:\n      x: Nope\n  B:\n    properties:\n      y: Nada\n")])
        XCTAssertEqual(d.filter { $0.code == .unknownType }.map { $0.location?.line }, [6, 9])
    }

    func testAnEmptyConfigMeansTheDefaults() {
        XCTAssertEqual(
            diagnose([model("  A:\n    properties:\n      a: String\n")], config: "# nothing to set yet\n"), [])
    }

    func testConfigIsStrictToo() {
        let d = diagnose(
            [model("  A:\n    properties:\n      a: String\n")],
            config: "platforms: { iOS: 18 }\ncloudkit: true\naccess: open\n")
        XCTAssertEqual(d.first { $0.code == .unknownKey }?.notes.first?.message, "did you mean 'cloudKit'?")
        expect(.invalidValue, line: 3, column: 9, "not a valid access level", in: d)
    }

    /// Associated values follow Swift's rules for an enum stored through its Codable conformance:
    /// only without a raw type, labels unique and never the key of an unlabeled value at their position
    /// (`_1` second), types of the version, no case that holds its own enum, no default that needs values.
    func testAssociatedValuesAreCheckedWhereTheyAreWritten() {
        func enumVersion(_ cases: String, rawType: String = "none", property: String = "kind: Kind") -> String {
            "schema: App\nversion: 1.0.0\nenums:\n  Kind:\n    rawType: \(rawType)\n    cases:\n\(cases)models:\n"
                + "  A:\n    properties:\n      \(property)\n"
        }
        XCTAssertEqual(diagnose([enumVersion("      - plain\n      - every: { days: Int }\n      - on: [Date]\n")]), [])
        expect(
            .invalidValue, line: 8, column: 18, "an enum with a raw type cannot have",
            in: diagnose([enumVersion("      - plain\n      - every: { days: Int }\n", rawType: "String")]))
        expect(
            .reservedName, line: 7, column: 24, "leave the value unlabeled",
            in: diagnose([enumVersion("      - every: [Int, { _1: Int }]\n")]))
        XCTAssertEqual(diagnose([enumVersion("      - every: [{ _1: Int }, { _days: Int }]\n")]), [])
        expect(
            .duplicateName, line: 7, column: 34, "appears twice",
            in: diagnose([enumVersion("      - every: [{ days: Int }, { days: Int }]\n")]))
        expect(
            .unknownType, line: 7, column: 17, "has type 'Week'",
            in: diagnose([enumVersion("      - every: [Week]\n")]))
        expect(
            .invalidTypeSpelling, line: 4, column: 3, "enum Kind holds itself",
            in: diagnose([enumVersion("      - plain\n      - nested: [Kind?]\n")]))
        expect(
            .defaultTypeMismatch, line: 12, column: 36, "has associated values",
            in: diagnose([
                enumVersion(
                    "      - plain\n      - every: { days: Int }\n", property: "kind: { type: Kind, default: every }")
            ]))
    }
}

/// Date defaults are computed without the machine's calendar, so the output is the same everywhere.
final class DateLiteralTests: XCTestCase {
    func testISO8601FormsAgreeWithFoundation() {
        let formatter = ISO8601DateFormatter()
        for text in [
            "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "1969-07-20T20:17:40Z", "2038-01-19T03:14:08Z",
            "2000-03-01T12:00:00+02:30", "1999-12-31T23:00:00-05:00",
        ] {
            let expected = formatter.date(from: text).map { String(Int64($0.timeIntervalSince1970)) }
            XCTAssertEqual(DefaultValueResolver.secondsSince1970(text), expected, text)
        }
        XCTAssertEqual(DefaultValueResolver.secondsSince1970("2024-01-01"), "1704067200")
        XCTAssertEqual(DefaultValueResolver.secondsSince1970("2024-01-01T00:00:00.250Z"), "1704067200")
        for bad in [
            "2023-02-29", "2024-13-01", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00", "yesterday", "2024-1-1",
            "2024-01-01T00:00:00+0200",
        ] {
            XCTAssertNil(DefaultValueResolver.secondsSince1970(bad), bad)
        }
    }
}

/// Hostile input: limits on counts, names that could break out of generated code.
final class HostileInputTests: XCTestCase {
    private func diagnose(_ text: String) -> [Diagnostic] {
        Generator.validate(
            SchemaSources(
                config: nil,
                versions: [SourceFile(displayPath: "v.yaml", relativePath: "v.yaml", bytes: Array(text.utf8))])
        ).diagnostics
    }

    func testCountLimits() {
        var many = "schema: App\nversion: 1.0.0\nmodels:\n  A:\n    properties:\n"
        for i in 0...DSLDecoder.Limits.propertiesPerModel { many += "      p\(i): Int?\n" }
        let d = diagnose(many)
        XCTAssertEqual(d.map(\.code), [.countLimit])
        XCTAssertEqual(d.first?.location?.line, 6)
        var models = "schema: App\nversion: 1.0.0\nmodels:\n"
        for i in 0...DSLDecoder.Limits.modelsPerVersion { models += "  M\(i): { properties: { a: Int? } }\n" }
        XCTAssertEqual(diagnose(models).map(\.code), [.countLimit])
    }

    func testIdentifierLengthLimit() {
        let long = String(repeating: "a", count: Identifier.maxLength + 1)
        let d = diagnose("schema: App\nversion: 1.0.0\nmodels:\n  A:\n    properties:\n      \(long): Int\n")
        XCTAssertEqual(d.map(\.code), [.invalidIdentifier])
    }

    /// Names are never escaped into code: anything but a plain identifier is refused.
    func testHostileNamesAreRejected() {
        let names = [
            "'b; import Darwin'", "\"x: Int } ; class Evil {\"", "\"`y`\"", "\"z\\u202Eq\"", "\"c d\"", "\"é\"",
            "\"self\"", "\"Type\"",
        ]
        for name in names {
            let d = diagnose(
                "schema: App\nversion: 1.0.0\nmodels:\n  A:\n    properties:\n      \(name): Int\n      ok: Int\n")
            let codes = Set(d.map(\.code))
            XCTAssertTrue(
                codes.isSubset(of: [.invalidIdentifier, .reservedName]) && !codes.isEmpty,
                "\(name): \(d.map(\.rendered))")
        }
        for name in ["\"Evil {\"", "\"Schema\"", "\"TripsSchema\""] {
            let d = diagnose("schema: Trips\nversion: 1.0.0\nmodels:\n  \(name):\n    properties:\n      a: Int\n")
            XCTAssertFalse(d.isEmpty, name)
        }
    }

    func testStringLiteralsEscapeEverythingThatCouldEndThem() {
        XCTAssertEqual(SwiftLiteral.string("a\"b\\c\n\r\t\0\u{7}"), "\"a\\\"b\\\\c\\n\\r\\t\\0\\u{7}\"")
        XCTAssertEqual(SwiftLiteral.string("\\(exit(1))"), "\"\\\\(exit(1))\"")
        XCTAssertEqual(SwiftLiteral.string("\"\"\""), "\"\\\"\\\"\\\"\"")
        XCTAssertEqual(SwiftLiteral.string("a\u{202E}b\u{2066}"), "\"a\\u{202E}b\\u{2066}\"")
        XCTAssertEqual(SwiftLiteral.string("café 😀"), "\"café 😀\"")
        XCTAssertEqual(SwiftLiteral.commentText("x\ny\u{202E}"), "x y ")
    }

    /// The order files are listed in never changes the output.
    func testOutputDoesNotDependOnFileOrder() throws {
        let folder = GoldenTests.goldenRoot.appendingPathComponent("library/input").path
        let sources = try SchemaLoader.read(directory: folder).get()
        let templates = try SchemaLoader.templates(overrideDirectory: nil).get()
        let forward = Generator.generate(sources, templates: templates)
        var reversed = sources
        reversed.versions.reverse()
        let backward = Generator.generate(reversed, templates: templates)
        XCTAssertFalse(forward.files.isEmpty)
        XCTAssertEqual(forward.files, backward.files)
        XCTAssertEqual(forward.diagnostics, backward.diagnostics)
    }
}

final class KeywordTests: XCTestCase {
    func testContextualKeywordsThatCompileAsNamesAreAccepted() {
        for name in ["open", "package", "actor", "async", "macro"] {
            XCTAssertFalse(Identifier.keywords.contains(name), name)
        }
        for name in ["class", "self", "Type", "some", "await", "default"] {
            XCTAssertTrue(Identifier.keywords.contains(name), name)
        }
    }

    func testIdentifierGrammarIsASCIILettersDigitsAndUnderscore() {
        for name in ["a", "_x", "A_b9", "zZ", String(repeating: "q", count: Identifier.maxLength)] {
            XCTAssertTrue(Identifier.isValid(name), name)
        }
        let rejected = [
            "", "1a", "a-b", "é", "a b", "a`", "@a", "a[", "a{", "a\u{0}", "ｆｕｌｌ",
            String(repeating: "q", count: Identifier.maxLength + 1),
        ]
        for name in rejected {
            XCTAssertFalse(Identifier.isValid(name), name)
        }
    }
}
