import Foundation
import XCTest

@testable import SwiftDataGenCore

/// Input YAML → expected Swift and diagnostics, per folder in Fixtures/Golden. The `trips` and
/// `library` inputs are links to the example packages' schemas, so the examples are goldens too.
/// Re-record with `SDG_RECORD_GOLDENS=1 swift test --filter GoldenTests`, then review the diff.
final class GoldenTests: XCTestCase {
    static var goldenRoot: URL { TestPaths.fixtures.appendingPathComponent("Golden") }

    /// Real apps' schema histories, each with the `SOURCE.md` that says where it comes from.
    static var corpusRoot: URL { TestPaths.fixtures.appendingPathComponent("Corpus") }

    /// Feature cases by folder name, then the corpus apps as `corpus/<owner>-<repo>`: every
    /// check that runs over the goldens runs over the real apps too.
    static var caseNames: [String] { folders(in: goldenRoot) + corpusNames }
    static var corpusNames: [String] { folders(in: corpusRoot).map { "corpus/" + $0 } }

    static func folder(_ name: String) -> URL {
        name.hasPrefix("corpus/")
            ? corpusRoot.appendingPathComponent(String(name.dropFirst("corpus/".count)))
            : goldenRoot.appendingPathComponent(name)
    }

    private static func folders(in root: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(
                    atPath: root.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
    }

    /// What the generator produces for a case: its files plus `diagnostics.txt`.
    static func produce(_ name: String) throws -> [String: String] {
        let input = folder(name).appendingPathComponent("input").resolvingSymlinksInPath().path
        let sources = try SchemaLoader.read(directory: input).get()
        let templates = try SchemaLoader.templates(overrideDirectory: nil).get()
        let output = Generator.generate(sources, templates: templates, options: Generator.Options(upgradeTests: true))
        var files = Dictionary(uniqueKeysWithValues: output.files.map { ($0.name, $0.contents) })
        for scaffold in output.hookScaffolds { files[scaffold.name + ".scaffold"] = scaffold.contents }
        for test in output.upgradeTests { files[test.name] = test.contents }
        let diagnostics = output.diagnostics.sortedForDisplay().map(\.rendered).joined(separator: "\n")
        files["diagnostics.txt"] =
            diagnostics.replacingOccurrences(of: input, with: "input") + (diagnostics.isEmpty ? "" : "\n")
        return files
    }

    func testEveryCaseMatchesItsGolden() throws {
        let names = Self.caseNames
        XCTAssertGreaterThanOrEqual(names.count, 6, "golden cases are missing")
        for name in names {
            let produced = try Self.produce(name)
            let expectedFolder = Self.folder(name).appendingPathComponent("expected")
            if ProcessInfo.processInfo.environment["SDG_RECORD_GOLDENS"] == "1" {
                try? FileManager.default.removeItem(at: expectedFolder)
                try FileManager.default.createDirectory(at: expectedFolder, withIntermediateDirectories: true)
                for (file, contents) in produced {
                    try contents.write(
                        to: expectedFolder.appendingPathComponent(file), atomically: true, encoding: .utf8)
                }
                continue
            }
            let expectedNames = try FileManager.default.contentsOfDirectory(atPath: expectedFolder.path).sorted()
            XCTAssertEqual(expectedNames, produced.keys.sorted(), "\(name): the set of generated files differs")
            for file in expectedNames {
                let expected = try String(contentsOf: expectedFolder.appendingPathComponent(file), encoding: .utf8)
                XCTAssertEqual(
                    produced[file], expected,
                    "\(name)/\(file) differs from its golden; re-record with SDG_RECORD_GOLDENS=1 and review")
            }
        }
    }

    func testBrokenCloudKitCaseReportsEveryRule() throws {
        let diagnostics = try XCTUnwrap(Self.produce("cloudkit-broken")["diagnostics.txt"])
        for code: DiagnosticCode in [
            .cloudKitUnique, .cloudKitRequiredAttribute, .cloudKitRequiredRelationship, .cloudKitDeny,
        ] {
            XCTAssertTrue(diagnostics.contains("[\(code.rawValue)]"), "missing \(code)")
        }
    }

    func testOutputIsIdenticalAcrossRuns() throws {
        for name in Self.caseNames {
            XCTAssertEqual(try Self.produce(name), try Self.produce(name), name)
        }
    }
}
