import Foundation
import XCTest

@testable import SwiftDataGenCore

/// `new-version` writes the next version from the latest: the number replaced, the keys that
/// describe only the step into the latest version left out, everything else as written.
final class NextVersionTests: XCTestCase {
    static let config = "platforms: { iOS: 17, macOS: 14 }\n"
    static let first = """
        schema: Shop
        version: 1.0.0
        models:
          Item:
            properties:
              title: String
              price: String
              code: String
          Shelf:
            properties:
              label: String

        """
    /// Every kind of step-only key, in block and flow style, with comments around and inside them.
    static let latest = """
        # Shop 2.0.0: names, prices as numbers, unique codes.
        schema: Shop
        version: "2.0.0"
        typeName: ShopSchemaTwo
        customMigration: true
        acknowledgedRemovals:
        - Shelf
        models:
          Item:
            doc: Something on sale.
            unique: [[code]]
            # Which duplicate survives when codes become unique.
            dedupe:
              keep: last
              orderBy: name
            properties:
              name: { renamedFrom: title, type: String }  # was title
              price:
                type: Decimal
                default: 0
                # The old text, parsed.
                from:
                  property: price
                  convert: "Decimal(string: $0) ?? 0"
                doc: The price in the shop's currency.
              code: { type: String, doc: "A, B or C" }

        """

    static func sources(_ versions: [(String, String)]) -> SchemaSources {
        func file(_ name: String, _ text: String) -> SourceFile {
            SourceFile(displayPath: name, relativePath: name, bytes: Array(text.utf8))
        }
        return SchemaSources(
            config: file("swiftdata-gen.yaml", config), versions: versions.map { file($0.0, $0.1) })
    }

    func testTheDraftLeavesOutWhatDescribesOnlyTheStep() throws {
        let sources = Self.sources([("1.0.0.yaml", Self.first), ("2.0.0.yaml", Self.latest)])
        let (draft, diagnostics) = Generator.nextVersion(sources, version: SemanticVersion(2, 1, 0), schema: nil)
        XCTAssertFalse(diagnostics.hasErrors, diagnostics.map(\.rendered).joined(separator: "\n"))
        XCTAssertEqual(draft?.name, "2.1.0.yaml")
        XCTAssertEqual(
            draft?.contents,
            """
            # Shop 2.0.0: names, prices as numbers, unique codes.
            schema: Shop
            version: 2.1.0
            models:
              Item:
                doc: Something on sale.
                unique: [[code]]
                # Which duplicate survives when codes become unique.
                properties:
                  name: { type: String }  # was title
                  price:
                    type: Decimal
                    default: 0
                    # The old text, parsed.
                    doc: The price in the shop's currency.
                  code: { type: String, doc: "A, B or C" }

            """)
    }

    func testAKeyOnTheLastLineWithoutANewlineIsLeftOut() throws {
        let latest =
            "schema: Shop\nversion: 2.0.0\nmodels:\n  Item:\n    properties:\n      name: String\n"
            + "      code: String\ncustomMigration: true"
        let text = "schema: Shop\nversion: 1.0.0\nmodels:\n  Item:\n    properties:\n      name: String\n"
        let sources = Self.sources([("1.0.0.yaml", text), ("2.0.0.yaml", latest)])
        let (draft, diagnostics) = Generator.nextVersion(sources, version: SemanticVersion(3, 0, 0), schema: nil)
        XCTAssertNil(diagnostics.first { $0.severity == .error }?.rendered)
        XCTAssertEqual(
            draft?.contents,
            "schema: Shop\nversion: 3.0.0\nmodels:\n  Item:\n    properties:\n      name: String\n      code: String\n")
    }

    /// Layouts whose text edits once crashed or left broken YAML: an explicit key is refused where it
    /// stands with nothing written; a comment at column 0 inside a removed block and a removed key in
    /// a flow mapping over several lines are left out cleanly.
    func testLayoutsTheEditsCannotFollowAreRefusedNeverHalfWritten() throws {
        let first =
            "schema: Lib\nversion: 1.0.0\nmodels:\n  Book:\n    properties:\n      title: String\n      notes: String?\n"
        let explicit =
            "schema: Lib\nversion: 2.0.0\n? acknowledgedRemovals\n: [Book.notes]\nmodels:\n  Book:\n    properties:\n"
            + "      title: String\n"
        let refused = Generator.nextVersion(
            Self.sources([("1.0.0.yaml", first), ("2.0.0.yaml", explicit)]), version: SemanticVersion(3, 0, 0),
            schema: nil)
        XCTAssertNil(refused.file)
        let error = try XCTUnwrap(refused.diagnostics.first { $0.severity == .error })
        XCTAssertEqual(error.code, .newVersionLayoutNotEditable)
        XCTAssertEqual(error.location?.line, 3)
        for latest in [
            "schema: Lib\nversion: 2.0.0\nacknowledgedRemovals: [Book.notes]\nmodels:\n  Book:\n    properties:\n"
                + "      title: String\n      isbn:\n        type: String?\n        from:\n# at column 0\n"
                + "          property: title\n          convert: \"x\"\n      pages: Int?\n",
            "schema: Lib\nversion: 2.0.0\nacknowledgedRemovals: [Book.notes]\nmodels:\n  Book: { properties: {\n"
                + "      title: String,\n      isbn: { type: String?, from: { property: title,\n"
                + "        convert: \"x\" } } } }\n",
        ] {
            let (draft, diagnostics) = Generator.nextVersion(
                Self.sources([("1.0.0.yaml", first), ("2.0.0.yaml", latest)]), version: SemanticVersion(3, 0, 0),
                schema: nil)
            XCTAssertFalse(diagnostics.hasErrors, diagnostics.map(\.rendered).joined(separator: "\n"))
            let text = try XCTUnwrap(draft?.contents)
            XCTAssertFalse(text.contains("from") || text.contains("acknowledged") || text.contains("convert"), text)
            XCTAssertNotNil(YAMLParser.parse(Array(text.utf8), file: "draft").0, text)
        }
    }

    /// Random comments (at any column), blank lines and block or flow styles around every step-only
    /// key: each draft either parses back to the latest file without those keys, or is refused with
    /// SDG617; never a crash, never YAML that does not parse.
    func testRandomLayoutsDraftCleanlyOrAreRefused() throws {
        var random = SystemRandomNumberGenerator()
        let first =
            "schema: Lib\nversion: 1.0.0\nmodels:\n  Book:\n    properties:\n      title: String\n      notes: String?\n"
        var refusedCount = 0
        for _ in 0..<150 {
            func noise() -> String {
                switch Int.random(in: 0..<6, using: &random) {
                case 0: return "# c\n"
                case 1: return String(repeating: " ", count: Int.random(in: 0..<12, using: &random)) + "# c: x\n"
                case 2: return "\n"
                default: return ""
                }
            }
            let flow = Bool.random(using: &random)
            let from =
                flow
                ? "      isbn: { type: String?, from: { property: title,\(noise().isEmpty ? " " : "\n        ")convert: \"x\" } }\n"
                : "      isbn:\n        type: String?\n\(noise())        from:\n\(noise())          property: title\n"
                    + "\(noise())          convert: \"x\"\n"
            let latest =
                "\(noise())schema: Lib\n\(noise())version: 2.0.0\n\(noise())acknowledgedRemovals:\n\(noise())- Book.notes\n"
                + "\(noise())models:\n  Book:\n\(noise())    properties:\n\(noise())      title: String\n\(noise())"
                + from + "\(noise())      pages: Int?\n\(noise())"
            let sources = Self.sources([("1.0.0.yaml", first), ("2.0.0.yaml", latest)])
            let validation = Generator.validate(sources).diagnostics
            guard !validation.hasErrors else { continue }
            let (draft, diagnostics) = Generator.nextVersion(sources, version: SemanticVersion(3, 0, 0), schema: nil)
            if let text = draft?.contents {
                let parsed = YAMLParser.parse(Array(text.utf8), file: "draft")
                XCTAssertNotNil(parsed.0, "draft does not parse:\n\(text)\nfrom:\n\(latest)")
                XCTAssertFalse(text.contains("convert") || text.contains("Book.notes"), text)
                XCTAssertTrue(text.contains("pages: Int?") && text.contains("version: 3.0.0"), text)
            } else {
                refusedCount += 1
                XCTAssertEqual(diagnostics.first { $0.severity == .error }?.code, .newVersionLayoutNotEditable, latest)
            }
        }
        XCTAssertLessThan(refusedCount, 150, "some layouts are drafted")
    }

    /// Over every golden and real app: the draft of the next version, added to the history, is
    /// refused only for repeating the latest (SDG603, until the team edits it), says nothing the
    /// latest file does not say of itself, and warns of no key copied forward (SDG614, SDG633,
    /// SDG628).
    func testEveryHistorysNextVersionDraftRepeatsOnlyWhatIsStored() throws {
        var drafted = 0
        for name in GoldenTests.caseNames {
            let input = GoldenTests.folder(name).appendingPathComponent("input").resolvingSymlinksInPath().path
            let sources = try SchemaLoader.read(directory: input).get()
            let (histories, diagnostics) = Generator.validate(sources)
            guard !diagnostics.hasErrors else { continue }
            func codes(in file: String, _ diagnostics: [Diagnostic]) -> Set<DiagnosticCode> {
                Set(diagnostics.filter { $0.location?.file == file }.map(\.code))
            }
            for history in histories {
                guard let latest = history.latest else { continue }
                let next = SemanticVersion(latest.version.major + 1, 0, 0)
                let (draft, refusal) = Generator.nextVersion(sources, version: next, schema: history.name)
                let file = try XCTUnwrap(draft, "\(name): " + refusal.map(\.rendered).joined(separator: "\n"))
                var extended = sources
                extended.versions.append(
                    SourceFile(displayPath: file.name, relativePath: file.name, bytes: Array(file.contents.utf8)))
                let after = Generator.validate(extended).diagnostics
                let said = codes(in: file.name, after)
                XCTAssertTrue(said.contains(.identicalVersions), "\(name): the draft does not repeat \(latest.version)")
                let shown = sources.versions.first { $0.relativePath == latest.file }?.displayPath ?? latest.file
                let new = said.subtracting(codes(in: shown, diagnostics)).subtracting([.identicalVersions])
                let copied = said.intersection([.renameAlreadyApplied, .dedupeUnused, .hookRequired])
                XCTAssertTrue(
                    new.isEmpty && copied.isEmpty,
                    "\(name) \(history.name): the draft of \(next) says:\n"
                        + after.filter { $0.location?.file == file.name }.map(\.rendered).joined(separator: "\n"))
                drafted += 1
            }
        }
        XCTAssertGreaterThanOrEqual(drafted, 30)
    }

    /// `--rename Item.price=cost` writes the property under its new name with `renamedFrom`, in each
    /// layout a property is written in (a type alone, braces, a block, one with a step-only key left
    /// out), and the step keeps every value; a name that is not there is refused.
    func testARenameIsWrittenSoTheStepKeepsTheValues() throws {
        let sources = Self.sources([("1.0.0.yaml", Self.first), ("2.0.0.yaml", Self.latest)])
        let renames = ["Item.name=heading", "Item.price=cost", "Item.code=sku"].compactMap(
            NextVersionFile.Rename.init(parsing:))
        XCTAssertEqual(renames.count, 3)
        let (draft, diagnostics) = Generator.nextVersion(
            sources, version: SemanticVersion(3, 0, 0), schema: nil, renaming: renames)
        let file = try XCTUnwrap(draft, diagnostics.map(\.rendered).joined(separator: "\n"))
        for line in [
            "      heading: { renamedFrom: name, type: String }  # was title",
            "      cost:\n        renamedFrom: price\n        type: Decimal",
            "      sku: { renamedFrom: code, type: String, doc: \"A, B or C\" }",
        ] {
            XCTAssertTrue(file.contents.contains(line), "no '\(line)' in:\n\(file.contents)")
        }
        var extended = sources
        extended.versions.append(
            SourceFile(displayPath: file.name, relativePath: file.name, bytes: Array(file.contents.utf8)))
        let (histories, said) = Generator.validate(extended)
        XCTAssertFalse(said.hasErrors, said.map(\.rendered).joined(separator: "\n"))
        let step = try XCTUnwrap(MigrationPlanner.plan(try XCTUnwrap(histories.first)).plan.steps.last)
        XCTAssertEqual(
            Set(step.changes.map(\.summary)),
            ["Item.name renamed to heading", "Item.price renamed to cost", "Item.code renamed to sku"])
        let plain = try XCTUnwrap(
            Generator.nextVersion(
                Self.sources([("1.0.0.yaml", Self.first)]), version: SemanticVersion(2, 0, 0), schema: nil,
                renaming: [try XCTUnwrap(NextVersionFile.Rename(parsing: "Shelf.label=tag"))]
            ).file)
        XCTAssertTrue(plain.contents.contains("      tag: { type: String, renamedFrom: label }\n"), plain.contents)
        XCTAssertTrue(file.contents.contains("unique: [[sku]]"), "the group names the old name:\n\(file.contents)")
        // The other end's inverse follows the rename.
        let related = """
            schema: Shop
            version: 1.0.0
            models:
              Item:
                properties:
                  shelf: { type: Shelf?, inverse: items }
              Shelf:
                properties:
                  items: "[Item]"

            """
        let relinked = try XCTUnwrap(
            Generator.nextVersion(
                Self.sources([("1.0.0.yaml", related)]), version: SemanticVersion(2, 0, 0), schema: nil,
                renaming: [try XCTUnwrap(NextVersionFile.Rename(parsing: "Shelf.items=goods"))]
            ).file)
        XCTAssertTrue(relinked.contents.contains("shelf: { type: Shelf?, inverse: goods }"), relinked.contents)
        XCTAssertTrue(relinked.contents.contains("goods: { type: \"[Item]\", renamedFrom: items }"), relinked.contents)
        for wrong in ["Item.gone=x", "Nope.name=x", "Item.name=code"] {
            let rename = try XCTUnwrap(NextVersionFile.Rename(parsing: wrong))
            let (none, refusal) = Generator.nextVersion(
                sources, version: SemanticVersion(3, 0, 0), schema: nil, renaming: [rename])
            XCTAssertNil(none, wrong)
            XCTAssertEqual(refusal.filter(\.isError).map(\.code), [.newVersionRenameInvalid], wrong)
        }
        XCTAssertNil(NextVersionFile.Rename(parsing: "Item.name"))
        XCTAssertNil(NextVersionFile.Rename(parsing: "Item.name=class"))
    }

    func testAVersionNotAfterTheLatestIsRefused() {
        let sources = Self.sources([("1.0.0.yaml", Self.first), ("2.0.0.yaml", Self.latest)])
        for (version, code) in [
            (SemanticVersion(1, 5, 0), DiagnosticCode.newVersionNotAfterLatest),
            (SemanticVersion(2, 0, 0), .newVersionFileExists),
        ] {
            let (draft, diagnostics) = Generator.nextVersion(sources, version: version, schema: nil)
            XCTAssertNil(draft)
            XCTAssertEqual(diagnostics.filter { $0.severity == .error }.map(\.code), [code])
        }
    }

    func testAFileInTheWayIsRefusedBeforeAnythingElse() {
        let sources = Self.sources([("1.0.0.yaml", Self.first), ("Old/3.0.0.yaml", "not: [valid")])
        let (draft, diagnostics) = Generator.nextVersion(sources, version: SemanticVersion(3, 0, 0), schema: nil)
        XCTAssertNil(draft)
        XCTAssertEqual(diagnostics.map(\.code), [.newVersionFileExists])
    }

    func testAHistoryThatDoesNotValidateGetsNoDraft() {
        let broken = Self.latest.replacingOccurrences(of: "renamedFrom: title", with: "renamedFrom: heading")
        let sources = Self.sources([("1.0.0.yaml", Self.first), ("2.0.0.yaml", broken)])
        let (draft, diagnostics) = Generator.nextVersion(sources, version: SemanticVersion(3, 0, 0), schema: nil)
        XCTAssertNil(draft)
        XCTAssertTrue(diagnostics.contains { $0.code == .renameSourceNotFound })
    }

    /// The command writes the draft once, then refuses with exit 1 and leaves the file as it is;
    /// a version that is not one is a usage error.
    func testTheCommandWritesOnceAndNeverOverwrites() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sdg-next-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.config.write(
            to: folder.appendingPathComponent("swiftdata-gen.yaml"), atomically: true, encoding: .utf8)
        try Self.first.write(to: folder.appendingPathComponent("1.0.0.yaml"), atomically: true, encoding: .utf8)
        try Self.latest.write(to: folder.appendingPathComponent("2.0.0.yaml"), atomically: true, encoding: .utf8)
        let written = try DocumentationTests.run("swiftdata-gen new-version . 2.1.0", in: folder)
        XCTAssertEqual(written.status, 0, written.output)
        let draft = folder.appendingPathComponent("2.1.0.yaml")
        try "edited by the team\n".write(to: draft, atomically: true, encoding: .utf8)
        let again = try DocumentationTests.run("swiftdata-gen new-version . 2.1.0", in: folder)
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.output.contains("[SDG705]"), again.output)
        XCTAssertEqual(try String(contentsOf: draft, encoding: .utf8), "edited by the team\n")
        let notAVersion = try DocumentationTests.run("swiftdata-gen new-version . next", in: folder)
        XCTAssertEqual(notAVersion.status, 2, notAVersion.output)
    }

    func testSeveralSchemasNeedOneNamed() {
        let other = "schema: Notes\nversion: 1.0.0\nmodels:\n  Note:\n    properties:\n      text: String\n"
        let sources = Self.sources([("1.0.0.yaml", Self.first), ("Notes/1.0.0.yaml", other)])
        let (none, refusal) = Generator.nextVersion(sources, version: SemanticVersion(2, 0, 0), schema: nil)
        XCTAssertNil(none)
        XCTAssertTrue(refusal.contains { $0.message.contains("name one with --schema") })
        let (notes, _) = Generator.nextVersion(sources, version: SemanticVersion(1, 1, 0), schema: "Notes")
        XCTAssertEqual(notes?.name, "Notes/1.1.0.yaml", "written beside the schema's latest file")
    }
}
